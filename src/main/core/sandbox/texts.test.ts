/**
 * The sandbox's texts, without running a command: the sentences a refusal gets from the messages programs really
 * print (explain.ts), the reasons and fixes of a sandbox that cannot start (status.ts), the Seatbelt profile macOS
 * gets (seatbelt.ts: not run here, so its rules are read back), and the seccomp filter's layout (seccomp.ts).
 */
import { describe, expect, it } from 'vitest';
import { explainBwrapFailure, probeSandbox } from './status';
import { pathInMessage, sandboxRefusals } from './explain';
import type { Mount } from './plan';
import { seatbeltProfile } from './seatbelt';
import { openUnixSocketFilter, unixSocketFilter } from './seccomp';
import { closeSync, readdirSync, readSync } from 'node:fs';
import { tmpdir } from 'node:os';

const WD = '/home/me/project';
const mounts: Mount[] = [
  { path: '/tmp', kind: 'private-tmp', isDir: true, why: 'temp' },
  { path: '/home/me/.skald', kind: 'hidden', isDir: true, why: 'data-folder' },
  { path: '/home/me/.ssh', kind: 'hidden', isDir: true, why: 'credentials' },
  { path: WD, kind: 'writable', isDir: true, why: 'working-folder' },
  { path: `${WD}/.git`, kind: 'writable', isDir: true, why: 'git' },
  { path: `${WD}/secrets`, kind: 'hidden', isDir: true, why: 'secrets' },
  { path: `${WD}/.git/config`, kind: 'read-only', isDir: false, why: 'git' },
  { path: `${WD}/.git/hooks`, kind: 'read-only', isDir: true, why: 'git' },
];
const explain = (output: string, network = false) =>
  sandboxRefusals(output, { mounts, workingDir: WD, cwd: WD, network });
const outside = (path: string) =>
  `the sandbox kept this command from writing ${path}: it is outside the working folder; only ${WD} and /tmp are writable in the sandbox`;

describe('refusals in one sentence', () => {
  it('reads the path from the messages of bash, coreutils, Python, Node and git', () => {
    const cases: [string, string][] = [
      ['/bin/bash: line 1: /etc/x: Read-only file system', '/etc/x'],
      ["touch: cannot touch '/etc/x': Read-only file system", '/etc/x'],
      ['mkdir: cannot create directory ‘/etc/d’: Read-only file system', '/etc/d'],
      ["OSError: [Errno 30] Read-only file system: '/etc/y'", '/etc/y'],
      ["Error: EROFS: read-only file system, open '/etc/z'", '/etc/z'],
      ['error: could not lock config file .git/config: Read-only file system', '.git/config'],
    ];
    for (const [line, path] of cases) expect(pathInMessage(line, /read-only file system/i), line).toBe(path);
  });

  it('says which rule stopped the command, and the way forward', () => {
    expect(explain("touch: cannot touch '/etc/x': Read-only file system")).toEqual([outside('/etc/x')]);
    expect(explain("touch: cannot touch '../x': Read-only file system")).toEqual([outside('/home/me/x')]);
    expect(explain('bash: line 1: .git/hooks/pre-commit: Read-only file system')).toEqual([
      `the sandbox kept this command from writing ${WD}/.git/hooks/pre-commit: git's hooks and configuration stay read-only in the sandbox`,
    ]);
    expect(explain('cat: /home/me/.skald/skald.db: No such file or directory')).toEqual([
      "the sandbox hides /home/me/.skald/skald.db: it is in the app's data folder",
    ]);
    expect(explain('bash: /home/me/.skald/x: Permission denied')).toEqual([
      "the sandbox hides /home/me/.skald/x: it is in the app's data folder",
    ]);
    expect(explain('cat: secrets/a: No such file or directory')).toEqual([
      `the sandbox hides ${WD}/secrets/a: it is in a secrets/ folder`,
    ]);
    expect(explain("cp: cannot stat '/home/me/.ssh/id_rsa': No such file or directory")).toEqual([
      'the sandbox hides /home/me/.ssh/id_rsa: it is a credential store',
    ]);
    expect(explain('bash: /tmp/other/x: No such file or directory')).toEqual([
      "the sandbox gives commands their own empty /tmp: /tmp/other/x, in the machine's /tmp, is not visible to them",
    ]);
    expect(explain("mv: cannot move '.git' to 'old': Device or resource busy")).toEqual([
      `the sandbox kept this command from moving or removing ${WD}/.git: git's metadata stays in place in the sandbox`,
    ]);
    expect(explain("rm: cannot remove '/usr/x': Permission denied")).toEqual([
      `if this command was writing /usr/x, the sandbox kept it from doing so: only ${WD} and /tmp are writable in the sandbox`,
    ]);
    const socket = 'the sandbox kept this command from opening a Unix socket (a local service outside the sandbox)';
    expect(explain('Error: connect EPERM /run/docker.sock')).toEqual([socket]);
    expect(
      explain('    s = socket.socket(socket.AF_UNIX)\nPermissionError: [Errno 1] Operation not permitted'),
    ).toEqual([socket]);
  });

  it('network errors: a sentence without network, none with it', () => {
    const net =
      'the sandbox kept this command from using the network: commands run without network unless approved with it';
    for (const line of [
      'curl: (6) Could not resolve host: example.com',
      "curl: (7) Failed to connect to 127.0.0.1 port 80 after 0 ms: Couldn't connect to server",
      'bash: connect: Network is unreachable',
      'npm ERR! request to https://registry.npmjs.org/x failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org',
      "fatal: unable to access 'https://github.com/x/y/': Could not resolve host: github.com",
      'ssh: Could not resolve hostname github.com: Temporary failure in name resolution',
    ]) {
      expect(explain(line), line).toEqual([net]);
      expect(explain(line, true), line).toEqual([]);
    }
  });

  it('ordinary output and ordinary errors get no sentence; at most three', () => {
    expect(explain('all good\ncat: nofile: No such file or directory\n')).toEqual([]);
    const many = Array.from({ length: 10 }, (_, i) => `touch: cannot touch '/etc/x${i}': Read-only file system`);
    expect(explain(many.join('\n'))).toHaveLength(3);
  });
});

describe('a sandbox that cannot start says why and how to fix it', () => {
  const sysctl = (values: Record<string, string>) => (name: string) => values[name] ?? null;
  it('names the cause from the message and the kernel switches', () => {
    expect(explainBwrapFailure('ENOENT').reason).toMatch(/bubblewrap \(bwrap\) is not installed/);
    expect(explainBwrapFailure('ENOENT').fix).toMatch(/sudo apt install bubblewrap/);
    const denied = 'bwrap: setting up uid map: Permission denied';
    expect(explainBwrapFailure(denied, sysctl({ 'kernel.apparmor_restrict_unprivileged_userns': '1' }))).toMatchObject({
      reason: expect.stringMatching(/^AppArmor keeps programs/),
      fix: expect.stringMatching(/apparmor\.d\/bwrap/),
    });
    expect(explainBwrapFailure(denied, sysctl({ 'kernel.unprivileged_userns_clone': '0' })).fix).toMatch(
      /kernel\.unprivileged_userns_clone=1/,
    );
    expect(explainBwrapFailure(denied, sysctl({ 'user.max_user_namespaces': '0' })).fix).toMatch(
      /user\.max_user_namespaces=15000/,
    );
    expect(
      explainBwrapFailure('bwrap: Creating new namespace failed: Operation not permitted', sysctl({})).reason,
    ).toMatch(/refused bubblewrap a new namespace .*container/);
    expect(explainBwrapFailure('bwrap: something odd', sysctl({})).reason).toBe(
      'bubblewrap could not start a sandbox (bwrap: something odd).',
    );
  });

  it('this machine runs bubblewrap with every protection (CI installs it)', async () => {
    expect(await probeSandbox('linux')).toEqual({
      state: 'ready',
      engine: 'bubblewrap',
      disableUserns: true,
      tmpfsPerms: true,
      seccomp: true,
    });
    expect(await probeSandbox('win32')).toMatchObject({ state: 'unsupported' });
  });
});

describe('the Seatbelt profile (macOS)', () => {
  /** An SBPL regex literal `#"…"` as a JS RegExp. */
  const regexes = (profile: string) => [...profile.matchAll(/#"((?:[^"\\]|\\.)*)"/g)].map((m) => new RegExp(m[1]!));

  it('denies by default, reads all but the hidden, writes the working folder and its temp folder', () => {
    const profile = seatbeltProfile(mounts, '/private/var/folders/x/T/skald-sandbox-1', false);
    expect(profile.startsWith('(version 1)\n(deny default)\n')).toBe(true);
    expect(profile).toContain('(allow file-read*)');
    expect(profile).toContain('(deny file-read* file-write* (subpath "/home/me/.skald"))');
    expect(profile).toContain('(deny file-read* file-write* (subpath "/home/me/.ssh"))');
    expect(profile).toContain(`(allow file-read* file-write* (subpath "${WD}"))`);
    expect(profile).toContain('(allow file-read* file-write* (subpath "/private/var/folders/x/T/skald-sandbox-1"))');
    expect(profile).toContain(`(deny file-write* (literal "${WD}/.git/config"))`);
    // The working folder's rule comes before the rules of what is hidden or read-only inside it (the last one wins).
    expect(profile.indexOf(`(subpath "${WD}")`)).toBeLessThan(profile.indexOf(`(subpath "${WD}/secrets")`));
    expect(profile).not.toContain('(allow network');
    expect(seatbeltProfile(mounts, '/t', true)).toContain('(allow network*)');
  });

  it('covers every secrets folder and every .git, in any letter case, where bubblewrap needs a walk', () => {
    const all = regexes(seatbeltProfile(mounts, '/t', false));
    const secrets = all.find((r) => r.source.startsWith('\\/[Ss][Ee]') || r.source.startsWith('/[Ss][Ee]'));
    const git = all.find((r) => r.source.includes('[Hh][Oo][Oo][Kk][Ss]'));
    for (const path of ['/a/secrets', '/a/Secrets/k', '/a/b/SECRETS/c']) expect(secrets!.test(path), path).toBe(true);
    for (const path of ['/a/secretsauce', '/a/my-secrets']) expect(secrets!.test(path), path).toBe(false);
    for (const path of ['/r/.git/hooks/pre-commit', '/r/.GIT/Config', '/r/sub/.git/modules/m/config', '/r/.git/gitdir'])
      expect(git!.test(path), path).toBe(true);
    for (const path of ['/r/.git/objects/ab', '/r/.git/HEAD', '/r/.gitconfig-notes'])
      expect(git!.test(path), path).toBe(false);
  });

  it('keeps a protected path and the folders above it from being moved out of their rules', () => {
    const profile = seatbeltProfile(mounts, '/t', false);
    expect(profile).toContain(`(deny file-write-unlink (subpath "${WD}/secrets"))`);
    expect(profile).toContain(`(deny file-write-unlink (literal "${WD}"))`);
    expect(profile).toContain('(deny file-write-unlink (literal "/home/me"))');
  });
});

describe('the seccomp filter', () => {
  it('is a BPF program for x86-64 and arm64, and none elsewhere', () => {
    for (const arch of ['x64', 'arm64']) {
      const filter = unixSocketFilter(arch)!;
      expect(filter.length % 8).toBe(0);
      // Every jump lands inside the program.
      const view = Buffer.from(filter);
      for (let i = 0; i < filter.length / 8; i++) {
        if (view.readUInt16LE(i * 8) !== 0x15) continue;
        expect(i + 1 + view.readUInt8(i * 8 + 2)).toBeLessThan(filter.length / 8);
        expect(i + 1 + view.readUInt8(i * 8 + 3)).toBeLessThan(filter.length / 8);
      }
    }
    expect(unixSocketFilter('ia32')).toBeNull();
  });

  it.runIf(unixSocketFilter() !== null)(
    'each descriptor reads the whole filter from its start, and no file of it is left in the temp folder',
    () => {
      const filter = Buffer.from(unixSocketFilter()!);
      const leftovers = () => readdirSync(tmpdir()).filter((n) => n.startsWith('skald-seccomp-')).length;
      const before = leftovers();
      const fds = [openUnixSocketFilter()!, openUnixSocketFilter()!];
      try {
        for (const fd of fds) {
          const read = Buffer.alloc(filter.length + 8);
          expect(readSync(fd, read, 0, read.length, null)).toBe(filter.length);
          expect(read.subarray(0, filter.length).equals(filter)).toBe(true);
        }
        // A process that is killed cannot remove a file at its exit: there is none to remove.
        expect(leftovers()).toBeLessThanOrEqual(before);
      } finally {
        for (const fd of fds) closeSync(fd);
      }
    },
  );
});
