/**
 * Regenerate and Edit (`chat:regenerate`, `chat:editMessage`; docs/chat-ui.md "Regenerate and Edit") against a real
 * core: real SQLite, the scripted LLM over HTTP, the real gate. The replaced rows stay in the history, marked, and no
 * request replays them; an exchange whose calls may have changed something is never replaced.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { makePng } from '../../../../test/helpers/png';
import { cleanupTempDirs } from '../../../../test/helpers/temp';

let h: Harness;
afterEach(async () => {
  await h?.close();
  cleanupTempDirs();
});

type Body = { messages: { role: string; content: unknown }[] };
const asked = (i: number) =>
  JSON.stringify((h.llm.requests[i]!.body as Body).messages.filter((m) => m.role !== 'system'));
const history = async (sessionId: number) => (await h.call('chat:history', { sessionId })).messages;

async function settle(call: () => Promise<unknown>) {
  const from = h.events.length;
  await call();
  await expect
    .poll(() => h.events.slice(from).some((e) => e.type === 'turn_running' && !e.running), { timeout: 20_000 })
    .toBe(true);
  return h.events.slice(from);
}

describe('chat:regenerate', () => {
  it('the answer is kept, marked replaced, and asked for again without it', async () => {
    h = await startHarness({ turns: [{ text: 'First try: forty.' }, { text: 'Second try: forty-two.' }] });
    const sessionId = await h.newSession();
    await h.sendAndSettle(sessionId, 'What is six times seven?');
    const events = await settle(() => h.call('chat:regenerate', { sessionId }));
    const first = (await history(sessionId)).find((m) => m.content === 'First try: forty.')!;
    expect(events.find((e) => e.type === 'messages_replaced')).toMatchObject({ from_id: first.id });
    expect(events.find((e) => e.type === 'done')).toMatchObject({ content: 'Second try: forty-two.' });
    expect((await history(sessionId)).map((m) => [m.role, m.content, m.replaced ?? false])).toEqual([
      ['user', 'What is six times seven?', false],
      ['assistant', 'First try: forty.', true],
      ['assistant', 'Second try: forty-two.', false],
    ]);
    expect(asked(1)).toContain('What is six times seven?');
    expect(asked(1)).not.toContain('First try');
  });

  it('an answer that only read is replaced; one that wrote is not, and nothing is marked', async () => {
    h = await startHarness({
      turns: [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'n.txt' } }] },
        { text: 'It says hi.' },
        { text: 'It says hi, again.' },
        { toolCalls: [{ name: 'write_file', arguments: { path: 'w.txt', content: 'W' } }] },
        { text: 'Written.' },
      ],
    });
    writeFileSync(join(h.workspace, 'n.txt'), 'hi\n');
    const sessionId = await h.newSession();
    await h.sendAndSettle(sessionId, 'read n.txt');
    const again = await settle(() => h.call('chat:regenerate', { sessionId }));
    expect(again.find((e) => e.type === 'done')).toMatchObject({ content: 'It says hi, again.' });
    expect(asked(2)).not.toContain('read_file'); // the replaced round's call is not replayed either

    await h.call('chat:send', { sessionId, content: 'write w.txt' });
    const pending = await h.waitForEvent('pending_write');
    await h.call('inbox:resolveApproval', {
      requestId: pending.request_id,
      action: 'approve',
      note: '',
      argsHash: pending.args_hash,
    });
    await h.waitForEvent('done', (e) => e.content === 'Written.');
    await expect.poll(() => h.events.filter((e) => e.type === 'turn_running' && !e.running).length).toBe(3);
    expect(existsSync(join(h.workspace, 'w.txt'))).toBe(true);
    await expect(h.call('chat:regenerate', { sessionId })).rejects.toThrow(
      /\[bad_request\] The answer ran write_file, which may have changed something/,
    );
    await expect(
      h.call('chat:editMessage', {
        sessionId,
        messageId: (await history(sessionId)).find((m) => m.content === 'write w.txt')!.id,
        content: 'write v.txt',
      }),
    ).rejects.toThrow(/write_file/);
    // Only the first answer's two rows (its round of the read, its text), replaced by the regenerate before.
    expect((await history(sessionId)).filter((m) => m.replaced).map((m) => m.content)).toEqual(['', 'It says hi.']);
  });

  it('refused while a turn runs, with no answer yet (Retry is for that), and in an empty chat', async () => {
    h = await startHarness({
      turns: [
        { status: 401, errorMessage: 'bad key' },
        { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'A' } }] },
      ],
    });
    const sessionId = await h.newSession();
    await expect(h.call('chat:regenerate', { sessionId })).rejects.toThrow(/no message of yours/);
    await h.sendAndSettle(sessionId, 'hello');
    await expect(h.call('chat:regenerate', { sessionId })).rejects.toThrow(/use Retry/);
    await h.call('chat:send', { sessionId, content: 'write a.txt' });
    await h.waitForEvent('pending_write');
    await expect(h.call('chat:regenerate', { sessionId })).rejects.toThrow(/\[busy\]/);
  });
});

describe('chat:editMessage', () => {
  it("the newest message and its answer are replaced; the new words go in their place, with the message's images", async () => {
    h = await startHarness({
      turns: [{ text: 'Paris has about two million people.' }, { text: 'Lyon has about half a million.' }],
    });
    const sessionId = await h.newSession();
    const image = makePng(3, 2);
    await settle(() =>
      h.call('chat:send', {
        sessionId,
        content: 'How many people live in Paris?',
        images: [{ name: 'map.png', data: image.toString('base64') }],
      }),
    );
    const question = (await history(sessionId))[0]!;
    const events = await settle(() =>
      h.call('chat:editMessage', { sessionId, messageId: question.id, content: 'How many people live in Lyon?' }),
    );
    expect(events.find((e) => e.type === 'messages_replaced')).toMatchObject({ from_id: question.id });
    expect(events.find((e) => e.type === 'user_message')).toMatchObject({
      content: 'How many people live in Lyon?',
      images: [{ name: 'map.png' }],
    });
    const rows = await history(sessionId);
    expect(rows.map((m) => [m.role, m.content, m.replaced ?? false])).toEqual([
      ['user', 'How many people live in Paris?', true],
      ['assistant', 'Paris has about two million people.', true],
      ['user', 'How many people live in Lyon?', false],
      ['assistant', 'Lyon has about half a million.', false],
    ]);
    expect(rows[2]!.images).toMatchObject([{ name: 'map.png', size: image.length }]);
    expect(asked(1)).toContain('Lyon');
    expect(asked(1)).not.toContain('Paris');
    expect(asked(1)).toContain(image.toString('base64'));
  });

  it('only the newest message, never a command, never while a turn runs', async () => {
    h = await startHarness({
      turns: [
        { text: 'one' },
        { text: 'two' },
        { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'A' } }] },
      ],
    });
    const sessionId = await h.newSession();
    await h.sendAndSettle(sessionId, 'first');
    await h.sendAndSettle(sessionId, 'second');
    const [first, , second] = await history(sessionId);
    await expect(h.call('chat:editMessage', { sessionId, messageId: first!.id, content: 'changed' })).rejects.toThrow(
      /Only your newest message can be edited/,
    );
    await expect(h.call('chat:editMessage', { sessionId, messageId: second!.id, content: '/help' })).rejects.toThrow(
      /A command is not a message/,
    );
    await h.call('chat:send', { sessionId, content: 'write a.txt' });
    await h.waitForEvent('pending_write');
    await expect(h.call('chat:editMessage', { sessionId, messageId: second!.id, content: 'x' })).rejects.toThrow(
      /\[busy\]/,
    );
    expect((await history(sessionId)).some((m) => m.replaced)).toBe(false);
  });

  it('a regenerate that fails leaves the question standing: Retry is offered and answers it', async () => {
    h = await startHarness({
      turns: [{ text: 'An answer.' }, { status: 401, errorMessage: 'bad key' }, { text: 'Another answer.' }],
    });
    const sessionId = await h.newSession();
    await h.sendAndSettle(sessionId, 'question');
    await settle(() => h.call('chat:regenerate', { sessionId }));
    const events = await settle(() => h.call('chat:retry', { sessionId }));
    expect(events.find((e) => e.type === 'done')).toMatchObject({ content: 'Another answer.' });
    expect(asked(2)).not.toContain('An answer.');
  });
});
