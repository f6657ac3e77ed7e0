/**
 * Markdown while it streams, without re-parsing the whole message per frame (docs/chat-ui.md "Streaming Markdown"):
 * the text is cut into blocks; a block followed by a blank line and by the start of another block is complete,
 * rendered once and kept; only the open tail is rendered again when text arrives. Nothing per frame costs the length
 * of the message: the stream reads only the deltas that arrived since it last looked (chat-reducer `TextDelta`), never
 * the whole text (which V8 would copy into one flat string each time), and keeps only the open tail as text.
 * A fenced code block still open is shown as plain text that only grows (`code`), never parsed per frame; it is
 * complete the moment its closing fence ends.
 * Limits: a construct that a *later* block changes (a loose list continued after a blank line, a link reference
 * defined further down) may render slightly differently until the message is done; the final message is rendered
 * whole from its full text, so what stays on screen is exact.
 */
import { marked } from 'marked';
import type { TextDelta } from '../stores/chat-reducer';
import { renderMarkdown } from './markdown';
import { markdownHazard } from './markdown-hazards';

export const GROUP_SIZE = 24;

export interface StreamedMarkdown {
  /**
   * Rendered HTML of the completed blocks, in groups; every group but the last is full and its array is never
   * replaced again while the same message streams.
   */
  groups: readonly (readonly string[])[];
  /** The open tail's Markdown (not yet rendered: the view renders it into its element); before `code`, if any. */
  tail: string;
  /**
   * A fenced code block still open at the end: its text so far, shown as it is (no Markdown to parse, nothing to
   * sanitize). `id` changes with each new block, and within one block `body` only grows, so the view appends.
   */
  code?: OpenCode;
}

export interface OpenCode {
  id: number;
  /** The info string's first word (`ts` of ```` ```ts ````), or ''. */
  lang: string;
  body: string;
}

/** An opening fence at the top level: up to 3 spaces, 3+ backticks (info without backticks) or 3+ tildes. */
const OPENING_FENCE = /^ {0,3}(`{3,}(?=[^`]*$)|~{3,})(.*)$/;
const CLOSING_FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

interface Fence {
  id: number;
  /** Offsets in the open text: its opening line, and its body (after that line). */
  start: number;
  bodyStart: number;
  marker: string;
  lang: string;
}

export class MarkdownStream {
  /** The newest delta read so far. */
  private seen: TextDelta | null = null;
  /** The text after the completed blocks. */
  private open = '';
  private groups: (readonly string[])[] = [];
  /** The open fenced code block, if the open text ends inside one. */
  private fence: Fence | null = null;
  private fences = 0;
  /** Where in the open text the lines not yet looked at for fences start. */
  private scanned = 0;

  /** `render`: a completed block's Markdown to sanitized HTML (the app's renderMarkdown; tests pass their own). */
  constructor(
    private readonly render: (markdown: string) => string = (markdown) => renderMarkdown(markdown, { keep: false }),
  ) {}

  /** Takes the newest delta of the text; a chain that does not lead back to the delta seen last starts over. */
  update(latest: TextDelta | null): StreamedMarkdown {
    const added: string[] = [];
    let delta = latest;
    for (; delta && delta !== this.seen; delta = delta.before) added.push(delta.text);
    // Walked past the first delta without meeting the one seen last: another text (`added` holds all of it).
    if (delta !== this.seen) this.reset();
    this.seen = latest;
    if (added.length) this.open += added.reverse().join('');
    const closedAt = this.scanFences();
    // Inside a code block, only what is before it can be complete, and the block itself is never parsed per frame: a
    // long one (a whole file written out) made every frame cost its length. A block that just closed is complete.
    const fence = this.fence;
    const done = fence
      ? completedLength(this.open.slice(0, fence.bodyStart))
      : closedAt > 0
        ? closedAt
        : completedLength(this.open);
    if (done > 0) {
      const block = this.render(this.open.slice(0, done));
      const last = this.groups.at(-1);
      // A new array for the open group (its view re-renders), the full ones kept as they are.
      if (last && last.length < GROUP_SIZE) this.groups = [...this.groups.slice(0, -1), [...last, block]];
      else this.groups = [...this.groups, [block]];
      this.open = this.open.slice(done);
      this.scanned -= done;
      if (fence) {
        fence.start -= done;
        fence.bodyStart -= done;
      }
    }
    if (!fence) return { groups: this.groups, tail: this.open };
    return {
      groups: this.groups,
      tail: this.open.slice(0, fence.start),
      code: { id: fence.id, lang: fence.lang, body: this.open.slice(fence.bodyStart) },
    };
  }

  reset(): void {
    this.seen = null;
    this.open = '';
    this.groups = [];
    this.fence = null;
    this.scanned = 0;
  }

  /**
   * Follows code fences over the complete lines not yet seen (each line is looked at once). Returns where the last
   * block closed in them ends (0 for none), when no other block is open after it.
   */
  private scanFences(): number {
    const text = this.open;
    let closedAt = 0;
    let at = this.scanned;
    for (let end = text.indexOf('\n', at); end !== -1; at = end + 1, end = text.indexOf('\n', at)) {
      const line = text.slice(at, end).replace(/\r$/, '');
      if (!this.fence) {
        const opening = OPENING_FENCE.exec(line);
        if (opening)
          this.fence = {
            id: ++this.fences,
            start: at,
            bodyStart: end + 1,
            marker: opening[1]!,
            lang: opening[2]!.trim().split(/\s+/)[0] ?? '',
          };
      } else {
        const closing = CLOSING_FENCE.exec(line);
        // Closed by the same character, at least as many of it (CommonMark).
        if (closing && closing[1]![0] === this.fence.marker[0] && closing[1]!.length >= this.fence.marker.length) {
          this.fence = null;
          closedAt = end + 1;
        }
      }
    }
    this.scanned = at;
    return this.fence ? 0 : closedAt;
  }
}

/**
 * How many leading characters of `text` form complete blocks: up to the last blank line that has a block both
 * before and after it. An unclosed code fence runs to the end, so it is never cut; nor is text shown as plain text.
 */
export function completedLength(text: string): number {
  if (!text.includes('\n\n')) return 0;
  // Text the lexer must not see (markdown-hazards.ts) stays open: the tail shows it as plain text, as the whole
  // message will be shown.
  if (markdownHazard(text)) return 0;
  let tokens: ReturnType<typeof marked.lexer>;
  try {
    tokens = marked.lexer(text, { gfm: true, breaks: true });
  } catch {
    return 0;
  }
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
