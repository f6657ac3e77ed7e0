/**
 * Deltas going to a window are joined per turn of the event loop, and nothing else changes: the same text, every
 * other event in its place, other families untouched.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../shared/contract/chat';
import { EventBus } from './events';
import { windowListener } from './window-events';

const text = (delta: string, extra: Partial<ChatEvent> = {}): ChatEvent =>
  ({ type: 'text_delta', session_id: 1, round: 1, delta, ...extra }) as ChatEvent;

function harness() {
  const sent: ChatEvent[] = [];
  const flushes: (() => void)[] = [];
  const listener = windowListener(
    'chat',
    (e) => sent.push(e),
    (f) => flushes.push(f),
  );
  return { sent, listener, runFlushes: () => flushes.splice(0).forEach((f) => f()) };
}

describe('windowListener', () => {
  it('joins consecutive deltas of one stream and sends them at the end of the turn', () => {
    const h = harness();
    for (const d of ['Hel', 'lo', ' world']) h.listener(text(d));
    expect(h.sent).toEqual([]);
    h.runFlushes();
    expect(h.sent).toEqual([text('Hello world')]);
  });

  it('starts a new delta for another round, stack, session or kind, in order', () => {
    const h = harness();
    const events = [
      text('a'),
      text('b', { round: 2 }),
      text('c', { round: 2, stack_id: 7 }),
      text('d', { session_id: 2 }),
      { type: 'reasoning_delta', session_id: 1, round: 1, delta: 'e' } as ChatEvent,
    ];
    events.forEach(h.listener);
    h.runFlushes();
    expect(h.sent).toEqual(events);
  });

  it('lets any other event pass at once, after the deltas before it', () => {
    const h = harness();
    h.listener(text('a'));
    h.listener(text('b'));
    const running: ChatEvent = { type: 'turn_running', session_id: 1, running: false };
    h.listener(running);
    expect(h.sent).toEqual([text('ab'), running]);
    h.runFlushes();
    expect(h.sent).toHaveLength(2);
  });

  it('passes other families through untouched and at once', () => {
    const sent: unknown[] = [];
    const listener = windowListener(
      'inbox',
      (e) => sent.push(e),
      () => {
        throw new Error('never scheduled');
      },
    );
    const event = { type: 'changed' } as never;
    listener(event);
    expect(sent).toEqual([event]);
  });

  it('on the real event loop: one frame per turn, the same text in the same order as the bus carried', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            kind: fc.constantFrom('text', 'reasoning', 'other'),
            round: fc.integer({ min: 1, max: 2 }),
            delta: fc.string({ maxLength: 4 }),
            tick: fc.boolean(),
          }),
          { maxLength: 40 },
        ),
        async (steps) => {
          const bus = new EventBus();
          const received: ChatEvent[] = [];
          const off = bus.subscribe(
            'chat',
            windowListener('chat', (e) => received.push(e)),
          );
          const emitted: ChatEvent[] = [];
          for (const s of steps) {
            const event: ChatEvent =
              s.kind === 'other'
                ? { type: 'turn_running', session_id: 1, running: true }
                : ({
                    type: s.kind === 'text' ? 'text_delta' : 'reasoning_delta',
                    session_id: 1,
                    round: s.round,
                    delta: s.delta,
                  } as ChatEvent);
            emitted.push(event);
            bus.emit('chat', event);
            if (s.tick) await new Promise((r) => setImmediate(r));
          }
          await new Promise((r) => setImmediate(r));
          off();
          // Joining adjacent deltas of the same stream in what was emitted gives exactly what was received.
          const joined: ChatEvent[] = [];
          for (const e of emitted) {
            const last = joined.at(-1);
            if (
              last &&
              last.type === e.type &&
              (e.type === 'text_delta' || e.type === 'reasoning_delta') &&
              'round' in last &&
              last.round === e.round
            ) {
              joined[joined.length - 1] = { ...last, delta: (last as { delta: string }).delta + e.delta } as ChatEvent;
            } else joined.push(e);
          }
          const text = (list: ChatEvent[]) =>
            list.map((e) => ('delta' in e ? `${e.type}:${e.delta}` : e.type)).join('|');
          expect(received.length).toBeLessThanOrEqual(emitted.length);
          // Across ticks a stream may arrive in more pieces than `joined`, never in another order or other text.
          const flat = (list: ChatEvent[]) =>
            list.flatMap((e) =>
              'delta' in e ? [...e.delta].map((c) => `${e.type}${(e as { round: number }).round}:${c}`) : [e.type],
            );
          expect(flat(received)).toEqual(flat(emitted));
          // Within one tick nothing is split: with no tick between, the received frames are exactly the joined ones.
          if (!steps.some((s) => s.tick)) expect(text(received)).toBe(text(joined));
        },
      ),
      { numRuns: 100 },
    );
  });
});
