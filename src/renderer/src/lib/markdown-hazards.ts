/**
 * Markdown that would take the page down (docs/chat-ui.md "Markdown that is shown as plain text"). marked, like most
 * Markdown parsers, recurses once per level of nesting and rescans for closing `*` and `_`: 20,000 nested quotes
 * overflow the stack, 2,400 lines of quotes nesting to 400 levels take a gigabyte, 40 KB of `_a_a_a…` take 1.5 s and
 * 100 KB take 8 s, a line with 40,000 spaces in it 1.35 s, all on the page's one thread. Such text comes from a model that was told to, a pasted log or a
 * file in the viewer. This one linear pass finds the shapes before marked sees them; the text is then shown as plain
 * text, with the reason. Ordinary Markdown (thousands of lines, deep-ish lists, long code) passes untouched.
 */
import { GT, NEWLINE, RETURN, SPACE, STAR, TAB, TILDE, UNDERSCORE } from './char-codes';

/** Container markers (`>`, list bullets, numbered items) before a line's text. */
export const MAX_NESTING = 32;
/** Leading whitespace of a line, in columns (a tab counts 4): deeper lists nest by indentation alone. */
export const MAX_INDENT_COLUMNS = 256;
/** One unbroken run of `*`, `_` or `~`: nested emphasis recurses once per pair. */
export const MAX_DELIMITER_RUN = 256;
/**
 * What marked's rescanning costs, in units of about a microsecond per thousand here (the bound is a few tens of
 * milliseconds): over the whitespace-free runs, length × the `*` and `_` in it (its search for closing delimiters),
 * plus the square of each run of spaces (its look-ahead for a hard line break, from every space of the run: 40,000
 * spaces in a line took 1.35 s).
 */
export const MAX_RESCAN_WORK = 50_000_000;

const isBlank = (c: number) => c === SPACE || c === TAB || c === NEWLINE || c === RETURN;
const isBullet = (c: number) => c === 45 /* - */ || c === 43 /* + */ || c === STAR;
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * How many container markers and columns of indentation start the line at `from`. Fenced code is not told apart:
 * code with 33 leading `>` is shown as plain text too, and a fence that marked would not see as one cannot hide
 * anything from this pass.
 */
function linePrefix(text: string, from: number): { depth: number; columns: number } {
  let depth = 0;
  let columns = 0;
  let i = from;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === SPACE) columns++;
    else if (c === TAB) columns += 4;
    else if (c === GT) depth++;
    else if (isBullet(c) && isBlank(text.charCodeAt(i + 1))) depth++;
    else if (isDigit(c)) {
      let j = i;
      while (j - i < 9 && isDigit(text.charCodeAt(j))) j++;
      const mark = text.charCodeAt(j);
      if ((mark !== 46 /* . */ && mark !== 41) /* ) */ || !isBlank(text.charCodeAt(j + 1))) break;
      depth++;
      i = j;
    } else break;
    if (depth > MAX_NESTING || columns > MAX_INDENT_COLUMNS) break;
    i++;
  }
  return { depth, columns };
}

/** Why `text` must not go to the Markdown parser, or null when it may. Linear in the text's length. */
export function markdownHazard(text: string): string | null {
  // Lines: nesting and indentation.
  for (let start = 0; start < text.length; ) {
    const { depth, columns } = linePrefix(text, start);
    if (depth > MAX_NESTING) return `it nests quotes or lists more than ${MAX_NESTING} levels deep`;
    if (columns > MAX_INDENT_COLUMNS) return `a line is indented more than ${MAX_INDENT_COLUMNS} columns`;
    const end = text.indexOf('\n', start);
    start = end === -1 ? text.length : end + 1;
  }
  // Runs: delimiter runs, and the cost of rescanning within whitespace-free runs and runs of spaces.
  let wordWork = 0;
  let spaceWork = 0;
  let runStart = 0;
  let delimiters = 0;
  let same = 0;
  let previous = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : NEWLINE;
    if (c !== previous && previous === SPACE) spaceWork += same * same;
    same = c === previous ? same + 1 : 1;
    previous = c;
    if ((c === STAR || c === UNDERSCORE || c === TILDE) && same > MAX_DELIMITER_RUN)
      return `it has a run of more than ${MAX_DELIMITER_RUN} "${String.fromCharCode(c)}"`;
    if (isBlank(c)) {
      if (delimiters > 0) wordWork += (i - runStart) * delimiters;
      if (wordWork + spaceWork > MAX_RESCAN_WORK) {
        return wordWork > spaceWork
          ? 'it has long words full of "*" or "_", too slow to lay out as Markdown'
          : 'it has long runs of spaces, too slow to lay out as Markdown';
      }
      runStart = i + 1;
      delimiters = 0;
    } else if (c === STAR || c === UNDERSCORE) delimiters++;
  }
  return null;
}
