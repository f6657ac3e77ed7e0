/**
 * Where a big source file can be cut so that its parts parse on separate threads and the outlines join up.
 *
 * A cut goes at the start of a line that opens a top-level definition at column 0 right after a blank line (per
 * language, below). That is a statement boundary in well-formed code, but not always: the same text can sit inside a
 * template string, a block comment or a brace block indented at column 0. In each of those cases the part before the
 * cut ends inside an unclosed construct, so its tree holds an ERROR or MISSING node; the caller checks `hasError`
 * and parses the whole file instead. Languages without a rule (Java, C#-like bodies, Elixir's `defmodule … end`,
 * data formats) are never cut.
 * Python also cuts inside a top-level class when the next top-level cut is far from the ideal position (a module
 * that is mostly one class: `_pydecimal.py`'s Decimal, `subprocess.py`'s Popen): before a member, the part parsed after
 * `class _:`, and joined back into the class by the pool once both trees confirm the cut (`outline-pool.ts`).
 */
import type { GrammarId } from '../../treesitter/grammars';

const JS_TOP = String.raw`(?:export|function|class|interface|type|const|let|var|async|abstract|declare|enum|namespace|module|import)\b|@`;

/** A lookahead body: what the line after the blank one must start with. */
const TOP_LEVEL_START: Partial<Record<GrammarId, string>> = {
  python: String.raw`(?:def|class|async)\b|@`,
  javascript: JS_TOP,
  typescript: JS_TOP,
  tsx: JS_TOP,
  go: String.raw`(?:func|type|var|const)\b`,
  rust: String.raw`(?:pub|fn|struct|enum|impl|trait|mod|const|static|type|unsafe|async|extern|macro_rules!)\b|#\[`,
};

const CUT_PATTERNS = new Map<GrammarId, RegExp>(
  Object.entries(TOP_LEVEL_START).map(([id, start]) => [
    id as GrammarId,
    new RegExp(String.raw`\n[ \t]*\r?\n(?=${start})`, 'g'),
  ]),
);

export interface SourcePart {
  text: string;
  /** Lines before this part in the whole file: add it to the part's 1-based line numbers. */
  lineOffset: number;
  /**
   * Python, a part cut inside a top-level class: the line (`class _:` and its newline) to parse before `text`, which
   * continues the class body the previous part ends in (`outline-pool.ts` joins them, or parses the file whole).
   */
  head?: string;
}

/** What a part cut inside a Python class is parsed after. */
export const PYTHON_CLASS_HEAD = 'class _:\n';

export function canSplit(grammar: GrammarId): boolean {
  return CUT_PATTERNS.has(grammar);
}

/**
 * Up to `parts` pieces of roughly equal size; fewer (down to one, the whole text) when no cut point is found
 * after an ideal cut position.
 */
export function splitSource(text: string, grammar: GrammarId, parts: number): SourcePart[] {
  const pattern = CUT_PATTERNS.get(grammar);
  if (!pattern || parts < 2) return [{ text, lineOffset: 0 }];
  const cuts: { at: number; head?: string }[] = [];
  // A cut further than this past its ideal position is worth one inside a class (Python).
  const slack = Math.floor(text.length / (parts * 8));
  for (let k = 1; k < parts; k++) {
    const ideal = Math.floor((text.length * k) / parts);
    const from = Math.max(ideal, cuts.at(-1)?.at ?? 0);
    pattern.lastIndex = from;
    const match = pattern.exec(text);
    let cut = match ? match.index + match[0].length : text.length;
    let head: string | undefined;
    if (grammar === 'python' && cut - from > slack) {
      const inside = classCut(text, from, cut);
      if (inside !== null) {
        cut = inside;
        head = PYTHON_CLASS_HEAD;
      }
    }
    if (cut >= text.length) break;
    cuts.push(head ? { at: cut, head } : { at: cut });
  }
  const out: SourcePart[] = [];
  let start = 0;
  let lineOffset = 0;
  let head: string | undefined;
  for (const cut of [...cuts, { at: text.length }]) {
    out.push(
      head ? { text: text.slice(start, cut.at), lineOffset, head } : { text: text.slice(start, cut.at), lineOffset },
    );
    lineOffset += countNewlines(text, start, cut.at);
    start = cut.at;
    head = cut.head;
  }
  return out;
}

const COLUMN_ZERO = /\n(?=[^\s#])/g;

/**
 * Python: when `from` lies inside a top-level class, the first blank line after it that comes before a member (a
 * `def`, `class` or decorator at the class body's indentation) and before `before`; null when there is none. A
 * guess from the text only (a string at column 0 can mislead it): the pool accepts the cut only when the parts parse
 * and their trees say the first part ends in that class and the second continues its body.
 */
function classCut(text: string, from: number, before: number): number | null {
  const header = text.lastIndexOf('\nclass ', from);
  const headerStart = header === -1 ? (text.startsWith('class ') ? 0 : -1) : header + 1;
  if (headerStart < 0) return null;
  const bodyLine = text.indexOf('\n', headerStart);
  if (bodyLine === -1) return null;
  COLUMN_ZERO.lastIndex = bodyLine;
  const ended = COLUMN_ZERO.exec(text);
  if (ended && ended.index < from) return null; // the class ended before `from`
  const indent = /\n(?:[ \t]*(?:#[^\n]*)?\r?\n)*([ \t]+)\S/y;
  indent.lastIndex = bodyLine;
  const found = indent.exec(text);
  if (!found) return null;
  const member = new RegExp(String.raw`\n[ \t]*\r?\n(?=${found[1]}(?:(?:def|class|async)\b|@))`, 'g');
  member.lastIndex = from;
  const match = member.exec(text);
  if (!match) return null;
  const cut = match.index + match[0].length;
  return cut < before && (!ended || cut < ended.index) ? cut : null;
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
