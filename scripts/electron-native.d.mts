/** Types of electron-native.mjs, for the tests that import it. */
export interface NativeTarget {
  version?: string;
  platform?: string;
  arch?: string;
}
export type RunTool = (
  command: string,
  args: string[],
  options: { cwd: string; stdio: 'pipe'; timeout: number; env: NodeJS.ProcessEnv },
) => unknown;
export function electronVersion(root: string): string;
export function nativeDir(root: string, target: Required<NativeTarget>): string;
export function bindingIn(dir: string): string;
export function oneLineReason(error: unknown): string;
export function loadsInThisNode(binding: string): boolean;
export function electronSqliteBinding(root: string, target?: NativeTarget, run?: RunTool): string;
