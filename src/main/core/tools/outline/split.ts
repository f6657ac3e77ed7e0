/**
 * Where a big source file can be cut so that its parts parse on separate threads and the outlines join up.
 *
 * A cut goes at the start of a line that opens a top-level definition at column 0 right after a blank line (per
 * language, below). That is a statement boundary in well-formed code, but not always: the same text can sit inside a
 * template string, a block comment or a brace block indented at column 0. In each of those cases the part before the
 * cut ends inside an unclosed construct, so its tree holds an ERROR or MISSING node; the caller checks `hasError`
 * and parses the whole file instead. Languages without a rule (Java, C#-like bodies, Elixir's `defmodule … end`,
 * data formats) are never cut.
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
  Object.entries(TOP_LEVEL_START).map(([id, start]) => [id as GrammarId, new RegExp(String.raw`\n[ \t]*\r?\n(?=${start})`, 'g')]),
);

export interface SourcePart {
  text: string;
  /** Lines before this part in the whole file: add it to the part's 1-based line numbers. */
  lineOffset: number;
}

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
  const cuts: number[] = [];
  for (let k = 1; k < parts; k++) {
    const ideal = Math.floor((text.length * k) / parts);
    pattern.lastIndex = Math.max(ideal, cuts.at(-1) ?? 0);
    const match = pattern.exec(text);
    if (!match) break;
    const cut = match.index + match[0].length;
    if (cut >= text.length) break;
    cuts.push(cut);
  }
  const out: SourcePart[] = [];
  let start = 0;
  let lineOffset = 0;
  for (const cut of [...cuts, text.length]) {
    out.push({ text: text.slice(start, cut), lineOffset });
    lineOffset += countNewlines(text, start, cut);
    start = cut;
  }
  return out;
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
