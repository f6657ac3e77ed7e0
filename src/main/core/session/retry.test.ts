/**
 * Retry / Continue (`chat:retry`, docs/chat-ui.md "Retry and Continue") against a real core: the scripted LLM over
 * HTTP with the real provider client, real SQLite, the real gate. A retry replays the chat as it stands: no new
 * message, nothing re-run, and it is refused wherever src/shared/awaiting-answer.ts says nothing waits.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';
import { MAX_TOOL_ROUNDS } from './turn';

let h: Harness;
afterEach(async () => {
  await h?.close();
  cleanupTempDirs();
});

/** Calls `chat:retry` and waits for the turn it started to end; returns the events of that turn. */
async function retryAndSettle(sessionId: number) {
  const from = h.events.length;
  expect(await h.call('chat:retry', { sessionId })).toEqual({ started: true });
  await expect
    .poll(() => h.events.slice(from).some((e) => e.type === 'turn_running' && !e.running), { timeout: 20_000 })
    .toBe(true);
  return h.events.slice(from);
}

const userTexts = (body: unknown) =>
  ((body as { messages: { role: string; content: unknown }[] }).messages ?? [])
    .filter((m) => m.role === 'user')
    .map((m) => JSON.stringify(m.content));

describe('chat:retry', () => {
  it('after a failed model request: the same message is asked again, once, and answered', async () => {
    h = await startHarness({ turns: [{ status: 401, errorMessage: 'bad key' }, { text: 'Answered on the retry.' }] });
    const sessionId = await h.newSession();
    const failed = await h.sendAndSettle(sessionId, 'what is in the box?');
    // Said once: the round's llm_failed, not again as the turn's error.
    expect(failed.filter((e) => e.type === 'error' || e.type === 'llm_failed').map((e) => e.type)).toEqual([
      'llm_failed',
    ]);
    expect((await h.call('chat:history', { sessionId })).messages.map((m) => m.role)).toEqual(['user']);

    const events = await retryAndSettle(sessionId);
    expect(events.find((e) => e.type === 'done')).toMatchObject({ content: 'Answered on the retry.' });
    expect(events.some((e) => e.type === 'user_message')).toBe(false);
    const history = (await h.call('chat:history', { sessionId })).messages;
    expect(history.map((m) => [m.role, m.content])).toEqual([
      ['user', 'what is in the box?'],
      ['assistant', 'Answered on the retry.'],
    ]);
    const asked = userTexts(h.llm.requests.at(-1)!.body);
    expect(asked.filter((t) => t.includes('what is in the box?'))).toHaveLength(1);
  });

  it('refused where nothing waits: an answered chat, a running turn, an unknown chat', async () => {
    h = await startHarness({
      turns: [{ text: 'Done.' }, { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'A' } }] }],
    });
    const sessionId = await h.newSession();
    await h.sendAndSettle(sessionId, 'hi');
    await expect(h.call('chat:retry', { sessionId })).rejects.toThrow(/\[bad_request\] Nothing to retry/);
    await h.call('chat:send', { sessionId, content: 'write a.txt' });
    await h.waitForEvent('pending_write');
    await expect(h.call('chat:retry', { sessionId })).rejects.toThrow(/\[busy\]/);
    await expect(h.call('chat:retry', { sessionId: 999_999 })).rejects.toThrow(/\[not_found\]/);
    await expect(h.call('chat:retry', { sessionId, extra: 1 } as never)).rejects.toThrow(/\[bad_request\]/);
    expect(h.llm.requests).toHaveLength(2);
  });

  it('continue after a stop at an approval: the withdrawn call ends cancelled, the model reads that and goes on', async () => {
    h = await startHarness({
      turns: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'b.txt', content: 'B' } }] },
        { text: 'Understood, not written.' },
      ],
    });
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: 'write b.txt' });
    await h.waitForEvent('pending_write');
    await h.call('chat:stop', { sessionId });
    await h.waitForEvent('cancelled');
    await expect.poll(() => h.events.some((e) => e.type === 'turn_running' && !e.running)).toBe(true);
    const [card] = (await h.call('chat:history', { sessionId })).messages.at(-1)!.tools;
    expect(card).toMatchObject({ status: 'pending', pending: null });

    const events = await retryAndSettle(sessionId);
    expect(events.find((e) => e.type === 'tool_cancelled')).toMatchObject({ tool_call_id: card!.tool_call_id });
    expect(events.find((e) => e.type === 'done')).toMatchObject({ content: 'Understood, not written.' });
    // The model reads why its call did not run; the write never happened.
    const results = (h.llm.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] }).messages.filter(
      (m) => m.role === 'tool',
    );
    expect(results.map((m) => m.content)).toEqual([
      'Not run: the turn was stopped while this call waited for approval.',
    ]);
    expect(existsSync(join(h.workspace, 'b.txt'))).toBe(false);
  });

  it(`continue after the ${MAX_TOOL_ROUNDS}-round limit: the model reads the last results and answers`, async () => {
    const round = { toolCalls: [{ name: 'read_file', arguments: { path: 'n.txt' } }] };
    h = await startHarness({
      turns: [...Array.from({ length: MAX_TOOL_ROUNDS }, () => round), { text: 'Finally done.' }],
    });
    writeFileSync(join(h.workspace, 'n.txt'), 'the note\n');
    const sessionId = await h.newSession();
    const first = await h.sendAndSettle(sessionId, 'keep reading');
    expect(first.find((e) => e.type === 'error')).toMatchObject({
      message: expect.stringContaining('Continue lets the model go on'),
    });
    const reads = first.filter((e) => e.type === 'tool_done').length;
    expect(reads).toBe(MAX_TOOL_ROUNDS);

    const events = await retryAndSettle(sessionId);
    expect(events.find((e) => e.type === 'done')).toMatchObject({ content: 'Finally done.' });
    expect(events.some((e) => e.type === 'tool_start')).toBe(false);
    expect(JSON.stringify(h.llm.requests.at(-1)!.body)).toContain('the note');
    await expect(h.call('chat:retry', { sessionId })).rejects.toThrow(/Nothing to retry/);
  });
});
