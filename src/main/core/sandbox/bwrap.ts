/**
 * A plan (plan.ts) as bubblewrap's arguments (docs/sandbox.md "Linux"). The fixed part:
 * - `--unshare-user --cap-drop ALL`: no capability inside, also when the app runs as root (bubblewrap run by root
 *   keeps every capability otherwise, and the command could unmount what hides a folder); `--disable-userns` where
 *   bubblewrap has it (0.8.0 and later): no user namespace of its own inside, so `unshare -rm` cannot begin a fresh
 *   mount namespace either (without it the mounts stay locked: a namespace made inside inherits them unmovable);
 * - `--unshare-pid` with a fresh `/proc`: the command sees only its own processes, so `/proc/<pid>/root` leads
 *   nowhere else; `--unshare-ipc`; `--unshare-net` unless the decision grants network;
 * - `--ro-bind / /`, a minimal `/dev` (`--dev`), then the plan's mounts in order: `--tmpfs` for the private /tmp,
 *   `--bind` for what is writable, `--ro-bind` for what stays read-only, an empty tmpfs of mode 0555 over a hidden
 *   folder (a write there is refused; had the command made it writable, what it wrote would end with the sandbox) and
 *   `/dev/null` over a hidden file;
 * - `--seccomp 3`: the filter of seccomp.ts, read from the command's fd 3.
 * Not used, on purpose: `--new-session` and `--die-with-parent`. The command is spawned detached, so it already leads
 * a session of its own with no controlling terminal (no TIOCSTI into the app's terminal); a new session would also
 * make a new process group, which stop, timeout and the start-up sweep of a crashed run's leftovers would then miss
 * (they kill the group: bubblewrap, its pid-1 helper and the command); and dying with the app would end commands at
 * a crash, where the app's rule is that the next start ends them (check R4 in docs/security-checks.md).
 */
import { pathUnder } from '../tools/_policy/paths';
import { type Mount, orderMounts, type SandboxPlan } from './plan';

export interface BwrapOptions {
  network: boolean;
  /** The folder the command starts in (its `workdir`); shown read-only when the plan does not show it. */
  cwd: string;
  /** Whether this bubblewrap knows `--disable-userns` (status.ts finds out). */
  disableUserns: boolean;
  /** Whether it takes `--perms` for a tmpfs (0.5.0 and later); else a hidden folder is remounted read-only. */
  tmpfsPerms: boolean;
  /** Whether a seccomp filter comes on fd 3. */
  seccomp: boolean;
}

/** The deepest mount that decides what `path` is inside the sandbox, or null for the read-only root. */
export function mountOver(mounts: readonly Mount[], path: string): Mount | null {
  let best: Mount | null = null;
  for (const m of mounts) if (pathUnder(path, m.path)) best = m; // ordered by depth: the last one decides
  return best;
}

/** The plan's mounts for one call: the call's folder added read-only when the plan would leave it unseen. */
export function mountsForCall(plan: SandboxPlan, cwd: string): Mount[] | { hiddenBy: Mount } {
  const over = mountOver(plan.mounts, cwd);
  if (over?.kind === 'hidden') return { hiddenBy: over };
  if (over?.kind !== 'private-tmp') return [...plan.mounts];
  return orderMounts([...plan.mounts, { path: cwd, kind: 'read-only', isDir: true, why: 'call-folder' }]);
}

function mountArgs(m: Mount, tmpfsPerms: boolean): string[] {
  switch (m.kind) {
    case 'private-tmp':
      return ['--tmpfs', m.path];
    case 'writable':
      return ['--bind', m.path, m.path];
    case 'read-only':
      return ['--ro-bind', m.path, m.path];
    case 'hidden':
      if (!m.isDir) return ['--ro-bind', '/dev/null', m.path];
      return tmpfsPerms ? ['--perms', '0555', '--tmpfs', m.path] : ['--tmpfs', m.path];
  }
}

/** bubblewrap's arguments up to and including `--`; the command line follows. */
export function bwrapArgs(mounts: readonly Mount[], options: BwrapOptions): string[] {
  return [
    '--unshare-user',
    ...(options.disableUserns ? ['--disable-userns'] : []),
    '--cap-drop',
    'ALL',
    '--unshare-pid',
    '--unshare-ipc',
    ...(options.network ? [] : ['--unshare-net']),
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    ...mounts.flatMap((m) => mountArgs(m, options.tmpfsPerms)),
    // An older bubblewrap: a hidden folder is made read-only by a remount (half a millisecond each, where `--perms`
    // costs nothing), last, as a deeper mount inside it (the workspace in the data folder) needs its mount point
    // made first. Not recursive, so what is mounted inside keeps its own mode.
    ...(options.tmpfsPerms
      ? []
      : mounts.filter((m) => m.kind === 'hidden' && m.isDir).flatMap((m) => ['--remount-ro', m.path])),
    '--setenv',
    'TMPDIR',
    '/tmp',
    '--chdir',
    options.cwd,
    ...(options.seccomp ? ['--seccomp', '3'] : []),
    '--',
  ];
}
