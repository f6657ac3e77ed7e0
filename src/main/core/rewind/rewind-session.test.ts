/**
 * Rewind through the real session (scripted LLM over HTTP, real gate, real SQLite, the bridge's parsed boundary):
 * the second message's turn edits a file, creates one and has a sub-agent edit a third; the rewind to that message
 * restores all three, forks the chat (the later rows stay, replaced), and the model's next request carries the note
 * and no longer the rewound exchange.
 */
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const allowWrites = async (harness: Harness) => {
  for (const tool_pattern of ['write_file', 'edit_file'])
    await harness.call('approval:createRule', { tool_pattern, action: 'allow', priority: 1, note: 'rewind test' });
};

describe('rewind through the session', () => {
  it("restores the turn's edit, creation and a sub-agent's edit; the chat forks; the model is told", async () => {
    h = await startHarness({
      turns: [
        { match: 'FIRST', text: 'Hello.' },
        {
          match: 'SECOND',
          toolCalls: [
            { name: 'edit_file', arguments: { path: 'a.txt', old_string: 'one', new_string: 'ONE' } },
            { name: 'write_file', arguments: { path: 'new.txt', content: 'created\n' } },
            {
              id: 'eng',
              name: 'execute_task',
              arguments: { mode: 'sync', agent_id: 'software-engineer', prompt: 'SUB edit b', title: 'edit b' },
            },
          ],
        },
        {
          match: 'SUB edit b',
          toolCalls: [{ name: 'write_file', arguments: { path: 'b.txt', content: 'by the sub-agent\n' } }],
        },
        { match: 'SUB edit b', text: 'wrote b.txt' },
        { match: 'SECOND', text: 'Done.' },
        { match: 'THIRD', text: 'Understood.' },
      ],
    });
    await allowWrites(h);
    writeFileSync(join(h.workspace, 'a.txt'), 'one\n');
    writeFileSync(join(h.workspace, 'b.txt'), 'bee\n');
    const sessionId = await h.newSession();
    await h.sendAndSettle(sessionId, 'FIRST');
    await h.sendAndSettle(sessionId, 'SECOND please change things');
    expect(readFileSync(join(h.workspace, 'b.txt'), 'utf8')).toBe('by the sub-agent\n');
    const second = (await h.call('chat:history', { sessionId })).messages.find(
      (m) => m.role === 'user' && m.content.startsWith('SECOND'),
    )!;

    const preview = await h.call('rewind:preview', { sessionId, messageId: second.id });
    expect(preview.files.map((f) => [f.shown, f.change, f.state, f.bySubAgent])).toEqual([
      ['a.txt', 'edited', 'restore', false],
      ['b.txt', 'edited', 'restore', true],
      ['new.txt', 'created', 'restore', false],
    ]);
    const result = await h.call('rewind:apply', {
      sessionId,
      messageId: second.id,
      mode: 'files_and_chat',
      seen: preview.files.map((f) => ({ path: f.path, hash: f.currentHash })),
    });
    expect(result).toMatchObject({ status: 'done', composer: 'SECOND please change things' });
    expect(readFileSync(join(h.workspace, 'a.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(h.workspace, 'b.txt'), 'utf8')).toBe('bee\n');
    expect(existsSync(join(h.workspace, 'new.txt'))).toBe(false);
    await h.waitForEvent('messages_replaced', (e) => e.from_id === second.id);

    // The later rows stay reachable, marked replaced; the note follows them.
    const history = (await h.call('chat:history', { sessionId })).messages;
    expect(history.filter((m) => m.id >= second.id && m.role !== 'agent').every((m) => m.replaced)).toBe(true);
    expect(history.at(-1)).toMatchObject({ role: 'agent' });

    await h.sendAndSettle(sessionId, 'THIRD');
    const last = h.llm.requests.at(-1)!;
    const sent = (last.body.messages as { role: string; content: string }[]).slice(1);
    // The rewound exchange is gone from the request; the note leads the person's next message.
    expect(sent.map((m) => [m.role, m.content.slice(0, 8)])).toEqual([
      ['user', 'FIRST'],
      ['assistant', 'Hello.'],
      ['user', '[Rewind]'],
    ]);
    expect(sent[2]!.content).toContain('restored to the state before that message: a.txt, b.txt, new.txt');
    expect(sent[2]!.content.endsWith('THIRD')).toBe(true);
  });
});
