/**
 * The viewer's live reload against real files on disk and chokidar's real watcher (docs/viewer.md "Live reload"):
 * a burst of writes is one reload, and a file written without pause still reloads while the writing lasts.
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { DEBOUNCE_MS, FileWatcher, MAX_WAIT_MS } from './file-watcher';

let dir: string;
let watcher: FileWatcher;
let reloads: { handle: string; at: number }[];
let live: Set<string>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skald-watch-'));
  reloads = [];
  live = new Set(['h1']);
  watcher = new FileWatcher(
    (handle) => reloads.push({ handle, at: performance.now() }),
    (h) => live.has(h),
  );
});

afterEach(async () => {
  await watcher.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** chokidar reports nothing until its watch of the file is set up; a write before that would be missed. */
async function watching(file: string): Promise<void> {
  watcher.add('h1', [file]);
  await sleep(300);
}

it('a burst of writes is reported once, after the file goes quiet', async () => {
  const file = join(dir, 'notes.md');
  writeFileSync(file, 'a');
  await watching(file);
  for (let i = 0; i < 5; i++) writeFileSync(file, `v${i}`), await sleep(20);
  await sleep(DEBOUNCE_MS + 400);
  expect(reloads.map((r) => r.handle)).toEqual(['h1']);
});

it('a log appended to without pause reloads while it is written, at least every MAX_WAIT_MS', async () => {
  const file = join(dir, 'build.log');
  writeFileSync(file, '');
  await watching(file);
  const started = performance.now();
  const writingMs = 3 * MAX_WAIT_MS + 500;
  while (performance.now() - started < writingMs) {
    appendFileSync(file, `line at ${Math.round(performance.now())}\n`);
    await sleep(50); // never DEBOUNCE_MS of quiet
  }
  const during = reloads.filter((r) => r.at - started < writingMs);
  expect(during.length).toBeGreaterThanOrEqual(2);
  expect(during[0]!.at - started).toBeLessThan(MAX_WAIT_MS + 500);
});

it('a closed handle is not reported', async () => {
  const file = join(dir, 'gone.txt');
  writeFileSync(file, 'a');
  await watching(file);
  live.delete('h1');
  writeFileSync(file, 'b');
  await sleep(DEBOUNCE_MS + 400);
  expect(reloads).toEqual([]);
  expect(watcher.watchedPaths()).toBe(0);
});
