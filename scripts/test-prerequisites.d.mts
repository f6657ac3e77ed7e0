/** Types of scripts/test-prerequisites.mjs (plain JavaScript so `npm test` can use it before any TypeScript runs). */
export interface TestProgram {
  program: string;
  debian: string[];
  why: string;
}
export const TEST_PROGRAMS: readonly TestProgram[];
export function onPath(program: string, path?: string): boolean;
export function missingPrograms(path?: string, programs?: readonly TestProgram[]): TestProgram[];
export function missingLine(missing: readonly TestProgram[]): string | null;
