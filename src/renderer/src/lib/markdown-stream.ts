/**
 * Markdown while it streams, without re-parsing the whole message per frame (docs/chat-ui.md "Streaming Markdown"):
 * the text is cut into blocks; a block followed by a blank line and by the start of another block is complete,
 * rendered once and kept; only the open tail is rendered again when text arrives. Nothing per frame costs the length
 * of the message: the stream reads only the deltas that arrived since it last looked (chat-reducer `TextDelta`), never
 * the whole text (which V8 would copy into one flat string each time), and keeps only the open tail as text.
 * Limits: a construct that a *later* block changes (a loose list continued after a blank line, a link reference
 * defined further down) may render slightly differently until the message is done; the final message is rendered
 * whole from its full text, so what stays on screen is exact.
 */
import { marked } from 'marked';
import type { TextDelta } from '../stores/chat-reducer';
import { renderMarkdown } from './markdown';

export const GROUP_SIZE = 24;

export interface StreamedMarkdown {
  /**
   * Rendered HTML of the completed blocks, in groups; every group but the last is full and its array is never
   * replaced again while the same message streams.
   */
  groups: readonly (readonly string[])[];
  /** The open tail's Markdown (not yet rendered: the view renders it into its element). */
  tail: string;
}

export class MarkdownStream {
  /** The newest delta read so far. */
  private seen: TextDelta | null = null;
  /** The text after the completed blocks. */
  private open = '';
  private groups: (readonly string[])[] = [];

  /** `render`: a completed block's Markdown to sanitized HTML (the app's renderMarkdown; tests pass their own). */
  constructor(private readonly render: (markdown: string) => string = (markdown) => renderMarkdown(markdown, { keep: false })) {}

  /** Takes the newest delta of the text; a chain that does not lead back to the delta seen last starts over. */
  update(latest: TextDelta | null): StreamedMarkdown {
    const added: string[] = [];
    let delta = latest;
    for (; delta && delta !== this.seen; delta = delta.before) added.push(delta.text);
    // Walked past the first delta without meeting the one seen last: another text (`added` holds all of it).
    if (delta !== this.seen) this.reset();
    this.seen = latest;
    if (added.length) this.open += added.reverse().join('');
    const done = completedLength(this.open);
    if (done > 0) {
      const block = this.render(this.open.slice(0, done));
      const last = this.groups.at(-1);
      // A new array for the open group (its view re-renders), the full ones kept as they are.
      if (last && last.length < GROUP_SIZE) this.groups = [...this.groups.slice(0, -1), [...last, block]];
      else this.groups = [...this.groups, [block]];
      this.open = this.open.slice(done);
    }
    return { groups: this.groups, tail: this.open };
  }

  reset(): void {
    this.seen = null;
    this.open = '';
    this.groups = [];
  }
}

/**
 * How many leading characters of `text` form complete blocks: up to the last blank line that has a block both
 * before and after it. An unclosed code fence runs to the end, so it is never cut.
 */
export function completedLength(text: string): number {
  if (!text.includes('\n\n')) return 0;
  const tokens = marked.lexer(text, { gfm: true, breaks: true });
  let length = 0;
  let done = 0;
  for (let i = 0; i < tokens.length - 1; i++) {
    length += tokens[i]!.raw.length;
    const next = tokens[i + 1]!;
    if (tokens[i]!.type === 'space' && next.type !== 'space' && i > 0) done = length;
  }
  // The lexer's raws add up to the text; if they do not (a future lexer change), cut nothing rather than wrongly.
  const total = tokens.reduce((n, t) => n + t.raw.length, 0);
  return total === text.length ? done : 0;
}
