/**
 * What a tool call costs in commits on the session's real path (docs/architecture.md "The path of one tool call";
 * "Performance targets"): one commit between the model's answer and the tool's run — the answer, the round's rows
 * and the call's decision together — and one after, the result. Counted from the database's write-ahead log
 * (test/helpers/wal-commits.ts), so a change that adds a commit fails here rather than only slowing the bench. Which
 * of them wait for an fsync is counted in fsyncs-per-call.test.ts (the log cannot tell).
 * And R1 still holds: when a tool runs, its row is on disk, `running`, with its decision, and every later row of its
 * round `queued`, as another connection reads them.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ChatEvent } from '../../../shared/contract/chat';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { commitsSince, pagesSince, readWalCommits, type WalReading } from '../../../../test/helpers/wal-commits';
import { defineTool } from '../tools/index';
import type { ScriptedTurn } from '../../../../test/llm-server/index';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  cleanupTempDirs();
});

interface Probe {
  /** The log when the round's first text arrived (the model is still answering: nothing of the round is written). */
  answering: WalReading | null;
  /** Per call, in run order: the log when the tool ran, and what another connection read of the rows then. */
  runs: { call: string; at: WalReading; rows: { tool_call_id: string; status: string; decisions: number }[] }[];
  /** Per call: the log when its result was announced (`tool_done`). */
  done: Map<string, WalReading>;
}

/** A harness with `noop_probe` (allowed by a rule) that records the log at each step of the session's own path. */
async function probeHarness(turns: ScriptedTurn[]): Promise<{ probe: Probe; file: string; sessionId: number }> {
  h = await startHarness({ turns });
  const file = join(h.dataDir, 'skald.db');
  h.core.db.pragma('wal_autocheckpoint = 0'); // a checkpoint would restart the log under the count
  const probe: Probe = { answering: null, runs: [], done: new Map() };
  const reader = new Database(file, { readonly: true });
  let current = '';
  h.core.tools.register(
    defineTool({
      name: 'noop_probe',
      description: 'Does nothing.',
      kind: 'other',
      category: 'introspection',
      input: z.object({ n: z.number().optional() }),
      execute: () => {
        const rows = reader
          .prepare(
            `SELECT t.tool_call_id, t.status, (SELECT count(*) FROM tool_decisions d WHERE d.tool_call_id = t.tool_call_id) AS decisions
           FROM chat_llm_tools t WHERE t.message_id = (SELECT message_id FROM chat_llm_tools WHERE tool_call_id = ?) ORDER BY t.id`,
          )
          .all(current) as Probe['runs'][number]['rows'];
        probe.runs.push({ call: current, at: readWalCommits(file), rows });
        return 'ok';
      },
    }),
  );
  h.core.approval.rules.createRule({ tool_pattern: 'noop_probe', action: 'allow', priority: 1 });
  h.core.events.subscribe('chat', (e: ChatEvent) => {
    if (e.type === 'text_delta' && probe.answering === null) probe.answering = readWalCommits(file);
    if (e.type === 'tool_decision') current = e.tool_call_id;
    if (e.type === 'tool_done') probe.done.set(e.tool_call_id, readWalCommits(file));
  });
  const sessionId = await h.newSession();
  // A first turn writes what only a first turn writes (the tool names the app has seen): not the calls' cost.
  await h.sendAndSettle(sessionId, 'warm up');
  probe.answering = null;
  probe.runs = [];
  probe.done.clear();
  return { probe, file, sessionId };
}

describe('commits per tool call on the session path', () => {
  it('the commit counter sees every commit, and only commits', () => {
    const db = new Database(join(tempDir(), 'count.db'));
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE t (x)');
    const file = db.name;
    const start = readWalCommits(file);
    db.prepare('INSERT INTO t VALUES (1)').run();
    db.prepare('INSERT INTO t VALUES (2)').run();
    expect(commitsSince(start, readWalCommits(file))).toBe(2); // two statements, two commits
    const mid = readWalCommits(file);
    db.transaction(() => {
      for (let i = 0; i < 50; i++) db.prepare('INSERT INTO t VALUES (?)').run(i);
    })();
    db.prepare('SELECT count(*) FROM t').get();
    expect(commitsSince(mid, readWalCommits(file))).toBe(1); // one transaction, one commit; a read writes nothing
    // Read on from an earlier reading: the same as a whole read.
    expect(readWalCommits(file, mid)).toEqual(readWalCommits(file));
    expect(readWalCommits(file, start)).toEqual(readWalCommits(file));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.prepare('INSERT INTO t VALUES (3)').run();
    expect(() => commitsSince(mid, readWalCommits(file))).toThrow(/restarted/);
    // An earlier reading of a log that has since restarted is not read on from: the new log is read whole.
    expect(() => commitsSince(mid, readWalCommits(file, mid))).toThrow(/restarted/);
    expect(readWalCommits(file, mid)).toEqual(readWalCommits(file));
    db.close();
  });

  it("a no-op call: one commit from the model's answer to the run (answer, row, decision), one for the result", async () => {
    const { probe, sessionId } = await probeHarness([
      { text: 'ok' },
      { text: 'Checking.', toolCalls: [{ name: 'noop_probe', arguments: {} }] },
      { text: 'Done.' },
    ]);
    await h!.sendAndSettle(sessionId, 'probe once');
    expect(probe.answering).not.toBeNull();
    expect(probe.runs).toHaveLength(1);
    const [run] = probe.runs;
    expect(commitsSince(probe.answering!, run!.at)).toBe(1);
    expect(commitsSince(run!.at, probe.done.get(run!.call)!)).toBe(1);
    // What each commit costs grows with its pages (docs/performance.md "What keeps the waited-on paths fast"): the
    // answer with its session-and-stack index, the decision, the call's row with its four indexes; then the result
    // (the row and its status index).
    expect(pagesSince(probe.answering!, run!.at)).toBe(8);
    expect(pagesSince(run!.at, probe.done.get(run!.call)!)).toBe(2);
    // R1: when the tool ran, its row was on disk `running`, with its decision in the audit.
    expect(run!.rows).toEqual([{ tool_call_id: run!.call, status: 'running', decisions: 1 }]);
    const card = (await h!.call('chat:history', { sessionId })).messages.find((m) => m.tools.length)!;
    expect(card.content).toBe('Checking.');
    expect(card.tools[0]).toMatchObject({ status: 'done', result: 'ok', decision: { action: 'allow' } });
  });

  it('a round of three calls: every row on disk before the first runs; one commit before and one after each call', async () => {
    const { probe, sessionId } = await probeHarness([
      { text: 'ok' },
      { text: 'Three.', toolCalls: [1, 2, 3].map((n) => ({ name: 'noop_probe', arguments: { n } })) },
      { text: 'Done.' },
    ]);
    await h!.sendAndSettle(sessionId, 'probe three times');
    expect(probe.runs).toHaveLength(3);
    const ids = probe.runs.map((r) => r.call);
    expect(probe.runs[0]!.rows.map((r) => r.tool_call_id)).toEqual(ids);
    // The calls behind it are on disk too, `queued`: not started, no decision yet.
    expect(probe.runs[0]!.rows.map((r) => [r.status, r.decisions])).toEqual([
      ['running', 1],
      ['queued', 0],
      ['queued', 0],
    ]);
    let before = probe.answering!;
    for (const run of probe.runs) {
      expect(commitsSince(before, run.at)).toBe(1);
      const done = probe.done.get(run.call)!;
      expect(commitsSince(run.at, done)).toBe(1);
      before = done;
    }
  });
});
