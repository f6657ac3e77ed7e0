/** Types of scripts/chromium.mjs (plain JavaScript so `npm test` can use it before any TypeScript runs). */
export interface CandidateInput {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  home: string;
  playwrightPath: string | null;
}
export function chromiumCandidates(input: CandidateInput): string[];
export function missingChromiumMessage(platform: NodeJS.Platform): string;
export function playwrightChromiumPath(): string | null;
export function findChromiumIn(candidates: readonly string[], exists?: (path: string) => boolean): string | null;
export function findChromium(options?: {
  platform?: NodeJS.Platform;
  env?: Record<string, string | undefined>;
  home?: string;
  exists?: (path: string) => boolean;
}): string | null;
export function ensureChromium(options: {
  find: () => string | null;
  install: () => boolean;
  platform?: NodeJS.Platform;
  log?: (line: string) => void;
}): { path: string } | { error: string };
