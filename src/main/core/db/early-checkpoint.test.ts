/**
 * The log is copied into the database while a round waits for the model, not inside a tool call's commit
 * (db/wal-keeper.ts, `checkpointSoon`; docs/performance.md "What keeps the waited-on paths fast"). Read from the
 * WAL-index header SQLite keeps in the `-shm` file (`walIndexFrames`), checked here against the log file itself.
 */
import Database from 'better-sqlite3';
import { closeSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { defineTool } from '../tools/index';
import { EARLY_CHECKPOINT_SHARE, startWalKeeper, walIndexFrames } from './wal-keeper';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  cleanupTempDirs();
});

const FRAME = 24 + 4096;

describe('the log copied while the model is asked', () => {
  it('reads the log frames and the copied ones from the WAL index, as the log file and a checkpoint say', () => {
    const file = join(tempDir(), 'index.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE t (x)');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    for (let i = 0; i < 40; i++) insert.run('x'.repeat(3000));
    const fd = openSync(`${file}-shm`, 'r');
    const before = walIndexFrames(fd)!;
    expect(before.frames).toBe((statSync(`${file}-wal`).size - 32) / FRAME);
    expect(before.frames).toBeGreaterThan(40);
    expect(before.copied).toBe(0);
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    expect(walIndexFrames(fd)).toEqual({ frames: result!.log, copied: result!.checkpointed });
    expect(result!.checkpointed).toBe(before.frames);
    closeSync(fd);
    db.close();
  });

  it("checkpointSoon copies a log past half of SQLite's own threshold after the caller returns, and leaves a short one", async () => {
    const file = join(tempDir(), 'soon.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 60'); // SQLite's own at 60 pages: from 30 here
    db.exec('CREATE TABLE t (x)');
    const keeper = startWalKeeper(db, file);
    const fd = openSync(`${file}-shm`, 'r');
    const pending = () => {
      const log = walIndexFrames(fd)!;
      return log.frames - log.copied;
    };
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    const base = pending(); // the table's creation
    for (let i = 0; i < 10; i++) insert.run(i);
    keeper.checkpointSoon();
    await new Promise((resolve) => setImmediate(resolve));
    expect(pending()).toBe(base + 10); // under the threshold: left for later
    for (let i = 0; i < 30; i++) insert.run(i);
    keeper.checkpointSoon();
    keeper.checkpointSoon(); // one checkpoint however often it is asked for
    expect(pending()).toBe(base + 40); // not in the caller's stack
    await new Promise((resolve) => setImmediate(resolve));
    // Copied whole, and started over at once: the log holds only the rewrite of the unchanged first page that starts
    // it over (the next commit then syncs no new header of its own).
    expect(walIndexFrames(fd)).toEqual({ frames: 1, copied: 0 });
    // From 80% of SQLite's own mark (48 of 60 here) the copy is made at once, in the caller's stack.
    for (let i = 0; i < 50; i++) insert.run(i);
    expect(pending()).toBe(51);
    keeper.checkpointSoon();
    expect(walIndexFrames(fd)).toEqual({ frames: 1, copied: 0 });
    // SQLite's own turned off (as a count of commits needs): none from here either.
    db.pragma('wal_autocheckpoint = 0');
    for (let i = 0; i < 40; i++) insert.run(i);
    keeper.checkpointSoon();
    await new Promise((resolve) => setImmediate(resolve));
    expect(pending()).toBe(41);
    keeper.dispose();
    closeSync(fd);
    db.close();
  });

  it("a turn's request copies a long log, so the tool call's commits do not", async () => {
    h = await startHarness({ turns: [{ toolCalls: [{ name: 'log_probe', arguments: {} }] }, { text: 'Done.' }] });
    const file = join(h.dataDir, 'skald.db');
    const fd = openSync(`${file}-shm`, 'r');
    const pending = () => {
      const log = walIndexFrames(fd)!;
      return log.frames - log.copied;
    };
    let atRun = -1;
    h.core.tools.register(
      defineTool({
        name: 'log_probe',
        description: 'Reads the log.',
        kind: 'other',
        category: 'introspection',
        input: z.object({}),
        execute: () => ((atRun = pending()), 'ok'),
      }),
    );
    h.core.approval.rules.createRule({ tool_pattern: 'log_probe', action: 'allow', priority: 1 });
    const sessionId = await h.newSession();
    // Writes of the person's own (a long chat) bring the log near SQLite's own checkpoint (1000 pages), below it.
    h.core.db.pragma('wal_checkpoint(TRUNCATE)');
    const store = h.core.sessions.store;
    while (pending() < EARLY_CHECKPOINT_SHARE * 1000 + 100)
      store.appendMessage({ sessionId, role: 'user', content: 'a long message '.repeat(300) });
    expect(pending()).toBeLessThan(1000);
    await h.sendAndSettle(sessionId, 'probe');
    expect(atRun).toBeGreaterThanOrEqual(0);
    // Copied when the round asked the model: only the round's own pages since then are left.
    expect(atRun).toBeLessThan(50);
    closeSync(fd);
  });
});
