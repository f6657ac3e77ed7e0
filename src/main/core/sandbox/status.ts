/**
 * Whether the sandbox can start on this machine, and if not, why in one line and how to fix it in another
 * (docs/sandbox.md "What it needs"). Found once per process by starting the real thing: on Linux bubblewrap with the
 * namespaces, capability drop and seccomp filter every sandboxed command gets, running `true`; on macOS
 * `sandbox-exec` with a trivial profile. Windows has no sandbox here: commands run with the person's rights, and
 * the status says so (the run says so too; it is not a failure to start).
 * A failure is read from bubblewrap's message and the kernel's switches for user namespaces: bubblewrap missing,
 * user namespaces off (`kernel.unprivileged_userns_clone`, `user.max_user_namespaces`), Ubuntu's AppArmor restriction
 * (`kernel.apparmor_restrict_unprivileged_userns`), or a container that refuses new namespaces.
 */
import { readFileSync } from 'node:fs';
import { bwrapArgs } from './bwrap';
import { unixSocketFilter } from './seccomp';

export type SandboxStatus =
  | {
      state: 'ready';
      engine: 'bubblewrap' | 'seatbelt';
      /** bubblewrap only: whether it knows `--disable-userns` (0.8.0 and later). */
      disableUserns: boolean;
      /** bubblewrap only: whether it takes `--perms` for a tmpfs (0.5.0 and later). */
      tmpfsPerms: boolean;
      /** bubblewrap only: whether Unix sockets are filtered (x86-64 and arm64). */
      seccomp: boolean;
    }
  /** The sandbox should run here but cannot: a sandboxed call fails with `reason` and `fix`. */
  | { state: 'unavailable'; reason: string; fix: string }
  /** No sandbox on this platform (Windows): commands run unconfined and their results say so. */
  | { state: 'unsupported'; reason: string };

export const WINDOWS_NOTE = 'Windows has no command sandbox in Skald: commands run with your full rights.';

const INSTALL_FIX =
  'Install bubblewrap: `sudo apt install bubblewrap` (Debian, Ubuntu), `sudo dnf install bubblewrap` (Fedora), `sudo pacman -S bubblewrap` (Arch).';

/** Reads a kernel switch under /proc/sys; null when it does not exist here. */
export type SysctlReader = (name: string) => string | null;
const readSysctl: SysctlReader = (name) => {
  try {
    return readFileSync(`/proc/sys/${name.replace(/\./g, '/')}`, 'utf8').trim();
  } catch {
    return null;
  }
};

/** Why bubblewrap failed, in the person's words, from its message and the kernel's switches. */
export function explainBwrapFailure(
  message: string,
  sysctl: SysctlReader = readSysctl,
): { reason: string; fix: string } {
  const first = message.trim().split('\n')[0] ?? '';
  if (/ENOENT|not found|No such file/i.test(first) && !/^bwrap:/.test(first))
    return { reason: 'bubblewrap (bwrap) is not installed, so commands cannot run in the sandbox.', fix: INSTALL_FIX };
  if (sysctl('kernel.apparmor_restrict_unprivileged_userns') === '1')
    return {
      reason: `AppArmor keeps programs from making the user namespaces bubblewrap needs (${first}).`,
      fix: 'Give bwrap an AppArmor profile that allows them: a file /etc/apparmor.d/bwrap with `abi <abi/4.0>, include <tunables/global> profile bwrap /usr/bin/bwrap flags=(unconfined) { userns, }`, then `sudo systemctl reload apparmor`.',
    };
  if (sysctl('kernel.unprivileged_userns_clone') === '0')
    return {
      reason: `User namespaces are turned off for normal users, and bubblewrap needs them (${first}).`,
      fix: 'Turn them on: `sudo sysctl -w kernel.unprivileged_userns_clone=1` (and in /etc/sysctl.d/ to keep it).',
    };
  if (sysctl('user.max_user_namespaces') === '0')
    return {
      reason: `User namespaces are turned off (user.max_user_namespaces is 0), and bubblewrap needs them (${first}).`,
      fix: 'Allow some: `sudo sysctl -w user.max_user_namespaces=15000` (and in /etc/sysctl.d/ to keep it).',
    };
  if (/Operation not permitted|Permission denied|No permissions|Creating new namespace failed/i.test(first))
    return {
      reason: `The system refused bubblewrap a new namespace (${first}); a container usually does.`,
      fix: 'Run Skald outside the container, or start the container with `--security-opt seccomp=unconfined --security-opt apparmor=unconfined`.',
    };
  return {
    reason: `bubblewrap could not start a sandbox (${first || 'no message'}).`,
    fix: 'Check that `bwrap --unshare-user --ro-bind / / true` works in a terminal; if it does not, its message says what is missing.',
  };
}

async function probeBwrap(bwrap: string): Promise<SandboxStatus> {
  const { execa } = await import('execa');
  const version = await execa(bwrap, ['--version'], { reject: false, timeout: 5_000 });
  if (version.failed && version.exitCode === undefined)
    return { state: 'unavailable', ...explainBwrapFailure(String(version.code ?? version.message)) };
  const m = /(\d+)\.(\d+)/.exec(version.stdout);
  const atLeast = (minor: number) => !!m && (Number(m[1]) > 0 || Number(m[2]) >= minor);
  const disableUserns = atLeast(8);
  const tmpfsPerms = atLeast(5);
  const filter = unixSocketFilter();
  // The very arguments of a sandboxed command (bwrap.ts), with no mount but the private /tmp, running `true`.
  const tmp = { path: '/tmp', kind: 'private-tmp', isDir: true, why: 'temp' } as const;
  const options = { network: false, cwd: '/', disableUserns, tmpfsPerms, seccomp: filter !== null };
  const args = [...bwrapArgs([tmp], options), 'true'];
  const run = await execa(bwrap, args, {
    reject: false,
    timeout: 10_000,
    stdio: ['ignore', 'pipe', 'pipe', ...(filter ? [filter] : [])],
  });
  if (run.exitCode === 0)
    return { state: 'ready', engine: 'bubblewrap', disableUserns, tmpfsPerms, seccomp: filter !== null };
  return { state: 'unavailable', ...explainBwrapFailure(String(run.stderr || run.message)) };
}

async function probeSeatbelt(): Promise<SandboxStatus> {
  const { execa } = await import('execa');
  const run = await execa('/usr/bin/sandbox-exec', ['-p', '(version 1)(allow default)', '/usr/bin/true'], {
    reject: false,
    timeout: 10_000,
  });
  if (run.exitCode === 0)
    return { state: 'ready', engine: 'seatbelt', disableUserns: false, tmpfsPerms: false, seccomp: false };
  return {
    state: 'unavailable',
    reason: `macOS's sandbox-exec could not start (${String(run.stderr || run.message).split('\n')[0]}).`,
    fix: 'sandbox-exec ships with macOS at /usr/bin/sandbox-exec; check that it runs in a terminal.',
  };
}

/** Probes this machine (no cache: sandbox.ts keeps the answer). */
export function probeSandbox(platform: NodeJS.Platform = process.platform, bwrap = 'bwrap'): Promise<SandboxStatus> {
  if (platform === 'linux') return probeBwrap(bwrap);
  if (platform === 'darwin') return probeSeatbelt();
  if (platform === 'win32') return Promise.resolve({ state: 'unsupported', reason: WINDOWS_NOTE });
  return Promise.resolve({
    state: 'unavailable',
    reason: `Skald has no command sandbox for ${platform}.`,
    fix: 'Run the command outside the sandbox, if you trust it.',
  });
}

/** What a sandboxed command may and may not do, for Settings → Sandbox (docs/sandbox.md "What a sandboxed command may do"). */
export const SANDBOX_CONFINES: readonly string[] = [
  'It writes only in the session’s working folder and its own empty /tmp (gone when it ends).',
  'It cannot see the app’s data folder (the database, settings, key file), any secrets/ folder or the credential stores (~/.ssh, ~/.aws, ~/.gnupg, browser profiles, …).',
  'It has no network, unless you approve a command with network or a rule grants it to a command pattern.',
  'It cannot open a Unix socket (docker, an ssh agent, the session bus), nor see other processes.',
  'Git’s hooks and configuration stay read-only; the rest of .git stays writable, so add and commit work.',
];
