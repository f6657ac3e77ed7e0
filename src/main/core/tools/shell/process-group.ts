/**
 * Killing a command's whole process group (X8): the shell is spawned detached, so it leads its own group and
 * every child it starts (`sleep 100 &`, pipelines) is in that group. Stop and timeout send SIGTERM to the group,
 * wait up to a grace period, then SIGKILL. Zombies do not count as alive (see `_policy/procfs.ts`).
 * Limits: a child that calls `setsid` leaves the group and survives.
 * Check ids (X8) are listed in docs/security-checks.md.
 */

import { liveGroupMembers } from '../_policy/procfs';

function groupAlive(pgid: number): boolean {
  const live = liveGroupMembers(pgid);
  if (live !== null) return live > 0;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** SIGTERM the group, then SIGKILL what is left after `graceMs`. Resolves once the group is gone (or bounded). */
export async function killProcessGroup(pgid: number, graceMs = 2000): Promise<void> {
  try {
    process.kill(-pgid, 'SIGTERM');
  } catch {
    return; // already gone
  }
  for (const deadline = Date.now() + graceMs; Date.now() < deadline; ) {
    if (!groupAlive(pgid)) return;
    await sleep(25);
  }
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    return;
  }
  // A zombie keeps the group "alive" to kill(0) until its parent reaps it; do not wait on that forever.
  for (let i = 0; i < 40 && groupAlive(pgid); i++) await sleep(25);
}
