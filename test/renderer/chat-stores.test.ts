/**
 * The renderer's stores without React, against a real core (real SQLite, real tools and gate, the scripted LLM
 * over HTTP): `window.skaldBridge` is shaped as the desktop preload's, over the core's own dispatch and event bus, and
 * the stores reach it through the renderer's real boundary. Covers the chat store following rows live (a re-run after a
 * restart), the approvals store shared by card and Inbox (scoped bypass, revoke, answers), and new sessions
 * taking the last working directory.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSkaldApi } from '../../src/shared/contract/api';
import type { InboxApproval } from '../../src/shared/contract/inbox';
import { dispatchCall } from '../../src/main/core/bridge/dispatch';
import { SessionStore } from '../../src/main/core/session/session-store';
import { startHarness, type Harness } from '../helpers/core-harness';
import { cleanupTempDirs } from '../helpers/temp';

let h: Harness;
/** Every call the stores made, in order. */
const calls: string[] = [];
const unsubscribers: (() => void)[] = [];

// The stores bind `window.skaldBridge` when first imported: point it at whichever core runs now.
const g = globalThis as unknown as {
  window: { skaldBridge: unknown; location: unknown };
  requestAnimationFrame: (cb: () => void) => unknown;
};
g.requestAnimationFrame = (cb) => setTimeout(cb, 1);
g.window = {
  location: { search: '' },
  // Shaped as the desktop preload's object: each call answers the dispatcher's outcome as data.
  skaldBridge: buildSkaldApi({
    invoke: async (channel, request) => (
      calls.push(channel), structuredClone(await dispatchCall(h.core.handlers, channel, request))
    ),
    subscribe: (family, listener) => h.core.events.subscribe(family as 'chat', listener as never),
  }),
};
const { chat } = await import('../../src/renderer/src/stores/chat-store');
const { approvals, approvalFor, liveBypasses } = await import('../../src/renderer/src/stores/approvals');
const { reportConnected, reportDisconnected } = await import('../../src/renderer/src/bridge/connection');
const { createSession, openFirstScreen, refreshSessions, requestFirstScreen, selectSession, sessionsStore } =
  await import('../../src/renderer/src/stores/sessions-store');

function follow(): void {
  unsubscribers.push(h.core.events.subscribe('chat', (e) => chat.apply(e)));
}

beforeAll(async () => {
  h = await startHarness();
  follow();
});
afterAll(async () => {
  for (const off of unsubscribers) off();
  await h.close();
  cleanupTempDirs();
});

const cards = () => chat.store.getState().messages.flatMap((m) => m.tools);

describe('approvals store: one source for the card and the Inbox', () => {
  it('offers the narrowest scope, grants it, shows it live, and revokes it', async () => {
    mkdirSync(join(h.workspace, 'notes'), { recursive: true });
    h.llm.script([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'notes/a.md', content: 'a' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'notes/b.md', content: 'b' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'c.md', content: 'c' } }] },
      { text: 'done' },
    ]);
    const sessionId = await h.newSession();
    await chat.open(sessionId);
    const stop = approvals.watch();
    try {
      await h.call('chat:send', { sessionId, content: 'write three notes' });
      await expect.poll(() => approvals.store.getState().approvals.length, { timeout: 20_000 }).toBe(1);
      const first = approvals.store.getState().approvals[0]!;
      const card = cards().find((c) => c.tool_call_id === first.tool_call_id)!;
      expect(card.status).toBe('pending');
      expect(approvalFor(approvals.store.getState(), card.tool_call_id)).toBe(first);
      expect(first.bypass_options.map((o) => o.label)).toEqual([
        '`write_file` under `notes/`',
        '`write_file`, any arguments',
        'every filesystem tool',
        'every tool',
      ]);

      await approvals.resolve(first, {
        action: 'approve',
        note: '',
        bypass: { secs: 900, scope: first.bypass_options[0]!.scope.kind },
      });
      const [grant] = liveBypasses(approvals.store.getState(), Date.now(), sessionId);
      expect(grant).toMatchObject({ label: '`write_file` under `notes/`', tool_call_id: first.tool_call_id });
      expect(grant!.expires_at! - Date.now()).toBeGreaterThan(890_000);

      // The second write is under notes/: the bypass allows it. The third is not: it asks.
      await expect.poll(() => approvals.store.getState().approvals.length, { timeout: 20_000 }).toBe(1);
      const third = approvals.store.getState().approvals[0]!;
      expect(JSON.parse(third.arguments).path).toBe(join(h.workspace, 'c.md'));
      const second = cards().find((c) => c.label_full.includes('notes/b.md'))!;
      expect(second).toMatchObject({ status: 'done', decision: { action: 'allow', why: { kind: 'bypass' } } });

      await approvals.revoke(grant!);
      expect(liveBypasses(approvals.store.getState(), Date.now(), sessionId)).toEqual([]);
      await approvals.resolve(third, { action: 'reject', note: 'not there' });
      await expect.poll(() => chat.store.getState().running, { timeout: 20_000 }).toBe(false);
      expect(cards().find((c) => c.tool_call_id === third.tool_call_id)).toMatchObject({
        status: 'rejected',
        pending: null,
      });
    } finally {
      stop();
    }
  });

  it('answers a question the same way from the chat or the Inbox', async () => {
    h.llm.script([
      {
        toolCalls: [
          {
            name: 'ask_user_clarification',
            arguments: { title: 'Format?', question: 'Which?', suggested_answers: ['md', 'txt'] },
          },
        ],
      },
      { text: 'md it is' },
    ]);
    const sessionId = await h.newSession();
    await chat.open(sessionId);
    const stop = approvals.watch();
    try {
      await h.call('chat:send', { sessionId, content: 'ask me' });
      await expect.poll(() => approvals.store.getState().clarifications.length, { timeout: 20_000 }).toBe(1);
      const q = approvals.store.getState().clarifications[0]!;
      expect(q).toMatchObject({ title: 'Format?', suggested_answers: ['md', 'txt'], session_id: sessionId });
      await approvals.answer(q.request_id, 'md');
      await expect.poll(() => chat.store.getState().messages.at(-1)?.content, { timeout: 20_000 }).toBe('md it is');
      expect(approvals.store.getState().clarifications).toEqual([]);
    } finally {
      stop();
    }
  });

  it('a refused decision leaves the item and says why', async () => {
    h.llm.script([{ toolCalls: [{ name: 'execute_cmd', arguments: { command: 'echo hi' } }] }, { text: 'ok' }]);
    const sessionId = await h.newSession();
    await chat.open(sessionId);
    await h.call('chat:send', { sessionId, content: 'run' });
    await expect
      .poll(async () => (await approvals.refresh(), approvals.store.getState().approvals.length), { timeout: 20_000 })
      .toBe(1);
    const item = approvals.store.getState().approvals[0]!;
    expect(item.bypass_options[0]!.label).toBe('`echo *` commands');
    await expect(
      approvals.resolve({ ...item, args_hash: '0'.repeat(64) }, { action: 'approve', note: '' }),
    ).rejects.toMatchObject({ code: 'args_mismatch' });
    await expect(
      approvals.resolve(item, { action: 'approve', note: '', bypass: { secs: 60, scope: 'tool_path' } }),
    ).rejects.toThrow(/not offered/);
    expect(approvals.store.getState().approvals).toHaveLength(1);
    await approvals.resolve(item, { action: 'approve', note: '' });
    await expect.poll(() => chat.store.getState().running, { timeout: 20_000 }).toBe(false);
    expect(cards().find((c) => c.tool_call_id === item.tool_call_id)).toMatchObject({ status: 'done' });
  });

  it('a list read before the link dropped is read again when it comes back (its events were missed)', async () => {
    const stop = approvals.watch();
    try {
      await expect.poll(() => approvals.store.getState().loaded, { timeout: 20_000 }).toBe(true);
      // What the store held when the server went away: a request the core has decided since (its event was lost).
      const stale = { request_id: 999_999, tool_call_id: 'call-decided-while-away' };
      approvals.store.setState({ approvals: [stale as InboxApproval] });
      reportDisconnected();
      reportConnected();
      // Well before the 10 s timer's refresh: the reconnect itself reads the list again.
      await expect
        .poll(() => approvalFor(approvals.store.getState(), stale.tool_call_id), { timeout: 5_000 })
        .toBe(null);
    } finally {
      stop();
    }
  });
});

describe('chat store follows the rows live', () => {
  it('after a restart an interrupted call re-runs and its card updates without a reload', async () => {
    h.llm.script([
      { toolCalls: [{ name: 'execute_cmd', arguments: { command: 'echo rerun-me' } }] },
      { text: 'first' },
    ]);
    const sessionId = await h.newSession();
    await chat.open(sessionId);
    await h.call('chat:send', { sessionId, content: 'run it' });
    await expect
      .poll(async () => (await approvals.refresh(), approvals.store.getState().approvals.length), { timeout: 20_000 })
      .toBe(1);
    const item = approvals.store.getState().approvals[0]!;
    await approvals.resolve(item, { action: 'approve', note: '' });
    await expect.poll(() => chat.store.getState().running, { timeout: 20_000 }).toBe(false);

    // What a crash leaves behind: the row still `running`. A new core on the same data folder.
    h.core.db
      .prepare(`UPDATE chat_llm_tools SET status = 'running', result = NULL WHERE tool_call_id = ?`)
      .run(item.tool_call_id);
    for (const off of unsubscribers.splice(0)) off();
    const dataDir = h.dataDir;
    await h.close();
    h = await startHarness({ dataDir, turns: [{ text: 'second' }] });
    follow();
    const card = () => cards().find((c) => c.tool_call_id === item.tool_call_id)!;
    // The resume pass decides at start whether the call waits for the person; once it has, history says so.
    await expect.poll(async () => (await chat.open(sessionId), card().interrupted), { timeout: 20_000 }).toBe(true);
    expect(card().status).toBe('running');

    await h.call('chat:rerunTool', { sessionId, toolCallId: item.tool_call_id });
    await expect
      .poll(async () => (await approvals.refresh(), approvals.store.getState().approvals.length), { timeout: 20_000 })
      .toBe(1);
    expect(card()).toMatchObject({ status: 'pending', interrupted: false });
    await approvals.resolve(approvals.store.getState().approvals[0]!, { action: 'approve', note: '' });
    await expect.poll(() => card().status, { timeout: 20_000 }).toBe('done');
    expect(card().interrupted).toBe(false);
    expect(card().result).toContain('rerun-me');
  });
});

describe('sessions store', () => {
  it('a new session takes the working directory of the session the person was in', async () => {
    const sub = join(h.workspace, 'project');
    mkdirSync(sub, { recursive: true });
    const a = await h.newSession();
    await h.call('chat:setWorkingDirectory', { sessionId: a, path: sub });
    await refreshSessions();
    selectSession(a);
    const b = await createSession();
    const created = sessionsStore.getState().sessions.find((s) => s.id === b)!;
    expect(created.working_directory).toBe(sub);
    expect(sessionsStore.getState().activeId).toBe(b);
  });
});

describe("the window's first screen", () => {
  it("gets the session list and the newest session's page in one call, and opens that session with it", async () => {
    // Written through the session store (no turn runs), so both pages are whole when the first screen asks.
    const store = new SessionStore(h.core.db);
    const older = store.createSession('older');
    store.appendMessage({ sessionId: older, role: 'user', content: 'first question' });
    store.appendMessage({ sessionId: older, role: 'assistant', content: 'older answer' });
    const newest = store.createSession('newest');
    store.appendMessage({ sessionId: newest, role: 'user', content: 'second question' });
    store.appendMessage({ sessionId: newest, role: 'assistant', content: 'newest answer' });
    // The session listed first (the most recently updated) is the one the first screen opens.
    const { sessions } = (await h.call('chat:listSessions', {})) as { sessions: { id: number }[] };
    const first = sessions[0]!.id;
    const other = first === newest ? older : newest;
    const contents = (id: number) =>
      id === newest ? ['second question', 'newest answer'] : ['first question', 'older answer'];
    calls.length = 0;
    await openFirstScreen();
    expect(calls).toEqual(['chat:listSessions']);
    expect(sessionsStore.getState().activeId).toBe(first);
    // What ChatView does when it shows the session: no second round trip, the page it was given.
    await chat.open(first);
    expect(calls).toEqual(['chat:listSessions']);
    expect(chat.store.getState().messages.map((m) => m.content)).toEqual(contents(first));
    // Used once: opening it again (or another session) reads the history as before.
    await chat.open(first);
    await chat.open(other);
    expect(calls).toEqual(['chat:listSessions', 'chat:history', 'chat:history']);
    expect(chat.store.getState().messages.map((m) => m.content)).toEqual(contents(other));
  });

  it("the list opens once the session's page is in the store (loaded); a history that fails still opens it, empty", async () => {
    const store = new SessionStore(h.core.db);
    const id = store.createSession('loaded');
    store.appendMessage({ sessionId: id, role: 'user', content: 'a question' });
    store.appendMessage({ sessionId: id, role: 'assistant', content: 'an answer' });
    const opening = chat.open(id);
    // ChatView shows the list only when this says so: never the previous session's rows, nor this one's before its page.
    expect(chat.store.getState()).toMatchObject({ sessionId: id, loaded: false, messages: [] });
    await opening;
    expect(chat.store.getState().loaded).toBe(true);
    expect(chat.store.getState().messages.map((m) => m.content)).toEqual(['a question', 'an answer']);
    await expect(chat.open(-1)).rejects.toThrow();
    expect(chat.store.getState()).toMatchObject({ sessionId: -1, loaded: true, messages: [] });
  });

  it('asked for before React renders (the page entry), the answer is the one openFirstScreen uses', async () => {
    calls.length = 0;
    requestFirstScreen();
    requestFirstScreen(); // once
    expect(calls).toEqual(['chat:listSessions']);
    await openFirstScreen();
    expect(calls).toEqual(['chat:listSessions']);
    // Used once: a later first screen (a reload of the store) asks again.
    await openFirstScreen();
    expect(calls).toEqual(['chat:listSessions', 'chat:listSessions']);
  });

  it('a session whose turn runs when the answer is made is read again when it opens (events before the window listened)', async () => {
    h.llm.script([{ text: 'never finished', hangUntilAborted: true }]);
    const running = await h.newSession();
    await h.call('chat:send', { sessionId: running, content: 'a long job' });
    await h.waitForEvent('turn_running', (e: { running: boolean }) => e.running);
    calls.length = 0;
    await openFirstScreen();
    expect(sessionsStore.getState().activeId).toBe(running);
    await chat.open(running);
    expect(calls).toEqual(['chat:listSessions', 'chat:history']);
    await h.call('chat:stop', { sessionId: running });
  });
});
