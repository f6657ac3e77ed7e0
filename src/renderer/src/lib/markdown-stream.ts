/**
 * Markdown while it streams, without re-parsing the whole message per frame (docs/chat-ui.md "Streaming Markdown"):
 * the text is cut into blocks; a block followed by a blank line and by the start of another block is complete,
 * rendered once and kept; only the open tail is rendered again when text arrives. Each frame therefore costs the
 * length of the open block, not of the message.
 * Limits: a construct that a *later* block changes (a loose list continued after a blank line, a link reference
 * defined further down) may render slightly differently until the message is done; the final message is rendered
 * whole from its full text, so what stays on screen is exact.
 */
import { marked } from 'marked';
import { renderMarkdown } from './markdown';

export const GROUP_SIZE = 24;

export interface StreamedMarkdown {
  /**
   * Rendered HTML of the completed blocks, in groups; every group but the last is full and its array is never
   * replaced again while the same message streams.
   */
  groups: readonly (readonly string[])[];
  /** Rendered HTML of the open tail. */
  tail: string;
}

export class MarkdownStream {
  private text = '';
  /** Characters of `text` already rendered into `groups`. */
  private offset = 0;
  private groups: (readonly string[])[] = [];

  /** Takes the whole text so far (it must extend the previous text, else the stream starts over). */
  update(text: string): StreamedMarkdown {
    if (!text.startsWith(this.text)) this.reset();
    this.text = text;
    const open = text.slice(this.offset);
    const done = completedLength(open);
    if (done > 0) {
      const block = renderMarkdown(open.slice(0, done), { keep: false });
      const last = this.groups.at(-1);
      // A new array for the open group (its view re-renders), the full ones kept as they are.
      if (last && last.length < GROUP_SIZE) this.groups = [...this.groups.slice(0, -1), [...last, block]];
      else this.groups = [...this.groups, [block]];
      this.offset += done;
    }
    return { groups: this.groups, tail: renderMarkdown(text.slice(this.offset), { keep: false }) };
  }

  reset(): void {
    this.text = '';
    this.offset = 0;
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
