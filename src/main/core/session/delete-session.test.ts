/**
 * Deleting a chat (docs/chat-ui.md "Sessions") on the real core: its rows go in one transaction, the approval audit
 * keeps its decisions, every window hears it, a running turn refuses it, and no later session ever gets its id (which
 * the audit and the session's bypass grants still name).
 */
import { afterEach, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const count = (sql: string, ...params: unknown[]) => (h!.core.db.prepare(sql).get(...params) as { n: number }).n;

it('a chat is deleted with its messages, calls, stacks and notes; the audit keeps its decisions; every window hears it', async () => {
  h = await startHarness({
    turns: [{ toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] }, { text: 'Listed.' }],
  });
  const keep = await h.newSession();
  const gone = await h.newSession();
  await h.sendAndSettle(gone, 'List the files');
  await h.call('chat:setScratchpadNote', { sessionId: gone, key: 'plan', value: 'step 1' });
  expect(count('SELECT count(*) AS n FROM chat_history WHERE session_id = ?', gone)).toBe(3);
  expect(count('SELECT count(*) AS n FROM chat_llm_tools WHERE session_id = ?', gone)).toBe(1);
  const decisions = count('SELECT count(*) AS n FROM tool_decisions WHERE session_id = ?', gone);
  expect(decisions).toBeGreaterThan(0);

  expect(await h.call('chat:deleteSession', { sessionId: gone })).toEqual({ deleted: true });
  expect(h.events.at(-1)).toEqual({ type: 'session_deleted', session_id: gone });
  for (const table of ['chat_history', 'chat_llm_tools', 'session_scratchpad', 'chat_sessions_stack']) {
    expect(count(`SELECT count(*) AS n FROM ${table} WHERE session_id = ?`, gone), table).toBe(0);
  }
  expect(count('SELECT count(*) AS n FROM tool_decisions WHERE session_id = ?', gone)).toBe(decisions);
  expect((await h.call('chat:listSessions', {})).sessions.map((s) => s.id)).toEqual([keep]);
  await expect(h.call('chat:history', { sessionId: gone })).rejects.toThrow(/\[not_found\]/);
  await expect(h.call('chat:deleteSession', { sessionId: gone })).rejects.toThrow(/\[not_found\]/);
  expect(h.core.db.pragma('foreign_key_check')).toEqual([]);
});

it('the newest chat deleted, the next one gets a new id, so the audit never shows its decisions under another chat', async () => {
  h = await startHarness({
    turns: [{ toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] }, { text: 'Listed.' }],
  });
  const first = await h.newSession();
  await h.sendAndSettle(first, 'List the files');
  await h.call('chat:deleteSession', { sessionId: first });
  const next = await h.newSession();
  expect(next).toBeGreaterThan(first);
  const log = await h.call('approval:listDecisions', {});
  const olds = log.decisions.filter((d) => d.session_id === first);
  expect(olds.length).toBeGreaterThan(0); // the deleted chat's decisions are still there…
  expect(olds.map((d) => d.session_title)).toEqual(olds.map(() => null)); // …under no chat's title
});

it('refuses while the chat’s turn runs, and a background run’s session', async () => {
  h = await startHarness({
    turns: [{ toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'x' } }] }],
  });
  const sessionId = await h.newSession();
  await h.call('chat:send', { sessionId, content: 'Write a.txt' });
  await h.waitForEvent('pending_write');
  await expect(h.call('chat:deleteSession', { sessionId })).rejects.toThrow(
    /\[busy\] A turn is running in this chat: stop it first/,
  );
  await h.call('chat:stop', { sessionId });
  await expect.poll(() => h!.events.some((e) => e.type === 'turn_running' && !e.running)).toBe(true);
  expect(await h.call('chat:deleteSession', { sessionId })).toEqual({ deleted: true });

  const background = h.core.sessions.store.createBackgroundSession({
    title: 'run',
    source: 'cron',
    agentId: 'main',
    runContext: null,
    model: null,
    parentSessionId: null,
  });
  await expect(h.call('chat:deleteSession', { sessionId: background })).rejects.toThrow(
    /\[bad_request\] Only a chat can be deleted/,
  );
});
