/**
 * The disk module's open (docs/guards.md "One disk policy") on real files, links, FIFOs, sockets and devices: a symlink
 * at any component of the path is refused, what is not a regular file is refused without a read, the identity is
 * checked on the opened descriptor (a descriptor of one file never passes for another path), a hard link to a guarded
 * file is refused with a scope and read without one, and bad input gets a sentence.
 */
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  fstatSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiskError } from './disk-error';
import { forgetGuardedIdentities } from './hardlinks';
import { digestFile, isAtPath, isAtPathByWalk, readFile, type ReadTarget } from './open';

let base: string;
let ws: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'skald-disk-open-')));
  ws = join(base, 'ws');
  mkdirSync(join(ws, 'a', 'b', 'c'), { recursive: true });
  mkdirSync(join(ws, 'secrets'));
  writeFileSync(join(ws, 'a', 'b', 'c', 'file.txt'), 'public\n');
  writeFileSync(join(ws, 'secrets', 'key.txt'), 'SECRET\n');
  forgetGuardedIdentities();
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const target = (path: string, guarded = true): ReadTarget => ({
  path,
  shown: path.slice(ws.length + 1) || path,
  guard: guarded ? { root: ws, protectedRoots: [] } : null,
});

/** The DiskError a read throws (the test fails when it reads instead). */
function refusal(t: ReadTarget): DiskError {
  try {
    readFile(t, 1024);
  } catch (error) {
    if (error instanceof DiskError) return error;
    throw error;
  }
  throw new Error(`${t.path} was read`);
}

describe('open for read', () => {
  it('reads a regular file by its real path', () => {
    const read = readFile(target(join(ws, 'a', 'b', 'c', 'file.txt')), 1024);
    expect(read).toMatchObject({ size: 7, isTruncated: false, hasChanged: false });
    expect(read.bytes.toString()).toBe('public\n');
    expect(readFile(target(join(ws, 'a', 'b', 'c', 'file.txt')), 3)).toMatchObject({ isTruncated: true, size: 7 });
  });

  it('refuses a symlink at every component of the path', () => {
    const names = ['a', 'b', 'c', 'file.txt'];
    for (let i = 0; i < names.length; i++) {
      const layout = join(ws, ...names.slice(0, i + 1));
      const away = `${layout}.real`;
      execFileSync('mv', [layout, away]);
      symlinkSync(away, layout); // the same file behind it: a link is refused whatever it leads to
      const error = refusal(target(join(ws, ...names)));
      expect(error.code, layout).toMatch(/^(symlink|swapped)$/);
      expect(error.message).toMatch(/symlink|swapped/);
      rmSync(layout);
      execFileSync('mv', [away, layout]);
    }
  });

  it('refuses a FIFO, a socket and a device without reading them, and says which', async () => {
    execFileSync('mkfifo', [join(ws, 'pipe')]);
    expect(refusal(target(join(ws, 'pipe')))).toMatchObject({
      code: 'not_file',
      message: 'pipe is a FIFO (named pipe), not a regular file; refusing to read it.',
    });
    const server = createServer();
    await new Promise<void>((done) => server.listen(join(ws, 'sock'), done));
    expect(refusal(target(join(ws, 'sock'))).message).toBe(
      'sock is a socket, not a regular file; refusing to read it.',
    );
    server.close();
    try {
      execFileSync('mknod', [join(ws, 'dev'), 'c', '1', '5'], { stdio: 'ignore' }); // the kind of /dev/zero
    } catch {
      return; // no device nodes for this user
    }
    expect(refusal(target(join(ws, 'dev'))).message).toBe('dev is a device, not a regular file; refusing to read it.');
  });

  it('says what is wrong with a folder, a missing file and bad input, in a sentence', () => {
    expect(refusal(target(join(ws, 'a')))).toMatchObject({ code: 'folder', message: 'a is a folder, not a file.' });
    expect(refusal(target(join(ws, 'nope.txt')))).toMatchObject({
      code: 'missing',
      message: 'nope.txt does not exist.',
    });
    expect(refusal(target(join(ws, 'a', 'b', 'c', 'file.txt', 'x')))).toMatchObject({ code: 'missing' });
    for (const path of ['', 'relative/file.txt', `${ws}/a\0b`]) {
      expect(refusal({ path, shown: 'the file' })).toMatchObject({
        code: 'outside',
        message: 'the file is not an absolute path to a file; refusing to open it.',
      });
    }
    expect(refusal({ path: `${ws}/${'x'.repeat(5000)}`, shown: 'the long one' }).message).toMatch(
      /^the long one (does not exist|cannot be opened \(ENAMETOOLONG\))\.$/,
    );
  });

  it('refuses a hard link to a guarded file with a scope, and reads it without one (the app reading its own)', () => {
    linkSync(join(ws, 'secrets', 'key.txt'), join(ws, 'innocent.txt'));
    expect(refusal(target(join(ws, 'innocent.txt')))).toMatchObject({
      code: 'guarded_link',
      message:
        "innocent.txt is a hard link to a protected file (in a secrets/ folder or the app's data folder); refusing to read it.",
    });
    expect(readFile(target(join(ws, 'innocent.txt'), false), 1024).bytes.toString()).toBe('SECRET\n');
    // A hard link to an ordinary file is what it is.
    linkSync(join(ws, 'a', 'b', 'c', 'file.txt'), join(ws, 'twin.txt'));
    expect(readFile(target(join(ws, 'twin.txt')), 1024).bytes.toString()).toBe('public\n');
  });

  it('hashes a whole file in chunks under the same rules', () => {
    writeFileSync(join(ws, 'big.bin'), Buffer.alloc(3 * 1024 * 1024 + 5, 7));
    expect(digestFile(target(join(ws, 'big.bin')))).toMatch(/^[0-9a-f]{64}$/);
    execFileSync('mkfifo', [join(ws, 'pipe')]);
    expect(() => digestFile(target(join(ws, 'pipe')))).toThrow(/FIFO/);
  });
});

describe('the identity on the descriptor', () => {
  it('a descriptor of one file never passes for the path of another: a parent swapped and swapped back', () => {
    // What the race leaves behind: `docs` was a link into secrets/ at the open, and is a real folder again now.
    mkdirSync(join(ws, 'docs'));
    writeFileSync(join(ws, 'docs', 'key.txt'), 'public\n');
    const fd = openSync(join(ws, 'secrets', 'key.txt'), 'r');
    try {
      expect(isAtPath(fd, fstatSync(fd), join(ws, 'docs', 'key.txt'))).toBe(false);
      expect(isAtPath(fd, fstatSync(fd), join(ws, 'secrets', 'key.txt'))).toBe(true);
    } finally {
      closeSync(fd);
    }
  });

  it('a descriptor opened through a link is not at the path with the link, whatever the kernel calls it', () => {
    symlinkSync(join(ws, 'secrets'), join(ws, 'docs'));
    const fd = openSync(join(ws, 'docs', 'key.txt'), 'r');
    try {
      expect(isAtPath(fd, fstatSync(fd), join(ws, 'docs', 'key.txt'))).toBe(false);
      // The walk (where the kernel cannot name a descriptor): the same answer, one lstat per component.
      expect(isAtPathByWalk(fstatSync(fd), join(ws, 'secrets', 'key.txt'))).toBe(true);
      expect(isAtPathByWalk(fstatSync(fd), join(ws, 'docs', 'key.txt'))).toBe(false);
      // Where the kernel names the descriptor its answer is final: a path that is not the canonical one is refused
      // (the caller may retry), never walked, as a walk can be raced (docs/guards.md "One disk policy").
      if (process.platform === 'linux') expect(isAtPath(fd, fstatSync(fd), `${ws}/secrets//key.txt`)).toBe(false);
    } finally {
      closeSync(fd);
    }
  });
});
