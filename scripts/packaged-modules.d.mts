/** Types of packaged-modules.mjs, for the packaging test. */
export const RENDERER_ROOTS: string[];
export const MAIN_NEVER_LOADS: string[];
export function dependencyClosure(root: string, names: string[], skip?: string[]): Set<string>;
export function rendererOnlyPackages(root: string): string[];
