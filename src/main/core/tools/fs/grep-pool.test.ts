/**
 * When the JS engine hands its reading to the worker pool (grep-engines.ts POOL_WARM_MS / POOL_AFTER_MS): the workers
 * are started ahead, a search never waits for workers that are not ready, and ready workers take the reading.
 * A tree of 4,000 files keeps the search going past the engine's first turns of the event loop on any machine.
 */
import { linkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardScope } from '../../disk/protected';
import { forgetGuardedIdentities } from '../_policy/hardlinks';
import { makeWorkspace, ok, type TestWorkspace } from '../_testing/workspace';
import { filesAhead, handsToPool } from './grep-engines';
import { createGrepFilesTool } from './grep-files';
import { FOUND, GrepPool, NO_HIT, spawnGrepWorker, type GrepJob, type PoolAnswer } from './grep-pool';

let ws: TestWorkspace;

beforeAll(() => {
  ws = makeWorkspace();
  for (let d = 0; d < 40; d++) {
    for (let f = 0; f < 100; f++) {
      const lines = Array.from({ length: 40 }, (_, l) => `line ${l} of file ${f}: common words here`);
      if ((d * 100 + f) % 97 === 0) lines.push('a rare_needle here');
      ws.write(`d${d}/f${f}.txt`, `${lines.join('\n')}\n`);
    }
  }
});
afterAll(() => ws.cleanup());

/** A pool that counts the real jobs (files to search) its workers were given. */
class CountingPool extends GrepPool {
  realJobs = 0;
  override filter(job: Omit<GrepJob, 'id'>): Promise<PoolAnswer | null> {
    if (job.paths.length > 0) this.realJobs++;
    return super.filter(job);
  }
}

const alone = createGrepFilesTool({ ripgrepPath: null, pool: null });
const rare = { pattern: 'rare_needle', limit: 5000 };

describe('when the JS engine hands its reading to the pool', () => {
  it('only past the bound, only to workers that have answered, and not with half the page found', () => {
    expect(handsToPool(20, 16, true, 10, 101)).toBe(true);
    expect(handsToPool(15, 16, true, 10, 101)).toBe(false); // too early
    expect(handsToPool(20, 16, false, 10, 101)).toBe(false); // workers still starting
    expect(handsToPool(20, 16, true, 51, 101)).toBe(false); // half the page found: it finishes here
    expect(handsToPool(20, 16, true, 50, 101)).toBe(true);
    expect(handsToPool(20, 16, true, 5000, undefined)).toBe(true); // no page given: the whole walk
  });
});

describe("how far ahead a page's search sends files to the pool", () => {
  it('unbounded until a hit says how far the page goes; then the files it may still need, half as many again', () => {
    expect(filesAhead(undefined, 10, 100)).toBe(Number.POSITIVE_INFINITY); // no page: the whole walk
    expect(filesAhead(101, 0, 500)).toBe(Number.POSITIVE_INFINITY);
    expect(filesAhead(101, 50, 500)).toBe(765); // 51 entries left, 10 files an entry so far
    expect(filesAhead(101, 101, 500)).toBe(0);
  });

  it('a page whose first hits are dense and the rest far on still reads on to them', async () => {
    // 60 hits in the first file say the page is nearly done; the next 40 lie 3,000 files further.
    const far = makeWorkspace();
    const pool = new GrepPool(spawnGrepWorker);
    try {
      const hits = Array.from({ length: 60 }, (_, i) => `dense_hit ${i}`).join('\n');
      far.write('a/hits.txt', `${hits}\n`);
      for (let i = 0; i < 3000; i++) far.write(`b/f${String(i).padStart(4, '0')}.txt`, 'nothing here\n');
      far.write('c/more.txt', `${hits}\n`);
      const tool = createGrepFilesTool({ ripgrepPath: null, pool, poolAfterMs: 0 });
      const answer = await ok(tool, { pattern: 'dense_hit' }, far.ctx);
      expect(answer).toContain('c/more.txt:40:dense_hit 39');
      expect(answer).toBe(await ok(alone, { pattern: 'dense_hit' }, far.ctx));
    } finally {
      await pool.close();
      far.cleanup();
    }
  });

  it('pages cut anywhere come out as the one-thread search gives them', async () => {
    const pool = new GrepPool(spawnGrepWorker);
    try {
      const tool = createGrepFilesTool({ ripgrepPath: null, pool, poolAfterMs: 0 });
      for (const [limit, offset] of [
        [3, 0],
        [10, 0],
        [10, 25],
        [30, 5],
      ] as const) {
        const args = { pattern: 'rare_needle', limit, offset };
        expect(await ok(tool, args, ws.ctx)).toBe(await ok(alone, args, ws.ctx));
      }
    } finally {
      await pool.close();
    }
  });
});

describe('the JS engine and its worker pool', () => {
  it('workers that never answer never hold a search up: it goes on alone, with the same answer', async () => {
    // Started, but deaf: a job given to them would wait forever.
    const deaf = new GrepPool(() => new Worker('setInterval(() => {}, 1000)', { eval: true }));
    try {
      const tool = createGrepFilesTool({ ripgrepPath: null, pool: deaf, poolAfterMs: 1 });
      expect(await ok(tool, rare, ws.ctx)).toBe(await ok(alone, rare, ws.ctx));
      expect(deaf.liveWorkers).toBeGreaterThan(0); // the search did start them
      expect(deaf.isReady).toBe(false);
    } finally {
      await deaf.close();
    }
  });

  it('a search started the workers; once they answered, the next search gives them its reading', async () => {
    const pool = new CountingPool(spawnGrepWorker);
    try {
      const tool = createGrepFilesTool({ ripgrepPath: null, pool, poolAfterMs: 1 });
      const expected = await ok(alone, rare, ws.ctx);
      expect(await ok(tool, rare, ws.ctx)).toBe(expected);
      await expect.poll(() => pool.isReady, { timeout: 10_000 }).toBe(true);
      const before = pool.realJobs;
      expect(await ok(tool, rare, ws.ctx)).toBe(expected);
      expect(pool.realJobs).toBeGreaterThan(before);
    } finally {
      await pool.close();
    }
  });
});

describe("a worker's hits", () => {
  it('come with their lines, confirmed on the descriptor the worker read; a file with other names is judged here', async () => {
    // A hard link to a secrets/ file is the secret under a second name. The worker does not judge a file with other
    // names against the guarded files (each worker would walk the workspace for them): it sends the identity of the
    // descriptor it read back with the hit, and this thread judges that identity as it judges every hit.
    const secret = ws.write('secrets/key.txt', 'rare_needle in the secret\n');
    const link = join(ws.root, 'linked.txt');
    linkSync(secret, link);
    forgetGuardedIdentities();
    const plain = join(ws.root, 'd0/f0.txt');
    const pool = new GrepPool(spawnGrepWorker);
    try {
      const job = { paths: [plain, link], pattern: 'RARE_needle', caseInsensitive: true, maxBytes: 1 << 20 };
      const guarded = await pool.filter({ ...job, context: 1, mode: 'content', guard: guardScope(ws.root) });
      expect([...guarded!.hits]).toEqual([FOUND, FOUND]);
      expect(guarded!.found[0]).toEqual({
        matches: [40],
        matchTexts: ['a rare_needle here'],
        lineTexts: new Map([
          [39, 'line 39 of file 0: common words here'],
          [40, 'a rare_needle here'],
        ]),
      });
      const { ino, dev } = statSync(secret);
      expect(guarded!.found[1]!.link).toEqual({ dev, ino, nlink: 2 });
      // Through the tool, with the workers from the first file: the secret's second name is never shown.
      const tool = createGrepFilesTool({ ripgrepPath: null, pool, poolAfterMs: 0 });
      for (const args of [{}, { context_lines: 1 }, { output_mode: 'files_only' }, { output_mode: 'count' }]) {
        const answer = await ok(tool, { pattern: 'rare_needle', limit: 5000, ...args }, ws.ctx);
        expect(answer).toContain('d0/f0.txt');
        expect(answer).not.toContain('secret');
        expect(answer).not.toContain('linked');
      }
      // A hard link to an ordinary file is shown, read by the worker.
      const other = join(ws.root, 'd0/f0-again.txt');
      linkSync(plain, other);
      const both = await ok(tool, { pattern: 'rare_needle', output_mode: 'files_only', limit: 5000 }, ws.ctx);
      expect(both).toContain('d0/f0-again.txt');
    } finally {
      await pool.close();
    }
  });

  it('stop once the search that sent the job has ended (its page full): the rest of the job is not searched', async () => {
    const pool = new GrepPool(spawnGrepWorker);
    try {
      const plain = join(ws.root, 'd0/f0.txt');
      const job = { paths: [plain], pattern: 'rare_needle', caseInsensitive: false, maxBytes: 1 << 20, context: 0 };
      const cancel = new Int32Array(new SharedArrayBuffer(4));
      const going = await pool.filter({ ...job, mode: 'files', guard: null, cancel });
      expect([...going!.hits]).toEqual([FOUND]);
      Atomics.store(cancel, 0, 1);
      const ended = await pool.filter({ ...job, mode: 'files', guard: null, cancel });
      expect([...ended!.hits]).toEqual([NO_HIT]);
    } finally {
      await pool.close();
    }
  });
});
