/** Types of scripts/dist-preflight.mjs (plain JavaScript, run by `npm run dist` before any build). */
export interface DistNeed {
  what: string;
}
export function distDownloads(options: {
  root: string;
  platform?: NodeJS.Platform;
  arch?: string;
  env?: Record<string, string | undefined>;
  home?: string;
  version?: string;
}): DistNeed[];
export function canReach(host?: string, timeoutMs?: number): Promise<boolean>;
export function preflightLine(needs: readonly DistNeed[], reachable: boolean): string | null;
