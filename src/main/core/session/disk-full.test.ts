/**
 * A full disk during a real turn (check D8 in docs/security-checks.md): the app's own database, a real core, the
 * scripted LLM over HTTP. The disk fills at a chosen moment through SQLite's page limit (`PRAGMA max_page_count`
 * set to the pages the file has: any write that needs a new page fails with SQLITE_FULL, as on a full file system;
 * a write that fits in the pages there are still succeeds, as it would there). Then: the person reads that the disk
 * is full, the turn stops (no further model request), no row is half-written (each failed write is rolled back
 * whole: a row keeps the state of its last commit, its decision with it), and once the limit is lifted (space is
 * back) the next message works.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../../shared/contract/chat';
import { DISK_FULL_CALL_TEXT, DISK_FULL_TURN_TEXT } from '../db/storage-errors';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';

let h: Harness;
afterEach(async () => {
  await h?.close();
  cleanupTempDirs();
});

/** The disk is full from now on: no write may take a page the database file does not have yet. */
function fillDisk(harness: Harness): void {
  const pages = harness.core.db.pragma('page_count', { simple: true }) as number;
  expect(harness.core.db.pragma(`max_page_count = ${pages}`, { simple: true })).toBe(pages);
}

/** Space is back. */
function freeDisk(harness: Harness): void {
  harness.core.db.pragma('max_page_count = 1073741823');
}

/** Runs `then` once, on the first event of `type` (inside the emit, so before the core's next step). */
function onFirst(harness: Harness, type: ChatEvent['type'], then: () => void): void {
  let done = false;
  const stop = harness.core.events.subscribe('chat', (e) => {
    if (done || e.type !== type) return;
    done = true;
    then();
  });
  void stop;
}

function toolRows(harness: Harness) {
  return harness.core.db
    .prepare('SELECT tool_call_id, status, result, effective_arguments, args_hash FROM chat_llm_tools ORDER BY id')
    .all() as {
    tool_call_id: string;
    status: string;
    result: string | null;
    effective_arguments: string | null;
    args_hash: string | null;
  }[];
}

function decisionsOf(harness: Harness, toolCallId: string) {
  return harness.core.db
    .prepare('SELECT action, actor, args_hash FROM tool_decisions WHERE tool_call_id = ? ORDER BY id')
    .all(toolCallId);
}

describe('D8: a full disk during a turn', () => {
  it('a result that cannot be saved: the person is told, the turn stops, the row stays as its last commit left it; with space back the next message works', async () => {
    h = await startHarness({
      turns: [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'big.txt' } }] },
        { match: 'go on', text: 'Going on.' },
        { text: 'never asked for' },
      ],
    });
    // A result of ~50 KB needs new pages (overflow pages); the row's own first commit did not.
    writeFileSync(join(h.workspace, 'big.txt'), 'a line of the big file\n'.repeat(2_200));
    const sessionId = await h.newSession();
    onFirst(h, 'tool_start', () => fillDisk(h)); // the round's rows and the decision are on disk; the read runs next
    const events = await h.sendAndSettle(sessionId, 'read big.txt');

    const id = (events.find((e) => e.type === 'tool_start') as Extract<ChatEvent, { type: 'tool_start' }>).tool_call_id;
    // The person reads why, in the chat; the card says interrupted (as after a restart), never done or failed.
    expect(events.filter((e) => e.type === 'error')).toEqual([
      expect.objectContaining({ message: DISK_FULL_TURN_TEXT }),
    ]);
    expect(DISK_FULL_TURN_TEXT).toMatch(/^The disk is full/);
    expect(events.some((e) => e.type === 'tool_interrupted' && e.tool_call_id === id)).toBe(true);
    expect(events.some((e) => (e.type === 'tool_done' || e.type === 'tool_error') && e.tool_call_id === id)).toBe(
      false,
    );
    expect(events.at(-1)).toMatchObject({ type: 'turn_running', running: false });
    // The turn stopped: the model was not asked again with a result that is not on disk.
    expect(h.llm.requests).toHaveLength(1);
    // Not half-written: the row is as its last commit left it, `running` (it ran), no result, its normalized
    // arguments and hash written with its one decision, in one transaction.
    const [row] = toolRows(h);
    expect(row).toMatchObject({ tool_call_id: id, status: 'running', result: null });
    expect(row!.effective_arguments).toContain('big.txt');
    expect(decisionsOf(h, id)).toEqual([{ action: 'allow', actor: 'policy', args_hash: row!.args_hash }]);
    expect(h.core.db.pragma('integrity_check', { simple: true })).toBe('ok');
    // What a reload shows is what the live chat showed.
    const card = (await h.call('chat:history', { sessionId })).messages
      .flatMap((m) => m.tools)
      .find((t) => t.tool_call_id === id);
    expect(card).toMatchObject({ status: 'running', interrupted: true });

    // Space is back: the next message works, and the call the disk cut short ends with a reason the model reads.
    freeDisk(h);
    const next = await h.sendAndSettle(sessionId, 'go on');
    expect(next.find((e) => e.type === 'done')).toMatchObject({ content: 'Going on.' });
    expect(next.some((e) => e.type === 'error')).toBe(false);
    expect(toolRows(h)[0]).toMatchObject({ status: 'failed', result: expect.stringMatching(/Interrupted/) });
    expect(h.core.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('a round that cannot be saved leaves nothing of it: no answer, no tool row, nothing ran; the turn stops with the person told', async () => {
    const content = 'x'.repeat(40_000); // the round's commit needs new pages for these arguments
    const write = { toolCalls: [{ name: 'write_file', arguments: { path: 'out.txt', content } }] };
    h = await startHarness({ turns: [write, write, { text: 'Written this time.' }] });
    const sessionId = await h.newSession();
    onFirst(h, 'turn_running', () => fillDisk(h)); // the person's message is saved; the model answers next
    const events = await h.sendAndSettle(sessionId, 'write out.txt');

    expect(events.filter((e) => e.type === 'error')).toEqual([
      expect.objectContaining({ message: DISK_FULL_TURN_TEXT }),
    ]);
    expect(
      events.some((e) => e.type.startsWith('tool_') || e.type === 'approval_required' || e.type === 'pending_write'),
    ).toBe(false);
    expect(toolRows(h)).toEqual([]);
    expect((await h.call('chat:history', { sessionId })).messages.map((m) => m.role)).toEqual(['user']);
    expect(h.core.approval.pending.list().approvals).toEqual([]);
    expect(h.llm.requests).toHaveLength(1);
    expect(h.core.db.pragma('integrity_check', { simple: true })).toBe('ok');

    freeDisk(h);
    await h.call('chat:send', { sessionId, content: 'try again' });
    const pending = await h.waitForEvent('pending_write');
    expect(pending.new_content).toBe(content);
    await h.call('inbox:resolveApproval', {
      requestId: pending.request_id,
      action: 'approve',
      note: '',
      argsHash: pending.args_hash,
    });
    await h.waitForEvent('done');
    expect(readFileSync(join(h.workspace, 'out.txt'), 'utf8')).toBe(content);
  });

  it('a message that cannot be saved is refused with a clear error and code; nothing starts; with space back it is sent', async () => {
    h = await startHarness({ turns: [{ text: 'Got it.' }] });
    const sessionId = await h.newSession();
    fillDisk(h);
    const long = 'a long message '.repeat(3_000);
    await expect(h.call('chat:send', { sessionId, content: long })).rejects.toThrow(
      `[disk_full] ${DISK_FULL_CALL_TEXT}`,
    );
    expect(h.events).toEqual([]);
    expect(h.llm.requests).toHaveLength(0);
    expect(h.core.sessions.isRunning(sessionId)).toBe(false);

    freeDisk(h);
    const events = await h.sendAndSettle(sessionId, long);
    expect(events.find((e) => e.type === 'done')).toMatchObject({ content: 'Got it.' });
  });
});
