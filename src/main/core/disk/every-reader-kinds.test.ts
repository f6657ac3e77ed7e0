/**
 * Every disk reader of the core (test/helpers/disk-readers.ts), as a class (docs/guards.md "One disk policy"): a FIFO,
 * a socket or a device where it reads is refused with a sentence, at once, never read; and where git's metadata is
 * looked up (`.git`, `.git/commondir`, a `.git` pointer's target, a config, in the folder or a parent), a FIFO, socket
 * or device refuses the write with a sentence instead of hanging the core. A reader that blocked on a FIFO would block
 * the whole process (no timer could fire), so each FIFO gets a writer child that opens it after UNBLOCK_MS: a hung
 * read then ends, late, and the test fails on the time it took. Real core, real FIFOs, sockets and device nodes.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import {
  DISK_READERS,
  isSentence,
  PUBLIC,
  SECRET,
  toolContext,
  type Answer,
  type DiskReader,
  type ReaderCase,
} from '../../../../test/helpers/disk-readers';
import { cleanupTempDirs } from '../../../../test/helpers/temp';
import { writeFileTool } from '../tools/fs/write-file';
import { runTool } from '../tools/_testing/workspace';

/** A reader may take this long (a busy machine, an LLM round for AGENTS.md); a blocked one takes UNBLOCK_MS. */
const QUICK_MS = 3_000;
const UNBLOCK_MS = 4_500;

let h: Harness;
let cases = 0;
const children: ChildProcess[] = [];
const servers: Server[] = [];

beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const server of servers) server.close();
  await h.close();
  cleanupTempDirs();
});

function newCase(reader: DiskReader): ReaderCase {
  const dir = join(h.workspace, 'cases', String(++cases));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, reader.file);
  writeFileSync(path, reader.content(PUBLIC));
  return { h, dir, path };
}

/**
 * A FIFO at `path`, with a child that writes the secret into it every UNBLOCK_MS until the test file ends: a read that
 * blocked ends that late (however often the reader comes back to it), so a hang fails the test on its time.
 */
function fifoAt(path: string): void {
  execFileSync('mkfifo', [path]);
  const script = `setInterval(() => { try { require('fs').writeFileSync(${JSON.stringify(path)}, ${JSON.stringify(`${SECRET}\n`)}); } catch {} }, ${UNBLOCK_MS});`;
  children.push(spawn(process.execPath, ['-e', script], { stdio: 'ignore' }));
}

async function socketAt(path: string): Promise<void> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((done) => server.listen(path, done));
}

/** A character device at `path` (the kind of /dev/null); false where this user may not make one. */
function deviceAt(path: string): boolean {
  try {
    execFileSync('mknod', [path, 'c', '1', '3'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const canMakeDevices = (() => {
  const probe = join(process.env.TMPDIR ?? '/tmp', `skald-mknod-probe-${process.pid}`);
  const ok = deviceAt(probe);
  if (ok) rmSync(probe);
  return ok;
})();

const shown = (answer: Answer) => ('text' in answer ? answer.text : answer.refusal);

/**
 * The answer, and the longest the core's thread was held while it came: a heartbeat every 20 ms measures the gaps.
 * A blocking read holds the thread (no beat) until the FIFO's writer comes; a program the reader runs does not.
 */
async function timed(read: () => Promise<Answer>): Promise<{ answer: Answer; ms: number }> {
  let last = performance.now();
  let longest = 0;
  const beat = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 20);
  try {
    const answer = await read();
    return { answer, ms: Math.max(longest, performance.now() - last) };
  } finally {
    clearInterval(beat);
  }
}

function expectRefusedAtOnce(reader: DiskReader, { answer, ms }: { answer: Answer; ms: number }): void {
  expect(ms, `${reader.name} held the core's thread for ${Math.round(ms)} ms`).toBeLessThan(QUICK_MS);
  expect(shown(answer)).not.toContain(SECRET);
  if (!reader.refuses) return;
  expect(answer).toHaveProperty('refusal');
  expect(isSentence(shown(answer)), shown(answer)).toBe(true);
}

const KINDS = [
  { what: 'a FIFO', make: async (path: string) => fifoAt(path), skip: false },
  { what: 'a socket', make: socketAt, skip: false },
  { what: 'a device', make: async (path: string) => void deviceAt(path), skip: !canMakeDevices },
];

describe('every disk reader refuses what is not a regular file, without blocking', () => {
  describe.each(KINDS)('$what', ({ make, skip }) => {
    // A reader that runs a program on the file before the core reads it (TeX) is left out here: a FIFO a document
    // names blocks that program, never the core, until its own time limit (viewer/latex.test.ts).
    const first = DISK_READERS.filter((reader) => !reader.runsAProgram);
    it.skipIf(skip).each(first)('$name: there before it opens', async (reader) => {
      const c = newCase(reader);
      rmSync(c.path);
      await make(c.path);
      expectRefusedAtOnce(reader, await timed(async () => (await reader.open(c))()));
    });

    it.skipIf(skip).each(DISK_READERS)('$name: the file swapped for it after it opened', async (reader) => {
      const c = newCase(reader);
      const read = await reader.open(c);
      rmSync(c.path);
      await make(c.path);
      expectRefusedAtOnce(reader, await timed(read));
    });
  });
});

/** Where git's metadata is looked up, made odd; `target` is the file a write then tries, under the folder. */
const GIT_CASES: { what: string; make: (dir: string) => Promise<void>; target: string }[] = [
  { what: '.git is a FIFO', make: async (dir) => fifoAt(join(dir, '.git')), target: 'x.txt' },
  { what: '.git is a socket', make: (dir) => socketAt(join(dir, '.git')), target: 'x.txt' },
  {
    what: '.git/commondir is a FIFO',
    make: async (dir) => {
      mkdirSync(join(dir, '.git'));
      fifoAt(join(dir, '.git', 'commondir'));
    },
    target: 'x.txt',
  },
  {
    what: '.git/config is a FIFO',
    make: async (dir) => {
      mkdirSync(join(dir, '.git'));
      fifoAt(join(dir, '.git', 'config'));
    },
    target: 'x.txt',
  },
  {
    what: "a .git pointer's target is a FIFO",
    make: async (dir) => {
      writeFileSync(join(dir, '.git'), 'gitdir: ../pointed\n');
      fifoAt(join(dir, '..', 'pointed'));
    },
    target: 'x.txt',
  },
  {
    what: "a .git pointer's commondir is a FIFO",
    make: async (dir) => {
      mkdirSync(join(dir, '..', 'pointed-dir'));
      writeFileSync(join(dir, '.git'), 'gitdir: ../pointed-dir\n');
      fifoAt(join(dir, '..', 'pointed-dir', 'commondir'));
    },
    target: 'x.txt',
  },
  {
    what: "a parent folder's .git/commondir is a FIFO",
    make: async (dir) => {
      mkdirSync(join(dir, '.git'));
      fifoAt(join(dir, '.git', 'commondir'));
      mkdirSync(join(dir, 'deep', 'er'), { recursive: true });
    },
    target: 'deep/er/x.txt',
  },
];

describe("git's metadata is never read with a blocking read", () => {
  it.each(GIT_CASES)('$what: a write below is refused with a sentence, at once', async ({ make, target }) => {
    const dir = join(h.workspace, 'cases', String(++cases), 'repo');
    mkdirSync(dir, { recursive: true });
    await make(dir);
    const started = performance.now();
    const outcome = await runTool(writeFileTool, { path: join(dir, target), content: 'x' }, toolContext(h));
    expect(performance.now() - started).toBeLessThan(QUICK_MS);
    expect(outcome.kind).toBe('failed');
    const error = outcome.kind === 'failed' ? outcome.error : '';
    expect(error).toMatch(/where git looks for its hooks cannot be read/);
    expect(isSentence(error), error).toBe(true);
    expect(existsSync(join(dir, target))).toBe(false);
  });
});
