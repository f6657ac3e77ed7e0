/**
 * Where bash is. `execute_cmd` runs every command with bash because the gate parses commands with the bash grammar
 * (docs/shell-analysis.md "The shell that runs"): running them with another shell (dash as `/bin/sh`) would run
 * something other than what was checked. Looked up once; null when no candidate exists.
 * Limits: the candidates are the usual install places; a bash elsewhere is not found (the tool then says so).
 */
import { kindAt } from '../_policy/fs';

export const BASH_CANDIDATES: readonly string[] = [
  '/bin/bash',
  '/usr/bin/bash',
  '/usr/local/bin/bash',
  '/opt/homebrew/bin/bash',
];

let found: string | null | undefined;

export function findBash(): string | null {
  if (found === undefined) found = BASH_CANDIDATES.find((c) => kindAt(c) === 'file') ?? null;
  return found;
}
