/**
 * The chat store opening a new session against a real core: the session's first page is asked for as it opens, and
 * the person's first message can arrive as an event before that (empty) page does. The page must not wipe it out (an
 * e2e run once showed the assistant's reply under no message of the person's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSkaldApi } from '../../src/shared/contract/api';
import { dispatchCall } from '../../src/main/core/bridge/dispatch';
import { startHarness, type Harness } from '../helpers/core-harness';
import { cleanupTempDirs } from '../helpers/temp';

let h: Harness;
/** While set, `chat:history` answers only once it resolves. */
let historyGate: Promise<void> | null = null;
let off: (() => void) | undefined;

const g = globalThis as unknown as {
  window: { skaldBridge: unknown; location: unknown };
  requestAnimationFrame: (cb: () => void) => unknown;
};
g.requestAnimationFrame = (cb) => setTimeout(cb, 1);
g.window = {
  location: { search: '' },
  skaldBridge: buildSkaldApi({
    invoke: async (channel, request) => {
      const outcome = structuredClone(await dispatchCall(h.core.handlers, channel, request));
      if (channel === 'chat:history' && historyGate) await historyGate; // read now, delivered late
      return outcome;
    },
    subscribe: (family, listener) => h.core.events.subscribe(family as 'chat', listener as never),
  }),
};
const { chat } = await import('../../src/renderer/src/stores/chat-store');

beforeAll(async () => {
  h = await startHarness({ turns: [{ text: 'Hello there.' }] });
  off = h.core.events.subscribe('chat', (e) => chat.apply(e));
});
afterAll(async () => {
  off?.();
  await h.close();
  cleanupTempDirs();
});

describe('chat store: a new session opening', () => {
  it("keeps the person's first message when the session's page arrives after it", async () => {
    const sessionId = await h.newSession();
    let release!: () => void;
    historyGate = new Promise<void>((r) => (release = r));
    const opened = chat.open(sessionId);
    await h.sendAndSettle(sessionId, 'Say hello');
    await new Promise((r) => setTimeout(r, 20)); // the events are applied
    expect(chat.store.getState().messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    release();
    historyGate = null;
    await opened;
    const messages = chat.store.getState().messages;
    expect(messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Say hello'],
      ['assistant', 'Hello there.'],
    ]);
    expect(new Set(messages.map((m) => m.id)).size).toBe(2);
  });
});
