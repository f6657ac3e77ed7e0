/**
 * A plan (plan.ts) as a Seatbelt profile for macOS's `sandbox-exec` (docs/sandbox.md "macOS"). Deny by default; the
 * base of what a command needs to run at all (processes, the Mach services of the system's libraries, sysctl reads,
 * devices) is the one of @anthropic-ai/sandbox-runtime (Apache-2.0, src/sandbox/macos-sandbox-utils.ts), which
 * Claude Code runs on every Mac; on top of it, from the plan, in order (a later rule wins in SBPL):
 * - every file readable; writable: the working folder and the plan's private temp folder (a real folder here:
 *   Seatbelt cannot give a command its own `/tmp`; TMPDIR points at it);
 * - hidden (no read, no write): the data folders, the `secrets` folders and credential stores the plan found;
 *   read-only: git's places in the working folder; and, where bubblewrap needs a walk, patterns: every `secrets`
 *   folder anywhere and every `.git`'s hooks and configuration, in any letter case;
 * - no rename or removal of a protected path or of a folder above it (which would move it out of its rule);
 * - network (`network*`, Unix sockets included) only when the decision grants it.
 * Limits: not run by this repository's tests (they run on Linux); `sandbox-exec` is deprecated by Apple but is what
 * every sandboxing tool of its kind uses.
 */
import { dirname } from 'node:path';
import type { Mount } from './plan';

const BASE = [
  '(version 1)',
  '(deny default)',
  '(allow process-exec)',
  '(allow process-fork)',
  '(allow process-info* (target same-sandbox))',
  '(allow signal (target same-sandbox))',
  '(allow mach-priv-task-port (target same-sandbox))',
  '(allow user-preference-read)',
  '(allow mach-lookup',
  ...[
    'com.apple.audio.systemsoundserver',
    'com.apple.distributed_notifications@Uv3',
    'com.apple.FontObjectsServer',
    'com.apple.fonts',
    'com.apple.logd',
    'com.apple.lsd.mapdb',
    'com.apple.PowerManagement.control',
    'com.apple.system.logger',
    'com.apple.system.notification_center',
    'com.apple.trustd.agent',
    'com.apple.system.opendirectoryd.libinfo',
    'com.apple.system.opendirectoryd.membership',
    'com.apple.bsd.dirhelper',
    'com.apple.securityd.xpc',
    'com.apple.coreservices.launchservicesd',
    'com.apple.SecurityServer',
  ].map((name) => `  (global-name "${name}")`),
  ')',
  '(allow ipc-posix-shm)',
  '(allow ipc-posix-sem)',
  '(allow iokit-open (iokit-registry-entry-class "IOSurfaceRootUserClient") (iokit-registry-entry-class "RootDomainUserClient") (iokit-user-client-class "IOSurfaceSendRight"))',
  '(allow iokit-get-properties)',
  '(allow system-socket (require-all (socket-domain AF_SYSTEM) (socket-protocol 2)))',
  '(allow sysctl-read)',
  '(allow sysctl-write (sysctl-name "kern.tcsm_enable"))',
  '(allow distributed-notification-post)',
  '(allow file-ioctl (literal "/dev/null") (literal "/dev/zero") (literal "/dev/random") (literal "/dev/urandom") (literal "/dev/dtracehelper") (literal "/dev/tty"))',
  '(allow file-write-data (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (regex #"^/dev/fd/"))',
];

/** A path as an SBPL string: JSON's escaping is SBPL's. */
const q = (path: string) => JSON.stringify(path);
/** A regex of a name in any letter case: `[Ss][Ee]…` (SBPL regexes take no flags). */
const anyCase = (name: string) =>
  [...name].map((c) => (/[a-z]/i.test(c) ? `[${c.toUpperCase()}${c.toLowerCase()}]` : `\\${c}`)).join('');
const SECRETS_ANYWHERE = `#"/${anyCase('secrets')}(/|$)"`;
const GIT_ANYWHERE = `#"/${anyCase('.git')}/(${anyCase('hooks')}(/|$)|${['config', 'config.worktree', 'commondir', 'gitdir'].map(anyCase).join('|')}$|${anyCase('modules')}/|${anyCase('worktrees')}/)"`;

function filter(m: Mount): string {
  return `(${m.isDir ? 'subpath' : 'literal'} ${q(m.path)})`;
}

/** The profile for a plan's mounts, with `privateTmp` as its temp folder. */
export function seatbeltProfile(mounts: readonly Mount[], privateTmp: string, network: boolean): string {
  const rules = [...BASE, '(allow file-read*)'];
  const guarded: string[] = [];
  for (const m of mounts) {
    const path = m.kind === 'private-tmp' ? privateTmp : m.path;
    const f = m.kind === 'private-tmp' ? `(subpath ${q(privateTmp)})` : filter(m);
    if (m.kind === 'private-tmp' || m.kind === 'writable') rules.push(`(allow file-read* file-write* ${f})`);
    else if (m.kind === 'read-only') rules.push(`(allow file-read* ${f})`, `(deny file-write* ${f})`);
    else rules.push(`(deny file-read* file-write* ${f})`);
    if (m.kind === 'read-only' || m.kind === 'hidden') guarded.push(path);
  }
  rules.push(`(deny file-read* file-write* (regex ${SECRETS_ANYWHERE}))`, `(deny file-write* (regex ${GIT_ANYWHERE}))`);
  // Moving a protected path, or a folder above it, would take it out of its rule.
  const above = new Set<string>();
  for (const path of guarded) for (let d = dirname(path); d !== '/' && !above.has(d); d = dirname(d)) above.add(d);
  rules.push(
    ...guarded.map((p) => `(deny file-write-unlink (subpath ${q(p)}))`),
    ...[...above].map((d) => `(deny file-write-unlink (literal ${q(d)}))`),
    `(deny file-write-unlink (regex ${SECRETS_ANYWHERE}) (regex #"/${anyCase('.git')}$"))`,
  );
  if (network) rules.push('(allow network*)');
  return `${rules.join('\n')}\n`;
}
