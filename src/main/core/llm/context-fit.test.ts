/**
 * Fitting a request into the model's context window (docs/models.md "Fitting the context window"): what is left
 * out first, what is never left out, and that the request stays one a provider accepts (every tool result after its
 * call, the person's last message kept) for random histories and budgets.
 */
import { describe, expect, it } from 'vitest';
import {
  CUT_FLOOR_CHARS,
  fitMessages,
  hiddenResultNote,
  IMAGE_CHARS,
  isContextOverflow,
  promptBudgetChars,
  totalChars,
  windowFromError,
} from './context-fit';
import type { ChatMessage } from './types';

const system: ChatMessage = { role: 'system', content: 'You are a careful assistant.' };
const user = (content: string): ChatMessage => ({ role: 'user', content });
const call = (id: string, args = '{"path":"a.txt"}'): ChatMessage => ({
  role: 'assistant',
  content: '',
  tool_calls: [{ id, name: 'read_file', arguments: args }],
});
const result = (id: string, content: string): ChatMessage => ({ role: 'tool', tool_call_id: id, content });
const big = (n: number, ch = 'x') => ch.repeat(n);

/** What providers require of a request: a system message first, every tool result right after its call's round. */
function expectWellFormed(messages: ChatMessage[]): void {
  expect(messages[0]).toEqual(system);
  expect(messages[1]?.role).toBe('user');
  let open = new Set<string>();
  for (const m of messages) {
    if (m.role === 'assistant') open = new Set((m.tool_calls ?? []).map((c) => c.id));
    else if (m.role === 'tool') expect(open.has(m.tool_call_id)).toBe(true);
    else open = new Set();
  }
}

describe('fitMessages', () => {
  it('leaves a request that fits as it is', () => {
    const messages = [system, user('hi'), call('1'), result('1', 'text')];
    const fit = fitMessages(messages, 10_000);
    expect(fit.messages).toEqual(messages);
    expect(fit).toMatchObject({ hiddenResults: 0, droppedMessages: 0, cutMessages: 0, charsAfter: fit.charsBefore });
  });

  it('hides the oldest tool results first, never the newest round’s, and says how long each was', () => {
    const messages = [
      system,
      user('read them'),
      call('1'),
      result('1', big(30_000, 'a')),
      call('2'),
      result('2', big(30_000, 'b')),
      call('3'),
      result('3', big(30_000, 'c')),
    ];
    const fit = fitMessages(messages, 65_000);
    expect(fit.hiddenResults).toBe(1);
    expect(fit.messages[3]).toEqual(result('1', hiddenResultNote(30_000)));
    expect(fit.messages[5]).toEqual(messages[5]);
    expect(fit.messages[7]).toEqual(messages[7]);
    expect(fit.charsAfter).toBeLessThanOrEqual(65_000);
    expect(messages[3]).toEqual(result('1', big(30_000, 'a'))); // the caller's array is left as it was

    const tight = fitMessages(messages, 35_000);
    expect(tight.hiddenResults).toBe(2);
    expect(tight.messages[7]).toEqual(messages[7]);
    expectWellFormed(tight.messages);
  });

  it('counts a returned image like a person’s, and hides an old result’s images with it, naming them', () => {
    const image = { mediaType: 'image/png', data: new Uint8Array(8) };
    const seen: ChatMessage = { role: 'tool', tool_call_id: '1', content: 'a.png: PNG image', images: [image, image] };
    const messages = [system, user('look'), call('1'), seen, call('2'), result('2', 'ok')];
    expect(totalChars(messages)).toBe(
      totalChars([system, user('look'), call('1'), result('1', 'a.png: PNG image'), call('2'), result('2', 'ok')]) +
        2 * IMAGE_CHARS,
    );
    const fit = fitMessages(messages, totalChars(messages) - IMAGE_CHARS);
    expect(fit.hiddenResults).toBe(1);
    expect(fit.messages[3]).toEqual(
      result('1', `${hiddenResultNote('a.png: PNG image'.length)}\n[2 images returned here, left out with it]`),
    );
    expect(fit.charsAfter).toBe(totalChars(fit.messages));
  });

  it('then drops whole exchanges from the start, up to a message of the person’s, never the last one', () => {
    const messages = [
      system,
      user(big(20_000, 'p')),
      call('1'),
      result('1', 'short'),
      user(big(20_000, 'q')),
      call('2'),
      result('2', 'short'),
      user('now this'),
    ];
    const fit = fitMessages(messages, 21_000);
    expect(fit.droppedMessages).toBe(3);
    expect(fit.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
    expect(fit.messages.at(-1)).toEqual(user('now this'));
    expectWellFormed(fit.messages);
  });

  it('last, cuts the longest messages to their start, keeping the person’s last message and a whole surrogate pair', () => {
    const paste = `${big(CUT_FLOOR_CHARS + 9_999, 'z')}😀${big(40_000, 'y')}`;
    const fit = fitMessages([system, user(paste)], 12_500);
    expect(fit.cutMessages).toBe(1);
    const content = fit.messages[1]!.content;
    expect(content.startsWith(big(100, 'z'))).toBe(true);
    expect(content).toMatch(/\[cut to fit the model's context window: \d+ characters in all\]$/);
    expect(content).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/); // no lone high surrogate
    expect(fit.charsAfter).toBeLessThanOrEqual(12_500);
  });

  it('never touches the system message, and gives up (sending what is left) when nothing more can go', () => {
    const huge: ChatMessage = { role: 'system', content: big(50_000, 's') };
    const fit = fitMessages([huge, user('hi')], 1_000);
    expect(fit.messages).toEqual([huge, user('hi')]);
    expect(fit.charsAfter).toBe(fit.charsBefore);
  });

  it('random histories and budgets: always well formed, within the budget whenever anything could still go', () => {
    let seed = 7; // mulberry32
    const rnd = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4_294_967_296) * n);
    };
    const seen = { hidden: 0, dropped: 0, cut: 0, over: 0 };
    for (let trial = 0; trial < 300; trial++) {
      const messages: ChatMessage[] = [system, user(big(rnd(5_000) + 1))];
      for (let turn = 0, turns = rnd(5) + 1; turn < turns; turn++) {
        for (let round = 0, rounds = rnd(4); round < rounds; round++) {
          const ids = Array.from({ length: rnd(3) + 1 }, (_, i) => `${turn}-${round}-${i}`);
          messages.push({
            role: 'assistant',
            content: big(rnd(300)),
            tool_calls: ids.map((id) => ({ id, name: 'read_file', arguments: '{}' })),
          });
          for (const id of ids) messages.push(result(id, big(rnd(20_000))));
        }
        messages.push({ role: 'assistant', content: big(rnd(3_000)) });
        if (turn < turns - 1) messages.push(user(big(rnd(8_000) + 1)));
      }
      const budget = rnd(60_000) + 3_000;
      const fit = fitMessages(messages, budget);
      expectWellFormed(fit.messages);
      expect(fit.charsAfter).toBe(totalChars(fit.messages));
      const lastUser = messages.findLast((m) => m.role === 'user')!;
      expect(fit.messages.findLast((m) => m.role === 'user')!.content.slice(0, CUT_FLOOR_CHARS)).toBe(
        lastUser.content.slice(0, CUT_FLOOR_CHARS),
      );
      seen.hidden += Math.sign(fit.hiddenResults);
      seen.dropped += Math.sign(fit.droppedMessages);
      seen.cut += Math.sign(fit.cutMessages);
      if (fit.charsAfter > budget) {
        seen.over++;
        // Over only where every message is at the floor of a cut (or short), the history down to the person's last message.
        expect(fit.messages.slice(1).every((m) => m.content.length <= CUT_FLOOR_CHARS + 100)).toBe(true);
      }
    }
    // Every step was taken in some trials, so the invariants above were checked after each.
    expect(Math.min(seen.hidden, seen.dropped, seen.cut)).toBeGreaterThan(10);
  });
});

describe('promptBudgetChars', () => {
  it('is three quarters of the window at 3 characters a token, less the tools; 128k tokens when the window is not set', () => {
    expect(promptBudgetChars(8_000, [])).toBe(18_000);
    expect(promptBudgetChars(null, [])).toBe(288_000);
    const tool = { name: 'read_file', description: 'Reads a file.', parameters: { type: 'object' } };
    expect(promptBudgetChars(8_000, [tool])).toBe(
      18_000 - 'read_file'.length - 'Reads a file.'.length - '{"type":"object"}'.length,
    );
  });
});

describe('isContextOverflow', () => {
  it('recognises the providers’ ways of saying the request is too long', () => {
    for (const message of [
      "HTTP 400: This model's maximum context length is 8192 tokens. However, your messages resulted in 20480 tokens.",
      'HTTP 400: prompt is too long: 212345 tokens > 200000 maximum',
      'HTTP 400: The input token count (1048577) exceeds the maximum number of tokens allowed (1048576).',
      'HTTP 400: Input is too long for requested model.',
      'HTTP 413: Request too large for gpt-4o in organization org-x on tokens per min',
      'HTTP 400: the request exceeds the available context size, try increasing it',
    ]) {
      expect(isContextOverflow(Number(message.slice(5, 8)), message), message).toBe(true);
    }
  });

  it('leaves every other failure alone', () => {
    expect(isContextOverflow(401, 'HTTP 401: maximum context length')).toBe(false);
    expect(isContextOverflow(400, 'HTTP 400: Invalid schema for function read_file')).toBe(false);
    expect(isContextOverflow(404, 'HTTP 404: model not found')).toBe(false);
    expect(isContextOverflow(null, 'network error: fetch failed')).toBe(false);
  });
});

describe('windowFromError', () => {
  it('reads the window a provider names in its "too long" error, and nothing else', () => {
    expect(
      windowFromError(
        "HTTP 400: This model's maximum context length is 16385 tokens. However, your messages resulted in 40000 tokens.",
      ),
    ).toBe(16_385);
    expect(windowFromError('HTTP 400: prompt is too long: 250000 tokens > 200000 maximum')).toBe(200_000);
    expect(
      windowFromError(
        'HTTP 400: The input token count (1048577) exceeds the maximum number of tokens allowed (1048576).',
      ),
    ).toBe(1_048_576);
    expect(
      windowFromError(
        'HTTP 400: Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length',
      ),
    ).toBe(32_768);
    expect(
      windowFromError(
        'HTTP 400: the request (9000 tokens) exceeds the available context size (4096 tokens), try increasing it',
      ),
    ).toBe(4_096);
    expect(windowFromError('HTTP 400: Input is too long for requested model.')).toBeNull();
  });
});
