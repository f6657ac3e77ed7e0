/**
 * Calls of the function-like macros a C or C++ file defines itself, read as the preprocessor would for the three
 * shapes that hide declarations from a parser (docs/outline.md "A file that does not parse"):
 * - a name built by pasting (`#define NCURSES_SP_NAME(name) name##_sp`): `NCURSES_SP_NAME(beep)` becomes
 *   `beep_sp`, the function the header declares (curses.h declares `beep` and `beep_sp` apart);
 * - nothing, or only attributes (`#define GCC_DEPRECATED(msg) __attribute__((deprecated))`, `_Attr_access_(x)`):
 *   the call is blanked;
 * - a whole declaration (ctype.h's `#define __exctype(name) extern int name (int) __THROW`): a call that stands as
 *   a statement (`__exctype (isalnum);`) becomes the body with its arguments put in.
 * A call takes the last definition above it in the file (a header that defines a macro twice, in two branches of an
 * `#if`, means the one before the call; the branches themselves are not evaluated). The text keeps its lines: an
 * expansion never adds a line break, and one shorter than its call is padded with spaces (a declaration's may be
 * longer, which moves the columns after it on that line only).
 */

interface Definition {
  /** Where its `#define` line starts: it applies to calls after this offset. */
  at: number;
  params: string[];
  shape: 'paste' | 'blank' | 'declaration';
  /** paste: the pieces joined (parameters by index); declaration: the body. */
  body: string;
}

const ATTRIBUTE_ONLY =
  /^(?:\s*(?:__attribute__\s*\(\(.*\)\)|__declspec\s*\([^)]*\)|__(?:attr_\w+|attribute_\w+__|nonnull|wur|THROW|LEAF)\b(?:\s*\([^()]*\))?))*\s*$/;
const DEFINE = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^)]*)\)/gm;

/** The file's function-like macros of the three shapes, by name, in file order. */
function definitions(text: string): Map<string, Definition[]> {
  const out = new Map<string, Definition[]>();
  const dead = deadRanges(text);
  let next = 0; // the first dead range that does not end before the current `#define` (they come in file order)
  DEFINE.lastIndex = 0;
  for (let m = DEFINE.exec(text); m; m = DEFINE.exec(text)) {
    while (next < dead.length && dead[next]![1] <= m.index) next++;
    if (next < dead.length && dead[next]![0] <= m.index) continue;
    const params = m[2]!.split(',').map((p) => p.trim());
    if (!params.every((p) => /^[A-Za-z_]\w*$/.test(p))) continue; // variadic or empty: not one of the shapes
    let end = m.index + m[0].length;
    while (end < text.length && !(text[end] === '\n' && text[end - 1] !== '\\')) end++;
    const body = text
      .slice(m.index + m[0].length, end)
      .replace(/\\\n/g, ' ')
      .replace(/\/\*.*?\*\/|\/\/.*$/g, ' ')
      .trim();
    const definition = shapeOf(body, params, m.index);
    const list = out.get(m[1]!) ?? [];
    // A definition of another shape still hides the earlier one from the calls after it.
    list.push(definition ?? { at: m.index, params, shape: 'blank', body: '\0' });
    out.set(m[1]!, list);
  }
  return out;
}

function shapeOf(body: string, params: string[], at: number): Definition | null {
  if (ATTRIBUTE_ONLY.test(body)) return { at, params, shape: 'blank', body: '' };
  // `a##b##c` where every part is a parameter or a plain identifier piece, or a lone parameter.
  const parts = body.split(/\s*##\s*/);
  if (parts.every((p) => /^\w+$/.test(p)) && parts.some((p) => params.includes(p)))
    return { at, params, shape: 'paste', body };
  // A declaration of a function named by a parameter: `extern int name (int) __THROW`, no statement or body in it.
  if (!/[;{}=#]/.test(body) && params.some((p) => new RegExp(`\\b${p}\\s*\\(`).test(body)))
    return { at, params, shape: 'declaration', body };
  return null;
}

/** The arguments of a call whose parentheses span `open`..`close` (exclusive), split at top-level commas. */
function argumentsOf(text: string, open: number, close: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let from = open + 1;
  for (let k = open + 1; k < close - 1; k++) {
    const c = text[k];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      args.push(text.slice(from, k).trim());
      from = k + 1;
    }
  }
  args.push(text.slice(from, close - 1).trim());
  return args;
}

function substitute(body: string, params: string[], args: string[]): string {
  return body.replace(/\b[A-Za-z_]\w*\b/g, (word) => {
    const i = params.indexOf(word);
    return i === -1 ? word : args[i]!;
  });
}

/**
 * `text` with the calls above expanded, or null when it has none. `code` says which offsets are code (not a comment,
 * string or preprocessor line); `closeOf` gives the end of a balanced parenthesis.
 */
export function expandMacroCalls(text: string, code: Uint8Array, closeOf: (open: number) => number): string | null {
  const defs = definitions(text);
  if (defs.size === 0) return null;
  // Any name before a parenthesis, looked up: one pass, where an alternation of every macro's name tried each at
  // every offset.
  const call = /\b([A-Za-z_]\w*)\s*\(/g;
  let out = '';
  let copied = 0;
  for (let m = call.exec(text); m; m = call.exec(text)) {
    const list = defs.get(m[1]!);
    if (!list || !code[m.index]) continue;
    const def = list.filter((d) => d.at < m!.index).at(-1);
    if (!def || def.body === '\0') continue;
    const open = m.index + m[0].length - 1;
    const close = closeOf(open);
    const args = argumentsOf(text, open, close);
    if (args.length !== def.params.length || /\n\s*\n/.test(text.slice(open, close))) continue;
    let expansion: string;
    if (def.shape === 'blank') expansion = '';
    else if (def.shape === 'paste') {
      if (!args.every((a) => /^\w*$/.test(a))) continue;
      expansion = def.body
        .split(/\s*##\s*/)
        .map((p) => {
          const i = def.params.indexOf(p);
          return i === -1 ? p : args[i]!;
        })
        .join('');
    } else {
      // Only a call that is a statement of its own: after `;`, `}` or the file's start, followed by `;`.
      if (!/^\s*;/.test(text.slice(close, close + 20)) || !startsStatement(text, code, m.index)) continue;
      expansion = substitute(def.body, def.params, args).replace(/\s+/g, ' ');
    }
    const span = text.slice(m.index, close);
    // Keep the span's line breaks (at its end), so the lines after it stay where they were.
    const breaks = span.replace(/[^\n]/g, '');
    const padded =
      expansion.length < span.length - breaks.length ? expansion.padEnd(span.length - breaks.length) : expansion;
    out += text.slice(copied, m.index) + padded + breaks;
    copied = close;
    call.lastIndex = close;
  }
  return copied === 0 ? null : out + text.slice(copied);
}

/** Whether the code before `at` ends a statement or declaration (`;`, `}`, `{` of a block, or nothing). */
function startsStatement(text: string, code: Uint8Array, at: number): boolean {
  for (let k = at - 1; k >= 0; k--) {
    if (!code[k] || /\s/.test(text[k]!)) continue;
    return text[k] === ';' || text[k] === '}' || text[k] === '{';
  }
  return true;
}

/**
 * The branches no compiler reads: an `#if 0` up to its `#else`, `#elif` or `#endif`, and the `#else` or `#elif` part
 * of an `#if 1` (curses.h defines `NCURSES_SP_NAME` in both branches of one).
 */
function deadRanges(text: string): [number, number][] {
  const out: [number, number][] = [];
  const stack: { constant: '0' | '1' | null; deadFrom: number | null }[] = [];
  // Each `#` that starts its line, then the directive there: a multiline regex tried at every offset of a big file
  // (sqlite3.c, 9 MB) cost a hundred milliseconds.
  const directive = /#[ \t]*(if|ifdef|ifndef|else|elif|endif)\b([^\n]*)/y;
  for (let hash = text.indexOf('#'); hash !== -1; hash = text.indexOf('#', hash + 1)) {
    let k = hash;
    while (k > 0 && (text[k - 1] === ' ' || text[k - 1] === '\t')) k--;
    if (k > 0 && text[k - 1] !== '\n') continue;
    directive.lastIndex = hash;
    const m = directive.exec(text);
    if (!m) continue;
    m.index = k;
    const word = m[1]!;
    if (word.startsWith('if')) {
      const constant =
        word === 'if' ? (/^\s*([01])\s*(?:\/[*/].*)?$/.exec(m[2]!)?.[1] as '0' | '1' | undefined) : undefined;
      stack.push({ constant: constant ?? null, deadFrom: constant === '0' ? m.index : null });
      continue;
    }
    const top = stack.at(-1);
    if (!top) continue;
    if (top.deadFrom !== null) out.push([top.deadFrom, m.index]);
    top.deadFrom = word !== 'endif' && top.constant === '1' ? m.index : null;
    if (word !== 'endif' && top.constant === '0') top.constant = null; // the branch after `#if 0` is read
    if (word === 'endif') stack.pop();
  }
  // In file order, overlaps (a dead branch inside another) merged.
  out.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of out) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}
