/**
 * What crosses from the core to a window (the web shape's WebSocket, the desktop's IPC): every event, in order, with
 * one difference. Consecutive `text_delta` (or `reasoning_delta`) events of the same session, stack and round that
 * arrive within one turn of the event loop are joined into one delta, sent at the end of that turn or as soon as any
 * other event has to pass (docs/chat-ui.md "Streaming Markdown"). The text is the same; a window parses and applies a
 * frame per batch instead of per token (a provider can stream 2,000 tokens a second, often several in one network
 * read). Nothing waits on a timer: a lone delta leaves at the end of the turn it arrived in. The core's own bus is
 * untouched; only what goes to a window is joined.
 */
import type { ChatEvent } from '../../shared/contract/chat';
import type { EventFamily, EventPayload } from '../../shared/contract/index';

type Delta = Extract<ChatEvent, { type: 'text_delta' | 'reasoning_delta' }>;

const isDelta = (event: ChatEvent): event is Delta => event.type === 'text_delta' || event.type === 'reasoning_delta';
const sameStream = (a: Delta, b: Delta) =>
  a.type === b.type && a.session_id === b.session_id && a.stack_id === b.stack_id && a.round === b.round;

/**
 * Wraps `send` (one window transport's sender for `family`) so that chat deltas are joined as described above;
 * every other family passes straight through. `schedule` runs the end-of-turn flush (setImmediate by default).
 */
export function windowListener<F extends EventFamily>(
  family: F,
  send: (payload: EventPayload<F>) => void,
  schedule: (flush: () => void) => void = setImmediate,
): (payload: EventPayload<F>) => void {
  if (family !== 'chat') return send;
  const sendChat = send as unknown as (event: ChatEvent) => void;
  let pending: Delta | null = null;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (!pending) return;
    const out = pending;
    pending = null;
    sendChat(out);
  };
  return ((event: ChatEvent) => {
    if (!isDelta(event)) {
      flush();
      sendChat(event);
      return;
    }
    if (pending && sameStream(pending, event)) {
      pending = { ...pending, delta: pending.delta + event.delta };
    } else {
      flush();
      pending = event;
    }
    if (!scheduled) {
      scheduled = true;
      schedule(flush);
    }
  }) as unknown as (payload: EventPayload<F>) => void;
}
