/**
 * A Markdown document cut into parts that render on their own (docs/viewer.md "Large Markdown"), and its outline
 * read from the source — both in one linear pass with no Markdown parse, done a slice at a time (MarkdownScanner)
 * so the first part can render before the rest is read and no step is a long task.
 * - A part ends before an ATX heading, or before a line that starts a new block at the left margin after a blank
 *   line, once it holds at least `size` characters; never inside a code fence or an HTML block that may hold blank
 *   lines (`<pre>`, `<script>`, `<style>`, `<textarea>`, `<!-- … -->`).
 * - Reference link definitions (`[id]: url`) are gathered and appended to every part when they are few, so a
 *   reference link works whichever part it sits in.
 * - Headings (ATX, and setext `===` / `---` under a paragraph line) with their level, plain text and the part they
 *   are in, with ids unique in the document (`md-<slug>`, `-2`, `-3` … for repeats).
 * Limits: a loose list or a reference definition block cut at a part boundary renders as two lists; setext
 * headings inside list items are outlined at the margin's level; past REF_DEFS_MAX characters of definitions a
 * reference link resolves only inside its own part.
 */
import { NEWLINE, RETURN, SPACE, TAB } from '../../lib/char-codes';

export interface OutlineHeading {
  id: string;
  level: number;
  text: string;
  /** The part holding it, and its index among that part's headings. */
  part: number;
  index: number;
}

export interface MarkdownParts {
  parts: string[];
  /** Each part's estimated height in pixels before it is rendered (the scrollbar's size until it is). */
  heights: number[];
  headings: OutlineHeading[];
  /** False while the scan goes on: more parts (and the reference definitions) may follow. */
  isComplete: boolean;
}

export const PART_CHARS = 2 * 1024;
const REF_DEFS_MAX = 16 * 1024;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX_OPEN = /^ {0,3}(#{1,6})(?=[ \t]|$)/;
/** Characters of a heading's source read for its outline text: enough for any title, and a bound on the clean-up. */
const HEADING_SOURCE_CHARS = 1000;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const HTML_OPEN = /^ {0,3}<(pre|script|style|textarea)(?:[\s>]|$)|^ {0,3}<!--/i;
const REF_DEF = /^ {0,3}\[[^\]\n]+\]:[ \t]*\S/;
const LIST_ITEM = /^ {0,3}([-*+]|\d{1,9}[.)])([ \t]|$)/;
const LIST_START = new Set(['-', '*', '+', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
const LINE_PX = 24;
const BLANK_PX = 8;
const CHARS_PER_LINE = 90;

const trimEndBlank = (text: string) => {
  let end = text.length;
  while (end > 0 && (text.charCodeAt(end - 1) === SPACE || text.charCodeAt(end - 1) === TAB)) end--;
  return text.slice(0, end);
};

/**
 * An ATX heading (`## Title ##`): its level and its source text, without the closing `#`s. By hand, in one pass: a
 * pattern with an optional closing sequence (`(.*?)(?:[ \t]+#+)?[ \t]*$`) took 2 s on a heading line of 40,000
 * spaces, growing with the square of its length.
 */
export function atxHeading(line: string): { level: number; source: string } | null {
  const open = ATX_OPEN.exec(line);
  if (!open) return null;
  const rest = trimEndBlank(line.slice(open[0].length));
  let hashes = rest.length;
  while (hashes > 0 && rest[hashes - 1] === '#') hashes--;
  const closed =
    hashes === rest.length
      ? rest
      : hashes === 0
        ? ''
        : rest[hashes - 1] === ' ' || rest[hashes - 1] === '\t'
          ? rest.slice(0, hashes)
          : rest;
  return { level: open[1]!.length, source: closed.trim() };
}

/** The text a heading shows, from its source: inline markup, links and tags taken out. */
export function headingText(whole: string): string {
  // The clean-up's patterns scan ahead from each `[`, `!` or `<`: on a heading of 40 KB of them, seconds.
  const source = whole.length > HEADING_SOURCE_CHARS ? whole.slice(0, HEADING_SOURCE_CHARS) : whole;
  if (!/[[\]<*_~`\\]/.test(source)) return source.trim();
  return source
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|__|\*|_|~~|`)/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|])/g, '$1')
    .trim();
}

/** `md-<slug>`: lower case, every run of other than letters and digits a dash; the same rule `#anchors` use. */
export function slugOf(text: string): string {
  return (
    text
      .toLowerCase()
      .trim()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-|-$/g, '') || 'section'
  );
}

function htmlBlockEnd(open: string): RegExp {
  const tag = /<(pre|script|style|textarea)/i.exec(open)?.[1];
  return tag ? new RegExp(`</${tag}>`, 'i') : /-->/;
}

/**
 * Reads a document line by line, a slice at a time (`scan` stops when its `shouldStop` says so), so that even
 * an 8 MB file is split without one long task; `result()` gives the complete parts found so far, and the whole
 * document (with the reference definitions appended) once `isDone`.
 */
export class MarkdownScanner {
  private readonly starts: number[] = [0];
  private readonly heights: number[] = [0];
  private readonly found: { level: number; text: string; at: number }[] = [];
  private readonly refDefs: string[] = [];
  private fence: string | null = null;
  private htmlEnd: RegExp | null = null;
  private previousIsBlank = true;
  private previousStart = 0;
  private previousEnd = 0;
  private previousIsParagraph = false;
  private at = 0;

  constructor(
    private readonly text: string,
    private readonly size = PART_CHARS,
  ) {}

  get isDone(): boolean {
    return this.at >= this.text.length;
  }

  /** Complete parts found so far (every part once done). */
  get partCount(): number {
    return this.isDone ? this.starts.length : this.starts.length - 1;
  }

  /** Reads lines until the text ends or `shouldStop()` (asked every 256 lines) says to pause; true when done. */
  scan(shouldStop: () => boolean = () => false): boolean {
    const text = this.text;
    for (let n = 1; this.at < text.length; n++) {
      if ((n & 255) === 0 && shouldStop()) return false;
      const at = this.at;
      const newline = text.indexOf('\n', at);
      const next = newline < 0 ? text.length : newline + 1;
      let end = newline < 0 ? text.length : newline;
      if (end > at && text.charCodeAt(end - 1) === RETURN) end--;
      let lead = at;
      while (lead < end && (text.charCodeAt(lead) === SPACE || text.charCodeAt(lead) === TAB)) lead++;
      const isBlank = lead === end;
      this.line(at, end, lead - at, isBlank);
      const length = end - at;
      this.heights[this.heights.length - 1] =
        this.heights[this.heights.length - 1]! +
        (isBlank ? BLANK_PX : LINE_PX * Math.max(1, Math.ceil(length / CHARS_PER_LINE)));
      this.previousIsBlank = isBlank;
      this.previousStart = at;
      this.previousEnd = end;
      this.at = next;
    }
    return true;
  }

  private line(at: number, end: number, indent: number, isBlank: boolean): void {
    const text = this.text;
    let isParagraph = false;
    // Most lines are plain text: only a line starting with a marker character is matched against a pattern.
    const first = indent < 4 && !isBlank ? text[at + indent]! : ' ';
    const line = () => text.slice(at, end);
    if (this.fence !== null) {
      if (
        (first === '`' || first === '~') &&
        text.startsWith(this.fence, at + indent) &&
        /^ {0,3}(`{3,}|~{3,})[ \t]*$/.test(line())
      )
        this.fence = null;
    } else if (this.htmlEnd !== null) {
      if (this.htmlEnd.test(line())) this.htmlEnd = null;
    } else if (!isBlank) {
      const atx = first === '#' ? atxHeading(line()) : null;
      const setext = (first === '=' || first === '-') && this.previousIsParagraph ? SETEXT.exec(line()) : null;
      // A cut before an ATX heading, or before a new block at the margin after a blank line.
      if (
        at - this.starts[this.starts.length - 1]! >= this.size &&
        (atx || (this.previousIsBlank && indent === 0 && !setext))
      ) {
        this.starts.push(at);
        this.heights.push(0);
      }
      const fenceOpen = first === '`' || first === '~' ? FENCE.exec(line()) : null;
      if (fenceOpen) {
        this.fence = fenceOpen[1]!.slice(0, 3);
      } else if (first === '<' && HTML_OPEN.test(line())) {
        const open = line();
        const endRe = htmlBlockEnd(open);
        if (!endRe.test(open.replace(/^[^>]*>/, ''))) this.htmlEnd = endRe;
      } else if (atx) {
        this.found.push({ level: atx.level, text: headingText(atx.source), at });
      } else if (setext) {
        this.found.push({
          level: setext[1]!.startsWith('=') ? 1 : 2,
          text: headingText(text.slice(this.previousStart, this.previousEnd)),
          at: this.previousStart,
        });
      } else if (first === '[' && REF_DEF.test(line())) {
        this.refDefs.push(line());
      } else {
        isParagraph = !(
          first === ' ' ||
          first === '>' ||
          first === '|' ||
          first === '<' ||
          (LIST_START.has(first) && LIST_ITEM.test(line()))
        );
      }
    }
    this.previousIsParagraph = isParagraph;
  }

  /** The parts (complete ones while scanning), their estimated heights, and the outline so far. */
  result(): MarkdownParts {
    const count = this.partCount;
    const starts = this.starts;
    const defs = this.refDefs.join('\n');
    const suffix = this.isDone && starts.length > 1 && defs && defs.length <= REF_DEFS_MAX ? `\n\n${defs}\n` : '';
    const parts = starts
      .slice(0, count)
      .map((start, i) => this.text.slice(start, starts[i + 1] ?? this.text.length) + suffix);
    const limit = count < starts.length ? starts[count]! : Infinity;
    const used = new Map<string, number>();
    const headings: OutlineHeading[] = [];
    let part = 0;
    let index = 0;
    for (const h of this.found) {
      if (h.at >= limit) break;
      while (part + 1 < starts.length && starts[part + 1]! <= h.at) {
        part++;
        index = 0;
      }
      const base = `md-${slugOf(h.text)}`;
      const seen = used.get(base) ?? 0;
      used.set(base, seen + 1);
      headings.push({
        level: h.level,
        text: h.text,
        id: seen === 0 ? base : `${base}-${seen + 1}`,
        part,
        index: index++,
      });
    }
    return { parts, heights: this.heights.slice(0, count), headings, isComplete: this.isDone };
  }
}

/** The whole document at once (tests, small files). */
export function splitMarkdown(text: string, size = PART_CHARS): MarkdownParts {
  const scanner = new MarkdownScanner(text, size);
  scanner.scan();
  return scanner.result();
}

/** The part of a document an `#anchor` (or `md-…` id) points at, from the outline. */
export function findHeading(headings: readonly OutlineHeading[], anchor: string): OutlineHeading | null {
  const wanted = anchor.toLowerCase().replace(/^md-/, '');
  return (
    headings.find((h) => h.id === `md-${wanted}`) ?? headings.find((h) => slugOf(h.text) === slugOf(wanted)) ?? null
  );
}
