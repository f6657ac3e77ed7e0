/**
 * Every disk reader of the core (test/helpers/disk-readers.ts), as a class (docs/guards.md "One disk policy"): each
 * reads an ordinary file; none gives a hard link to a guarded file (a file in the working directory's `secrets/`, the
 * data folder's key file, the database), whether the link is there before the reader opens or swapped in after
 * (the viewer's handle issued, the LaTeX document built once, the write call made); none follows a symlink into
 * `secrets/` or the data folder, on the file itself or on a folder of its path. A refusal is a sentence. Real core,
 * real SQLite, real links.
 */
import { linkSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import {
  DISK_READERS,
  isSentence,
  PUBLIC,
  SECRET,
  type Answer,
  type DiskReader,
  type ReaderCase,
} from '../../../../test/helpers/disk-readers';
import { cleanupTempDirs } from '../../../../test/helpers/temp';
import { CHECK_MS, forgetGuardedIdentities } from './hardlinks';

let h: Harness;
let cases = 0;

beforeAll(async () => {
  h = await startHarness();
  mkdirSync(join(h.workspace, 'secrets'));
  writeFileSync(join(h.workspace, 'secrets', 'key.txt'), `${SECRET}\n`);
}, 60_000);
afterAll(async () => {
  await h.close();
  cleanupTempDirs();
});

/** A fresh folder for one reader's case, holding the ordinary file it reads. */
function newCase(reader: DiskReader, sub = ''): ReaderCase {
  const dir = join(h.workspace, 'cases', String(++cases), sub);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, reader.file);
  writeFileSync(path, reader.content(PUBLIC));
  return { h, dir, path };
}

const shown = (answer: Answer) => ('text' in answer ? answer.text : answer.refusal);

/** Never the secret; a reader that refuses says so in a sentence. */
function expectRefused(reader: DiskReader, answer: Answer): void {
  expect(shown(answer)).not.toContain(SECRET);
  if (!reader.refuses) return;
  expect(answer).toHaveProperty('refusal');
  expect(isSentence(shown(answer)), shown(answer)).toBe(true);
}

const GUARDED = [
  { what: "a file of the working directory's secrets/", path: () => join(h.workspace, 'secrets', 'key.txt') },
  { what: "the data folder's key file", path: () => join(h.dataDir, 'secret.key') },
  { what: 'the database (skald.db)', path: () => join(h.dataDir, 'skald.db') },
];

describe('every disk reader', () => {
  it.each(DISK_READERS)('$name reads an ordinary file (the control)', async (reader) => {
    const read = await reader.open(newCase(reader));
    const answer = await read();
    expect(answer, shown(answer)).toHaveProperty('text');
    if (!reader.showsNoText) expect(shown(answer)).toContain(PUBLIC);
  });

  describe.each(GUARDED)('refuses a hard link to $what', ({ path: guarded }) => {
    it.each(DISK_READERS)('$name, the link there before it opens', async (reader) => {
      const c = newCase(reader);
      rmSync(c.path);
      linkSync(guarded(), c.path);
      forgetGuardedIdentities();
      expectRefused(reader, await (await reader.open(c))());
    });

    it.each(DISK_READERS)('$name, the file swapped for the link after it opened', async (reader) => {
      const c = newCase(reader);
      const read = await reader.open(c);
      rmSync(c.path);
      linkSync(guarded(), c.path);
      forgetGuardedIdentities();
      expectRefused(reader, await read());
    });
  });
});

describe('every disk reader, mid-session (the walk for the guarded files kept, nothing forgotten)', () => {
  /** A case whose file has a second name, read once: that read walked for the guarded files, and the answer is kept. */
  async function readOnce(reader: DiskReader): Promise<{ c: ReaderCase; read: () => Promise<Answer> }> {
    const c = newCase(reader);
    const read = await reader.open(c);
    linkSync(c.path, join(c.dir, 'twin'));
    const first = await read();
    expect(first, shown(first)).toHaveProperty('text');
    return { c, read };
  }

  it.each(DISK_READERS)(
    '$name refuses a hard link made after its read to a guarded file the walk saw',
    async (reader) => {
      const { c, read } = await readOnce(reader);
      rmSync(c.path);
      linkSync(join(h.workspace, 'secrets', 'key.txt'), c.path);
      expectRefused(reader, await read());
    },
  );

  it('each refuses a hard link to a guarded file made after its read, once the walk is checked again', async () => {
    const ready: { reader: DiskReader; c: ReaderCase; read: () => Promise<Answer> }[] = [];
    for (const reader of DISK_READERS) ready.push({ reader, ...(await readOnce(reader)) });
    const late = join(h.workspace, 'secrets', `late-${cases}.key`);
    writeFileSync(late, `${SECRET}\n`);
    for (const { c } of ready) {
      rmSync(c.path);
      linkSync(late, c.path);
    }
    await new Promise((resolve) => setTimeout(resolve, CHECK_MS + 50)); // docs/guards.md "Hard links": its limit
    for (const { reader, read } of ready) expectRefused(reader, await read());
  }, 180_000);
});

/** Where a symlink leads, holding a secret under the reader's own file name. */
const LINK_TARGETS = [
  { what: "the working directory's secrets/", folder: (c: ReaderCase) => join(c.dir, '..', 'secrets') },
  { what: 'the data folder', folder: () => join(h.dataDir, `leak-${cases}`) },
];

describe('every disk reader refuses a symlink in any component', () => {
  describe.each(LINK_TARGETS)('into $what', ({ folder }) => {
    it.each(DISK_READERS)('$name: the file itself swapped for a link after it opened', async (reader) => {
      const c = newCase(reader, 'in');
      const target = folder(c);
      mkdirSync(target, { recursive: true });
      writeFileSync(join(target, reader.file), reader.content(SECRET));
      const read = await reader.open(c);
      rmSync(c.path);
      symlinkSync(join(target, reader.file), c.path);
      expectRefused(reader, await read());
    });

    it.each(DISK_READERS)('$name: a folder of its path swapped for a link after it opened', async (reader) => {
      const c = newCase(reader, 'in');
      const target = folder(c);
      mkdirSync(target, { recursive: true });
      writeFileSync(join(target, reader.file), reader.content(SECRET));
      const read = await reader.open(c);
      renameSync(c.dir, `${c.dir}.real`);
      symlinkSync(target, c.dir);
      expectRefused(reader, await read());
    });

    it.each(DISK_READERS)('$name: a folder of its path a link before it opens', async (reader) => {
      const c = newCase(reader, 'in');
      const target = folder(c);
      mkdirSync(target, { recursive: true });
      writeFileSync(join(target, reader.file), reader.content(SECRET));
      renameSync(c.dir, `${c.dir}.real`);
      symlinkSync(target, c.dir);
      expectRefused(reader, await (await reader.open(c))());
    });
  });
});
