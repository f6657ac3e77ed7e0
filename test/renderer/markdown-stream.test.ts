/**
 * The streaming reply's Markdown (lib/markdown-stream.ts, docs/chat-ui.md "Streaming Markdown"): completed blocks are
 * rendered once, in groups; the open tail is what is left; each update reads only the deltas that arrived since the
 * last one (never the whole text), and a text that does not continue the last one starts over. Rendering is the
 * test's own (`[…]` around a block's Markdown), so what is cut where shows as it is.
 */
import { describe, expect, it } from 'vitest';
import { GROUP_SIZE, MarkdownStream } from '../../src/renderer/src/lib/markdown-stream';
import { reduceChat, type ChatState, type TextDelta } from '../../src/renderer/src/stores/chat-reducer';

const render = (markdown: string) => `[${markdown}]`;

/**
 * Deltas of `parts` linked after `from` as the reducer links them (newest first); `reads[first + i]` counts how
 * often part i's text is read.
 */
function chain(parts: string[], from: TextDelta | null = null, reads: number[] = [], first = 0): TextDelta | null {
  let latest = from;
  parts.forEach((part, i) => {
    const delta = { before: latest } as TextDelta;
    Object.defineProperty(delta, 'text', {
      get: () => ((reads[first + i] = (reads[first + i] ?? 0) + 1), part),
      enumerable: true,
    });
    latest = delta;
  });
  return latest;
}

describe('MarkdownStream', () => {
  it('renders completed blocks once and leaves the open block as the tail', () => {
    const stream = new MarkdownStream(render);
    let latest = chain(['## Plan', '\n\nWe **will**']);
    expect(stream.update(latest)).toEqual({ groups: [['[## Plan\n\n]']], tail: 'We **will**' });
    latest = chain([' change it.\n\n- a\n- b'], latest);
    expect(stream.update(latest)).toEqual({
      groups: [['[## Plan\n\n]', '[We **will** change it.\n\n]']],
      tail: '- a\n- b',
    });
    // An open code fence is never cut, blank lines inside it or not; it is its text so far, outside the tail.
    latest = chain(['\n\n```ts\nconst a = 1;\n\nconst b = 2;\n'], latest);
    expect(stream.update(latest)).toMatchObject({
      tail: '',
      code: { id: 1, lang: 'ts', body: 'const a = 1;\n\nconst b = 2;\n' },
    });
    expect(stream.update(latest).groups.flat().at(-1)).toBe('[- a\n- b\n\n]');
  });

  it('an open code block grows as plain text, is never parsed per update, and is complete when its fence closes', () => {
    const lexed: string[] = [];
    const stream = new MarkdownStream((markdown) => (lexed.push(markdown), `[${markdown}]`));
    let latest = chain(['Here is the file:\n', '~~~~ python extra\n', 'def a():\n\n', '    ```\n', '    pass\n']);
    // A backtick line inside a tilde fence is its text; the paragraph before the fence stays the tail.
    expect(stream.update(latest)).toEqual({
      groups: [],
      tail: 'Here is the file:\n',
      code: { id: 1, lang: 'python', body: 'def a():\n\n    ```\n    pass\n' },
    });
    const lines = Array.from({ length: 500 }, (_, i) => `x = ${i}\n`);
    for (const line of lines) latest = chain([line], latest);
    const { code } = stream.update(latest);
    expect(code?.body.endsWith('x = 499\n')).toBe(true);
    expect(lexed).toEqual([]); // nothing rendered while the block is open
    // A partial closing line is text until its line ends; `~~~` is too short to close `~~~~`.
    latest = chain(['~~~\n~~'], latest);
    expect(stream.update(latest).code?.body.endsWith('x = 499\n~~~\n~~')).toBe(true);
    latest = chain(['~~\nAfter.'], latest);
    expect(stream.update(latest)).toEqual({
      groups: [
        [`[Here is the file:\n~~~~ python extra\ndef a():\n\n    \`\`\`\n    pass\n${lines.join('')}~~~\n~~~~\n]`],
      ],
      tail: 'After.',
    });
    // The next block is another one.
    latest = chain(['\n```\nnew'], latest);
    expect(stream.update(latest)).toMatchObject({ tail: 'After.\n', code: { id: 2, lang: '', body: 'new' } });
  });

  it('reads each delta once, however long the text grows', () => {
    const stream = new MarkdownStream(render);
    const reads: number[] = [];
    let latest: TextDelta | null = null;
    const parts = Array.from({ length: 200 }, (_, i) => (i % 5 === 4 ? `word${i}\n\n` : `word${i} `));
    for (let i = 0; i < parts.length; i += 7) {
      latest = chain(parts.slice(i, i + 7), latest, reads, i);
      stream.update(latest);
    }
    expect(reads).toHaveLength(parts.length);
    expect(reads.every((n) => n === 1)).toBe(true);
    const { groups, tail } = stream.update(latest);
    // Every paragraph but the last (no block after it yet) is complete; the blocks hold the whole text in order.
    expect(tail).toBe(parts.slice(-5).join(''));
    const blocks = groups.flat();
    expect(blocks.map((b) => b.slice(1, -1)).join('') + tail).toBe(parts.join(''));
    // Groups of GROUP_SIZE blocks; a full group keeps its array from one update to the next.
    expect(groups.slice(0, -1).every((g) => g.length === GROUP_SIZE)).toBe(blocks.length > GROUP_SIZE);
  });

  it('text the lexer must not see stays open (the tail shows it as plain text) instead of throwing mid-stream', () => {
    const stream = new MarkdownStream(render);
    // 20,000 nested quotes overflowed the lexer's stack in the update of the frame that brought them.
    let latest = chain(['Intro.\n\nNext']);
    expect(stream.update(latest)).toEqual({ groups: [['[Intro.\n\n]']], tail: 'Next' });
    latest = chain([`\n\n${'>'.repeat(20_000)} deep\n\n`, 'after'], latest);
    expect(stream.update(latest)).toEqual({
      groups: [['[Intro.\n\n]']],
      tail: `Next\n\n${'>'.repeat(20_000)} deep\n\nafter`,
    });
    latest = chain([' more\n\nand more'], latest);
    expect(stream.update(latest).tail).toBe(`Next\n\n${'>'.repeat(20_000)} deep\n\nafter more\n\nand more`);
  });

  it('keeps a full group’s array as later blocks arrive', () => {
    const stream = new MarkdownStream(render);
    let latest: TextDelta | null = null;
    let first: readonly string[] | undefined;
    for (let i = 0; i < GROUP_SIZE * 2 + 3; i++) {
      latest = chain([`para ${i}\n\n`], latest);
      const { groups } = stream.update(latest);
      if (groups.length > 1) first ??= groups[0];
      if (first) expect(groups[0]).toBe(first);
    }
    expect(first).toHaveLength(GROUP_SIZE);
  });

  it('starts over on a text that does not continue the last one', () => {
    const stream = new MarkdownStream(render);
    stream.update(chain(['first\n\n', 'reply']));
    expect(stream.update(chain(['other\n\n', 'text']))).toEqual({ groups: [['[other\n\n]']], tail: 'text' });
    expect(stream.update(null)).toEqual({ groups: [], tail: '' });
  });

  it('follows the reducer’s deltas of a round', () => {
    let state: ChatState = {
      sessionId: 1,
      messages: [],
      streaming: null,
      running: true,
      notices: [],
      hasMore: false,
      loaded: true,
    };
    const stream = new MarkdownStream(render);
    for (const delta of ['# A', '\n\nb', 'c\n\n', 'd'])
      state = reduceChat(state, { type: 'text_delta', session_id: 1, round: 1, delta });
    expect(stream.update(state.streaming!.deltas)).toEqual({ groups: [['[# A\n\nbc\n\n]']], tail: 'd' });
    // A new round is a new text.
    state = reduceChat(state, { type: 'text_delta', session_id: 1, round: 2, delta: 'x\n\ny' });
    expect(stream.update(state.streaming!.deltas)).toEqual({ groups: [['[x\n\n]']], tail: 'y' });
  });
});
