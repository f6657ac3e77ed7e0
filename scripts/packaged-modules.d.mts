/** Types of packaged-modules.mjs, for the packaging test. */
export const RENDERER_ROOTS: string[];
export function dependencyClosure(root: string, names: string[]): Set<string>;
export function rendererOnlyPackages(root: string): string[];
