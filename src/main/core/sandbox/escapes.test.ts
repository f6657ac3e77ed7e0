/**
 * The sandbox against real bubblewrap (docs/sandbox.md), through `execute_cmd`'s real run: a command confined by it
 * writes only in the working folder and the private /tmp, reads neither the data folder, nor a `secrets` folder, nor
 * a credential store, reaches no network and no Unix socket, and gets out by none of the usual ways (a symlink, `..`,
 * `/proc/<pid>/root`, a mount namespace of its own, renaming `.git`). Each class is one test over every form, and each
 * has its twin that works: the same writers inside the folder, the same network calls when the decision grants it.
 * Check ids (X10) are listed in docs/security-checks.md.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createSocketServer } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeSandboxKit, PYTHON, SECRET_CONTENTS, type SandboxKit } from './test-kit';

let k: SandboxKit;
beforeEach(() => {
  k = makeSandboxKit();
});
afterEach(() => k.cleanup());

/** Commands that write `T`, each as a shell would spell it. */
const WRITERS = [
  'echo pwned > T',
  'echo pwned >> T',
  'printf pwned | tee T',
  'cp docs/readme.md T',
  'touch T',
  'dd if=docs/readme.md of=T status=none',
  `node -e "require('fs').writeFileSync(process.argv[1], 'pwned')" T`,
  ...(PYTHON ? [`${PYTHON} -c "import sys; open(sys.argv[1], 'w').write('pwned')" T`] : []),
  'ln -s /etc/passwd T',
  'mkdir T',
];
/** Commands that change or remove an existing `T`. */
const CHANGERS = ['rm T', 'truncate -s 0 T', 'chmod 000 T', 'mv T T.moved', 'echo pwned > T'];

/** Every file outside the working folder, and git's places inside it, is unchanged. */
function expectNothingOutsideChanged(before: Map<string, string>): void {
  const after = k.snapshot();
  const changed = [...new Set([...before.keys(), ...after.keys()])].filter((p) => before.get(p) !== after.get(p));
  expect(changed).toEqual([]);
}

describe('writes: only the working folder and the private /tmp', () => {
  it('every writer fails outside the working folder, by any path, with a sentence that says why', async () => {
    const before = k.snapshot();
    const targets = [
      join(k.sibling, 'new.txt'),
      join(k.sibling, 'file.txt'),
      join(k.data, 'settings.json'),
      join(k.data, 'new.txt'),
      join(k.home, '.bashrc'),
      join(k.base, 'new.txt'),
      '../../sibling/new.txt', // `..` out of the working folder
      'up/new.txt', // a symlink inside it that leads out
      '/proc/self/cwd/../../sibling/new.txt',
      `/proc/1/root${k.sibling}/new.txt`,
      `/proc/${process.pid}/root${k.sibling}/new.txt`, // the app's own root, by its pid
    ];
    const existing = [
      join(k.sibling, 'file.txt'),
      join(k.data, 'settings.json'),
      join(k.home, '.bashrc'),
      'up/file.txt',
    ];
    for (const [list, commands] of [
      [targets, WRITERS],
      [existing, CHANGERS],
    ] as const)
      for (const target of list)
        for (const command of commands) {
          const out = await k.text(command.replaceAll('T', target));
          expect(out, `${command} ${target}`).toMatch(/\[exit code [1-9]/);
        }
    expectNothingOutsideChanged(before);
    expect(await k.text(`echo pwned > ${join(k.sibling, 'new.txt')}`)).toContain(
      `[the sandbox kept this command from writing ${join(k.sibling, 'new.txt')}: it is outside the working folder; only ${k.ws} and /tmp are writable in the sandbox]`,
    );
    // Unconfined, the same write lands: the test can fail.
    await k.text('echo pwned > ../../sibling/new.txt', { decision: { mode: 'unconfined' } });
    expect(readFileSync(join(k.sibling, 'new.txt'), 'utf8')).toBe('pwned\n');
  }, 120_000);

  it('the same writers work inside the working folder and in /tmp', async () => {
    for (const [i, writer] of WRITERS.entries()) {
      expect(await k.text(writer.replaceAll('T', `out${i}`)), writer).toMatch(/\[exit code 0\]$/);
      expect(existsSync(join(k.ws, `out${i}`)), writer).toBe(true);
      expect(await k.text(writer.replaceAll('T', `/tmp/out${i}`)), writer).toMatch(/\[exit code 0\]$/);
    }
    for (const changer of CHANGERS) {
      await k.text('echo x > victim');
      expect(await k.text(changer.replaceAll('T', 'victim')), changer).toMatch(/\[exit code 0\]$/);
    }
    // The private /tmp is the command's own: nothing of it reaches the machine's /tmp.
    expect(existsSync('/tmp/out0')).toBe(false);
  }, 120_000);

  it("git's hooks and config stay read-only, .git cannot be swapped for a new one; the rest of .git is writable", async () => {
    expect(await k.text('echo obj > .git/objects/ab && echo ref > .git/HEAD.new && cat .git/objects/ab')).toBe(
      'obj\n[exit code 0]',
    );
    const before = k.snapshot();
    for (const command of [
      'echo evil > .git/hooks/pre-commit',
      'echo evil > .git/hooks/post-checkout',
      'rm -rf .git/hooks',
      'printf "[core]\\n\\thooksPath = /tmp\\n" >> .git/config',
      'mv .git/config .git/config.old',
      'mv .git .git-old && mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit',
      'rm -rf .git',
    ])
      expect(await k.text(command), command).toMatch(/\[exit code [1-9]/);
    expectNothingOutsideChanged(before);
    expect(await k.text('echo evil > .git/hooks/pre-commit')).toContain(
      "git's hooks and configuration stay read-only in the sandbox",
    );
  }, 60_000);
});

describe('reads: the data folder, secrets/ and credential stores are hidden', () => {
  it('no reader of any hidden place sees its content, by any path', async () => {
    const places = [
      join(k.data, 'skald.db'),
      join(k.data, 'settings.json'),
      '../skald.db',
      'secrets/key.txt',
      'notes/key.txt', // a symlink to secrets/
      'docs/secrets/deep.txt',
      'lib/Secrets/x.txt',
      '~/.ssh/id_rsa',
      join(k.home, '.aws/credentials'),
      join(k.home, '.config/BraveSoftware/Default/Cookies'),
      '~/.netrc',
      `/proc/self/root${k.data}/skald.db`,
    ];
    const readers = [
      'cat P',
      'head -c 100 P',
      'cp P copied && cat copied',
      'tar cf - P | tar xOf -',
      `node -e "process.stdout.write(require('fs').readFileSync(process.argv[1]))" P`,
      ...(PYTHON ? [`${PYTHON} -c "import sys; print(open(sys.argv[1]).read())" P`] : []),
    ];
    const outputs: string[] = [];
    for (const place of places) for (const reader of readers) outputs.push(await k.text(reader.replaceAll('P', place)));
    outputs.push(await k.text(`grep -r . ${k.data} ${k.home} . /proc/self/root${k.data} 2>/dev/null; ls -laR ~`));
    for (const secret of Object.values(SECRET_CONTENTS)) expect(outputs.join('\n')).not.toContain(secret);
    expect(await k.text(`cat ${join(k.data, 'skald.db')}`)).toContain("it is in the app's data folder]");
    expect(await k.text('cat secrets/key.txt')).toContain('it is in a secrets/ folder]');
    expect(await k.text('cat ~/.ssh/id_rsa')).toContain('it is a credential store]');
    // Unconfined, the same reads see them: the test can fail.
    expect(await k.text('cat ../skald.db secrets/key.txt ~/.ssh/id_rsa', { decision: { mode: 'unconfined' } })).toBe(
      `${SECRET_CONTENTS.db}${SECRET_CONTENTS.secret}${SECRET_CONTENTS.ssh}\n[exit code 0]`,
    );
  }, 120_000);

  it('the rest stays readable: the sibling folder, the home folder, the workspace, the system', async () => {
    expect(await k.text(`cat ${join(k.sibling, 'file.txt')} up/file.txt ~/.bashrc docs/readme.md`)).toBe(
      'SIBLING\nSIBLING\n# an ordinary file\nhello\n[exit code 0]',
    );
    expect(await k.text('head -c 4 /etc/hostname >/dev/null && ls /usr/bin | grep -c .')).toMatch(
      /^\d+\n\[exit code 0\]$/,
    );
  });
});

describe('network: none unless the decision grants it', () => {
  let server: Server;
  let port = 0;
  let hits = 0;
  beforeAll(async () => {
    server = createHttpServer((_req, res) => {
      hits++;
      res.end('reached');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const clients = () => [
    `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`,
    ...(existsSync('/usr/bin/curl') ? [`curl -sS http://127.0.0.1:${port}/`] : []),
    `node -e "fetch('http://127.0.0.1:${port}/').then(r => r.text()).then(console.log, e => { console.log(String(e.cause ?? e)); process.exit(1) })"`,
    ...(PYTHON
      ? [`${PYTHON} -c "import urllib.request as u; print(u.urlopen('http://127.0.0.1:${port}/').read())"`]
      : []),
  ];

  it('no client reaches a local server, and the result says why', async () => {
    hits = 0;
    for (const command of clients()) {
      const out = await k.text(command);
      expect(out, command).toMatch(/\[exit code [1-9]/);
      expect(out, command).not.toContain('reached');
    }
    expect(hits).toBe(0);
    expect(await k.text(`curl -sS http://127.0.0.1:${port}/`)).toContain(
      '[the sandbox kept this command from using the network: commands run without network unless approved with it]',
    );
  }, 60_000);

  it('with network granted, the same clients reach it', async () => {
    hits = 0;
    for (const command of clients())
      expect(await k.text(command, { decision: { mode: 'sandboxed', network: true } }), command).toContain('reached');
    expect(hits).toBe(clients().length);
  }, 60_000);
});

describe('no way out', () => {
  it('a Unix socket outside (a docker.sock, a session bus) is out of reach, network or not', async () => {
    let connections = 0;
    const path = join(k.sibling, 'service.sock');
    const server = createSocketServer((socket) => {
      connections++;
      socket.end('served\n');
    });
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      const commands = [
        `node -e "require('net').connect('${path}').on('data', d => console.log(String(d))).on('error', e => { console.log(String(e)); process.exit(1) })"`,
        ...(existsSync('/usr/bin/curl') ? [`curl -sS --unix-socket ${path} http://x/`] : []),
        ...(PYTHON
          ? [`${PYTHON} -c "import socket; s = socket.socket(socket.AF_UNIX); s.connect('${path}'); print(s.recv(9))"`]
          : []),
      ];
      for (const network of [false, true])
        for (const command of commands) {
          const out = await k.text(command, { decision: { mode: 'sandboxed', network } });
          expect(out, command).not.toContain('served');
        }
      expect(connections).toBe(0);
      expect(await k.text(commands[0]!)).toContain('[the sandbox kept this command from opening a Unix socket');
      // Unconfined, the same command is served: the test can fail.
      expect(await k.text(commands[0]!, { decision: { mode: 'unconfined' } })).toContain('served');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 60_000);

  it('a mount namespace of its own, unmounting, remounting and /proc of other processes change nothing', async () => {
    const before = k.snapshot();
    const outputs = [];
    for (const command of [
      'unshare -m sh -c "umount secrets; cat secrets/key.txt"',
      'unshare -rm sh -c "umount secrets; cat secrets/key.txt"',
      `unshare -rm sh -c "umount ${k.data}; cat ${k.data}/skald.db"`,
      `unshare -rm sh -c "mount --bind ${k.ws} ${k.sibling} && echo x > ${k.sibling}/new.txt"`,
      `umount ${k.data}; cat ${k.data}/skald.db`,
      `mount -o remount,rw / && echo x > ${k.sibling}/new.txt`,
      `mount -t tmpfs none ${k.sibling}`,
      `ls /proc/${process.pid}/root/`,
      'ls /proc | grep -c "^[0-9]"',
    ])
      outputs.push(await k.text(command));
    expect(outputs.join('\n')).not.toMatch(/TOPSECRET|DB-CONTENT/);
    expect(outputs.at(-2)).toMatch(/No such file or directory/);
    // Only the sandbox's own few processes are visible (its init, bash, ls, grep).
    expect(Number(outputs.at(-1)!.split('\n')[0])).toBeLessThan(6);
    expectNothingOutsideChanged(before);
    expect(readFileSync(join(k.ws, 'secrets/key.txt'), 'utf8')).toBe(SECRET_CONTENTS.secret);
  }, 60_000);
});
