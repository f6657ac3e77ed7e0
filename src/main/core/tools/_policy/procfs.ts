/**
 * Process-group liveness from `/proc` (Linux), kept in `_policy/` because it reads the filesystem (F10). Why not
 * `kill(-pgid, 0)` alone: a killed grandchild re-parented to a PID 1 that never reaps (common in containers)
 * stays a zombie and would keep the group "alive" forever; a zombie runs no code, so it does not count here.
 * Returns null where `/proc` is unavailable (macOS), and the caller falls back to `kill(-pgid, 0)`.
 * Check ids (F10) are listed in docs/security-checks.md.
 */
import { readdirSync, readFileSync } from 'node:fs';

export function liveGroupMembers(pgid: number): number | null {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return null;
  }
  let live = 0;
  for (const name of names) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'latin1');
    } catch {
      continue; // exited meanwhile
    }
    // Fields after the parenthesised command: state ppid pgrp …
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(rest[2]) === pgid && rest[0] !== 'Z' && rest[0] !== 'X') live++;
  }
  return live;
}
