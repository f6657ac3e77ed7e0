/**
 * Durability follows consequence (docs/architecture.md): which of a tool call's two commits wait for an fsync, seen
 * by strace attached to this process (test/helpers/fsync-trace.ts), since the write-ahead log cannot tell. A call of
 * a tool that only reads, allowed by the gate: its decision's commit is written without an fsync and its result's
 * commit with one, which makes both durable before the result goes anywhere. Any other call: an fsync before it
 * runs (R1) and one after. The connection's level is back to FULL while any tool runs.
 */
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ChatEvent } from '../../../shared/contract/chat';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { fsyncsBetween, traceFsyncs, type FsyncTrace, type TraceEvent } from '../../../../test/helpers/fsync-trace';
import { cleanupTempDirs } from '../../../../test/helpers/temp';
import type { ScriptedTurn } from '../../../../test/llm-server/index';
import { EARLY_CHECKPOINT_SHARE, walIndexFrames } from '../db/wal-keeper';
import { defineTool } from '../tools/index';
import type { ToolKind } from '../tools/tool';

let h: Harness | undefined;
let trace: FsyncTrace | undefined;
afterEach(async () => {
  await trace?.stop();
  trace = undefined;
  await h?.close();
  h = undefined;
  cleanupTempDirs();
});

const FULL = 2;

/** Tools `probe_<kind>` that drop a marker as they run and record the connection's level then. */
async function traced(
  turns: ScriptedTurn[],
  kinds: ToolKind[],
  allow = kinds,
): Promise<{ sessionId: number; levels: number[]; events: () => Promise<TraceEvent[]> }> {
  h = await startHarness({ turns });
  const levels: number[] = [];
  let n = 0;
  for (const kind of kinds) {
    h.core.tools.register(
      defineTool({
        name: `probe_${kind}`,
        description: 'Does nothing.',
        kind,
        category: 'introspection',
        input: z.object({}),
        execute: () => {
          levels.push(Number(h!.core.db.pragma('synchronous', { simple: true })));
          trace?.mark(`ran${++n}`);
          return 'ok';
        },
      }),
    );
  }
  for (const kind of allow)
    h.core.approval.rules.createRule({ tool_pattern: `probe_${kind}`, action: 'allow', priority: 1 });
  const sessionId = await h.newSession();
  await h.sendAndSettle(sessionId, 'warm up'); // a first turn writes what only a first turn writes
  let answered = false;
  let done = 0;
  h.core.events.subscribe('chat', (e: ChatEvent) => {
    if (e.type === 'text_delta' && !answered) (answered = true), trace?.mark('answering');
    if (e.type === 'tool_done') trace?.mark(`done${++done}`);
  });
  trace = await traceFsyncs();
  return {
    sessionId,
    levels,
    events: async () => {
      const events = await trace!.stop();
      trace = undefined;
      return events;
    },
  };
}

describe('fsyncs per tool call', () => {
  it('a read-only call the gate allowed: no fsync before it runs, one after', async () => {
    const t = await traced(
      [{ text: 'ok' }, { text: 'Reading.', toolCalls: [{ name: 'probe_read', arguments: {} }] }, { text: 'Done.' }],
      ['read'],
    );
    await h!.sendAndSettle(t.sessionId, 'read');
    const events = await t.events();
    expect(fsyncsBetween(events, 'answering', 'ran1')).toBe(0);
    expect(fsyncsBetween(events, 'ran1', 'done1')).toBe(1);
    expect(t.levels).toEqual([FULL]); // the level was put back before the tool ran
    expect(Number(h!.core.db.pragma('synchronous', { simple: true }))).toBe(FULL);
  });

  it('any other call: one fsync before it runs and one after', async () => {
    const t = await traced(
      [{ text: 'ok' }, { text: 'Other.', toolCalls: [{ name: 'probe_other', arguments: {} }] }, { text: 'Done.' }],
      ['other'],
    );
    await h!.sendAndSettle(t.sessionId, 'other');
    const events = await t.events();
    expect(fsyncsBetween(events, 'answering', 'ran1')).toBe(1);
    expect(fsyncsBetween(events, 'ran1', 'done1')).toBe(1);
    expect(t.levels).toEqual([FULL]);
  });

  it('a call right after its round copied the log: still one fsync before it runs and one after (the log was started over as the model was asked)', async () => {
    const t = await traced(
      [{ text: 'ok' }, { text: 'Other.', toolCalls: [{ name: 'probe_other', arguments: {} }] }, { text: 'Done.' }],
      ['other'],
    );
    // Writes of the person's own bring the log past the share from which a round's request copies it (wal-keeper.ts).
    const shm = openSync(join(h!.dataDir, 'skald.db-shm'), 'r');
    const pending = () => {
      const log = walIndexFrames(shm)!;
      return log.frames - log.copied;
    };
    while (pending() < EARLY_CHECKPOINT_SHARE * 1000 + 50)
      h!.core.sessions.store.appendMessage({
        sessionId: t.sessionId,
        role: 'user',
        content: 'a long message '.repeat(300),
      });
    await h!.sendAndSettle(t.sessionId, 'other');
    const events = await t.events();
    // Copied, and the log's first commit since (the one that syncs the log's new header) was not the call's.
    expect(pending()).toBeLessThan(EARLY_CHECKPOINT_SHARE * 1000);
    closeSync(shm);
    expect(fsyncsBetween(events, 'answering', 'ran1')).toBe(1);
    expect(fsyncsBetween(events, 'ran1', 'done1')).toBe(1);
  });

  it("a round of a read and an edit: the read result is fsync'd before the edit runs, the edit has its own fsync before it", async () => {
    const calls = [
      { name: 'probe_read', arguments: {} },
      { name: 'probe_edit', arguments: {} },
    ];
    const t = await traced([{ text: 'ok' }, { text: 'Both.', toolCalls: calls }, { text: 'Done.' }], ['read', 'edit']);
    await h!.sendAndSettle(t.sessionId, 'both');
    const events = await t.events();
    expect(fsyncsBetween(events, 'answering', 'ran1')).toBe(0);
    expect(fsyncsBetween(events, 'ran1', 'done1')).toBe(1);
    expect(fsyncsBetween(events, 'done1', 'ran2')).toBe(1);
    expect(fsyncsBetween(events, 'ran2', 'done2')).toBe(1);
    expect(t.levels).toEqual([FULL, FULL]);
  });

  it('a read-only call without an allow rule keeps its fsync before the person is asked', async () => {
    const t = await traced(
      [{ text: 'ok' }, { text: 'Reading.', toolCalls: [{ name: 'probe_read', arguments: {} }] }, { text: 'Done.' }],
      ['read'],
      [],
    );
    let asked = 0;
    h!.core.events.subscribe('chat', (e: ChatEvent) => {
      if (e.type !== 'approval_required') return;
      asked++;
      trace?.mark('asked');
      void h!.call('inbox:resolveApproval', {
        requestId: e.request_id,
        action: 'approve',
        note: '',
        argsHash: e.args_hash,
      });
    });
    await h!.sendAndSettle(t.sessionId, 'read');
    const events = await t.events();
    expect(asked).toBe(1);
    // The decision's commit (the call's row `pending`, R1) and the approval request's own: both fsync'd.
    expect(fsyncsBetween(events, 'answering', 'asked')).toBe(2);
  });
});
