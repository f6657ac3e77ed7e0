/**
 * The disk module's writer (docs/guards.md "One disk policy") on real folders and links: folders are made one at a
 * time and never through a link, a link or hard link at the target is replaced and never written through, what is
 * not a regular file is never replaced, the caller's own policy asked before the rename can stop the write (and no
 * temp file stays), and bad input gets a sentence.
 */
import { execFileSync } from 'node:child_process';
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiskError } from './disk-error';
import { atomicWrite, mkdirInside, TEMP_FILE_PATTERN } from './write';

let base: string;
let root: string;
let outside: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'skald-disk-write-')));
  root = join(base, 'root');
  outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const write = (path: string, content = 'new\n', extra: { isStillAllowed?: (p: string) => boolean } = {}) =>
  atomicWrite({ path, shown: path.slice(root.length + 1) || path, root, ...extra }, content);

function refusal(run: () => unknown): DiskError {
  try {
    run();
  } catch (error) {
    if (error instanceof DiskError) return error;
    throw error;
  }
  throw new Error('it was written');
}

describe('atomic write', () => {
  it('writes a new file, making its folders, and replaces an existing one keeping its mode', () => {
    expect(write(join(root, 'a', 'b', 'new.txt'))).toEqual({ created: true, bytes: 4 });
    expect(readFileSync(join(root, 'a', 'b', 'new.txt'), 'utf8')).toBe('new\n');
    writeFileSync(join(root, 'run.sh'), 'old', { mode: 0o750 });
    expect(write(join(root, 'run.sh'), 'echo\n')).toEqual({ created: false, bytes: 5 });
    expect(statSync(join(root, 'run.sh')).mode & 0o777).toBe(0o750);
    expect(readdirSync(root).filter((n) => TEMP_FILE_PATTERN.test(n))).toEqual([]);
  });

  it('replaces a symlink or a hard link at the target, never writing through it', () => {
    writeFileSync(join(outside, 'victim.txt'), 'ORIGINAL');
    symlinkSync(join(outside, 'victim.txt'), join(root, 'soft.txt'));
    linkSync(join(outside, 'victim.txt'), join(root, 'hard.txt'));
    write(join(root, 'soft.txt'));
    write(join(root, 'hard.txt'));
    expect(readFileSync(join(outside, 'victim.txt'), 'utf8')).toBe('ORIGINAL');
    expect(readFileSync(join(root, 'soft.txt'), 'utf8')).toBe('new\n');
  });

  it('refuses a symlinked folder at every depth below the root, and writes nothing behind it', () => {
    for (const depth of [1, 2, 3]) {
      const names = ['x', 'y', 'z'].slice(0, depth);
      mkdirSync(join(root, ...names.slice(0, -1)), { recursive: true });
      symlinkSync(outside, join(root, ...names));
      const error = refusal(() => write(join(root, 'x', 'y', 'z', 'f.txt')));
      expect(error.code).toBe('symlink');
      expect(error.message).toBe(
        `${names.join('/')} is a symlink; x/y/z/f.txt is written only into real folders, never through a link.`,
      );
      expect(readdirSync(outside)).toEqual([]);
      rmSync(join(root, 'x'), { recursive: true });
    }
  });

  it('never replaces a folder, a FIFO or anything else that is not a regular file', () => {
    mkdirSync(join(root, 'dir'));
    expect(refusal(() => write(join(root, 'dir'))).message).toBe('dir is a folder; name a file.');
    execFileSync('mkfifo', [join(root, 'pipe')]);
    expect(refusal(() => write(join(root, 'pipe'))).message).toBe(
      'pipe is a FIFO (named pipe), not a regular file; refusing to replace it.',
    );
    writeFileSync(join(root, 'file'), 'f');
    expect(refusal(() => write(join(root, 'file', 'below.txt'))).message).toBe(
      'file is a file, where file/below.txt needs a folder.',
    );
  });

  it("stops when the caller's policy says no right before the rename; no temp file stays", () => {
    const asked: string[] = [];
    const error = refusal(() =>
      write(join(root, 'late.txt'), 'x', {
        isStillAllowed: (path) => {
          asked.push(path);
          return false;
        },
      }),
    );
    expect(asked).toEqual([join(root, 'late.txt')]);
    expect(error).toMatchObject({ code: 'swapped' });
    expect(readdirSync(root)).toEqual([]);
  });

  it('refuses bad input with a sentence: outside the root, the root itself, relative, NUL', () => {
    for (const path of [join(outside, 'x.txt'), root, 'relative.txt', join(root, 'a\0b')]) {
      const error = refusal(() => atomicWrite({ path, shown: 'the file', root }, 'x'));
      expect(error.code).toBe('outside');
      expect(error.message).toBe(`the file is not a file inside ${root}; refusing to write it.`);
    }
    expect(refusal(() => mkdirInside(root, join(outside, 'd'), 'the folder')).message).toBe(
      `the folder is outside ${root}; refusing to write it.`,
    );
  });
});
