/**
 * The chat view's state for the open session (view state only; the truth is in the core's database). Events are
 * applied as they arrive; text deltas are buffered and flushed once per animation frame so a fast stream
 * (thousands of tokens a second) never re-renders per token.
 */
import { createStore } from 'zustand/vanilla';
import type { ChatEvent, HistoryMessage } from '../../../shared/contract/chat';
import { skald } from '../bridge/skald';
import { initial, lastId, nextNoticeId, reduceChat, type ChatState } from './chat-reducer';

export { reduceChat, type ChatState, type Notice } from './chat-reducer';

type PrimedPage = Awaited<ReturnType<typeof skald.chat.history>> & { sessionId: number };

/** Messages a page while loading up to a message to reveal: a few large pages rather than many of a scroll's 100. */
const REVEAL_PAGE = 2_000;

/**
 * A page read from the core, with the messages the session's events brought while it was being read kept after it
 * (newer than its last message): a new session's page is asked for as the session opens, and the person's first
 * message can arrive as an event before that empty page does.
 */
export function withArrived(page: HistoryMessage[], current: readonly HistoryMessage[]): HistoryMessage[] {
  const last = page.at(-1)?.id ?? 0;
  const arrived = current.filter((m) => m.id > last);
  return arrived.length ? [...page, ...arrived] : page;
}

export function createChatStore() {
  const store = createStore<ChatState>(() => initial);
  let buffered: ChatEvent[] = [];
  let scheduled = false;
  let loadingOlder = false;
  let primed: PrimedPage | null = null;
  /** A message to reveal in a session about to open (`reveal`); taken by `open` once its page is in. */
  let revealAfterOpen: { sessionId: number; messageId: number } | null = null;
  let revealNonce = 0;

  /**
   * Loads older pages until `messageId` is among the loaded messages (large pages: the rows between are loaded as a
   * scroll up would), then asks the list to bring it into view. A message of another session, or gone, is not found:
   * the chat stays at its newest message.
   */
  const revealLoaded = async (sessionId: number, messageId: number) => {
    // One loader of older pages at a time (a scroll's `loadOlder` would prepend the same page again).
    while (loadingOlder) await new Promise((resolve) => setTimeout(resolve, 20));
    loadingOlder = true;
    try {
      for (;;) {
        const { messages, hasMore } = store.getState();
        if (store.getState().sessionId !== sessionId) return;
        if (messages.some((m) => m.id === messageId)) break;
        if (!hasMore || (messages[0] && messages[0].id < messageId)) return;
        const page = await skald.chat.history({
          sessionId,
          beforeId: messages[0]?.id ?? Number.MAX_SAFE_INTEGER,
          limit: REVEAL_PAGE,
        });
        if (store.getState().sessionId !== sessionId) return;
        store.setState((s) => ({ messages: page.messages.concat(s.messages), hasMore: page.hasMore }));
      }
    } finally {
      loadingOlder = false;
    }
    store.setState({ reveal: { messageId, nonce: ++revealNonce } });
  };

  const flush = () => {
    scheduled = false;
    const events = buffered;
    buffered = [];
    store.setState((s) => events.reduce(reduceChat, s));
  };

  return {
    store,
    /** Deltas are batched per frame; every other event flushes what is buffered first, keeping order. */
    apply(event: ChatEvent) {
      buffered.push(event);
      if (event.type === 'text_delta' || event.type === 'reasoning_delta') {
        if (!scheduled) {
          scheduled = true;
          requestAnimationFrame(flush);
        }
        return;
      }
      flush();
    },
    /** A page the first screen's answer carried (sessions-store `openFirstScreen`): the next `open` of it uses it. */
    prime(page: PrimedPage) {
      primed = page;
    },
    async open(sessionId: number) {
      store.setState({ ...initial, sessionId });
      const ready = primed?.sessionId === sessionId ? primed : null;
      primed = null;
      try {
        const page = ready ?? (await skald.chat.history({ sessionId }));
        if (store.getState().sessionId === sessionId)
          store.setState((s) => ({
            messages: withArrived(page.messages, s.messages),
            hasMore: page.hasMore,
            running: page.running,
            loaded: true,
          }));
        const wanted = revealAfterOpen?.sessionId === sessionId ? revealAfterOpen.messageId : null;
        revealAfterOpen = null;
        if (wanted !== null) await revealLoaded(sessionId, wanted);
      } catch (error) {
        // The list still opens (empty), so what the session's events bring shows.
        if (store.getState().sessionId === sessionId) store.setState({ loaded: true });
        throw error;
      }
    },
    /**
     * Brings a message of a session into view (a search hit): now if that session is open and loaded, else once
     * `open` has its first page (the caller selects the session).
     */
    reveal(sessionId: number, messageId: number) {
      const s = store.getState();
      if (s.sessionId === sessionId && s.loaded) return void revealLoaded(sessionId, messageId);
      revealAfterOpen = { sessionId, messageId };
    },
    /** Re-reads the open session's newest page (after a reconnect: events were missed); keeps notices. */
    async reload() {
      const { sessionId } = store.getState();
      if (sessionId === null) return;
      const page = await skald.chat.history({ sessionId });
      if (store.getState().sessionId === sessionId)
        store.setState((s) => ({
          messages: withArrived(page.messages, s.messages),
          hasMore: page.hasMore,
          running: page.running,
        }));
    },
    /** Loads the page before the oldest message shown; returns how many rows were added at the top. */
    async loadOlder(): Promise<number> {
      const { sessionId, messages, hasMore } = store.getState();
      if (sessionId === null || !hasMore || loadingOlder) return 0;
      loadingOlder = true;
      try {
        const page = await skald.chat.history({
          sessionId,
          beforeId: messages[0]?.id ?? Number.MAX_SAFE_INTEGER,
          limit: 100,
        });
        if (store.getState().sessionId !== sessionId) return 0;
        // concat, not a spread: one copy of the loaded array (tens of thousands of messages), not an iteration.
        store.setState((s) => ({ messages: page.messages.concat(s.messages), hasMore: page.hasMore }));
        return page.messages.length;
      } finally {
        loadingOlder = false;
      }
    },
    /** `images`: base64 of each image's bytes (components/Composer.tsx; docs/chat-ui.md "Images in a message"). */
    async send(content: string, images: { name: string; data: string }[] = []) {
      const { sessionId } = store.getState();
      if (sessionId === null) return;
      // Only slash commands get an optimistic bubble (the core answers them itself, docs/architecture.md "Slash
      // commands"); messages wait for the echo.
      if (content.trim().startsWith('/'))
        store.setState((s) => ({
          notices: [
            ...s.notices,
            { id: nextNoticeId(), kind: 'info', text: content.trim(), afterMessageId: lastId(s) },
          ],
        }));
      await skald.chat.send({ sessionId, content, ...(images.length ? { images } : {}) });
    },
    /** Retry / Continue (docs/chat-ui.md "Retry and Continue"): the core checks again that the chat waits. */
    async retry() {
      const { sessionId } = store.getState();
      if (sessionId !== null) await skald.chat.retry({ sessionId });
    },
    async stop() {
      const { sessionId } = store.getState();
      if (sessionId !== null) await skald.chat.stop({ sessionId });
    },
    reset() {
      store.setState(initial);
    },
  };
}

export type ChatStore = ReturnType<typeof createChatStore>;
export const chat = createChatStore();
