/**
 * C and C++ headers lean on macros a parser without the preprocessor cannot expand: `SQLITE_API int f(void);`,
 * `extern int f (void) __THROW __nonnull ((1));`, zlib's `ZEXTERN int ZEXPORT deflate`. tree-sitter reads each as a
 * syntax error and its recovery drops declarations. When a C or C++ tree has errors, the outline parses the text
 * again with such macros replaced by spaces (offsets and lines unchanged, so names and signatures still come from the
 * real text) and keeps that outline if it has fewer errors; the answer still says the file does not parse as read
 * and marks the outline partial (docs/outline.md "A file that does not parse"). What is blanked, outside comments,
 * strings and preprocessor lines (the lines of an `#if 0` branch count as a comment):
 * - names the file `#define`s empty, or as nothing but storage words and attributes;
 * - `__attribute__((…))`, `__declspec(…)`, `__asm__(…)` and the reserved-name attribute macros of system headers
 *   (`__THROW`, `__wur`, `__nonnull ((1))`, `__attribute_pure__`, `__BEGIN_DECLS` …);
 * - prototype wrappers (`name OF((int a))`, `__P((…))`): the macro and its outer parentheses;
 * - ALL_CAPS calls after a parameter list (`) GCC_PRINTFLIKE(3,4);`), whole; ALL_CAPS calls around a name or a type
 *   before a parameter list (`BZ_API(name) (`, `NCURSES_EXPORT(int) name (`): the macro and its parentheses;
 * - an ALL_CAPS word that starts a declaration of a function (`WORD type name(`), or stands between a type word and
 *   a function's name (`int WORD name(`) or between a `*` and a name (`char * WORD name;`), or alone on its line.
 */

import { expandMacroCalls } from './c-macro-calls';

const STORAGE = /^(?:extern|static|inline|__inline|__inline__|__forceinline|const|volatile)$/;
const ATTRIBUTE_CALL = /\b(?:__attribute__|__attribute|__declspec|__asm__|__asm|asm)\s*\(/g;
/** Reserved names (two underscores, or one and a capital) used as attribute-like macros by system headers. */
const RESERVED_WORD =
  /\b__(?:THROW|THROWNL|wur|BEGIN_DECLS|END_DECLS|extension__|restrict|glibc_\w+|attribute_\w+__|attr_\w+|nonnull|fortified_attr_access|LEAF|NTH|NTHNL|REDIRECT_\w*|cold|nonstring|warnattr|errordecl|always_inline|fortify_function|extern_inline|extern_always_inline|inline|flexarr|THROW_NL|COLD)\b(\s*\()?/g;
const REDIRECT = /\b__REDIRECT(?:_NTH|_NTHNL|_LDBL|_NTH_LDBL)?\s*\(/g;
const TYPE_WORD = /(?:\b(?:void|char|short|int|long|float|double|signed|unsigned|bool|_Bool|size_t|const)|\*)\s*$/;
/** A word after which a name is not a type's: `static FOO name(` keeps FOO (a type in capitals). */
const KEYWORD_BEFORE = new Set(
  'extern static inline __inline __inline__ const volatile struct union enum typedef return register auto signed unsigned case goto sizeof else'.split(
    ' ',
  ),
);
const CAPS = /\b_*[A-Z][A-Z0-9_]{2,}\b/g;
const WRAPPER = /(\w\s*)\b(?:OF|_Z_OF|__P|__PMT|_ANSI_ARGS_|PROTO|_PROTO|PARAMS|ARGS|Z_ARG)\s*\(\(/g;

/** `text` with the macros above replaced by spaces (newlines kept), or null when nothing was blanked. */
export function blankMacros(source: string): string | null {
  // The file's own function-like macros first (`c-macro-calls.ts`): what they expand to is then read as written.
  const sourceCode = codeMask(source);
  const expanded = expandMacroCalls(source, sourceCode, (open) => closeParen(source, open));
  const text = expanded ?? source;
  const out = text.split('');
  let changed = expanded !== null;
  const code = expanded === null ? sourceCode : codeMask(text);
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
    changed = true;
  };
  const closeOf = (open: number): number => closeParen(text, open);
  // `#if 0` branches are dead code: blanked whole (their braces need not balance).
  const deadIf = /^[ \t]*#[ \t]*if[ \t]+0\b[^\n]*\n/gm;
  for (let m = deadIf.exec(text); m; m = deadIf.exec(text)) {
    const from = m.index + m[0].length;
    blank(from, deadBlockEnd(text, m.index));
  }
  // `#ifdef __cplusplus` `extern "C" {` `#endif` and its closing `}` later: braces that balance only across two
  // blocks, which no parse of both branches can read. Blanked when that is all the block holds.
  const cplusplus =
    /^[ \t]*#[ \t]*if(?:def[ \t]+__cplusplus|[ \t]+defined[ \t]*\(?[ \t]*__cplusplus[ \t]*\)?)[^\n]*\n/gm;
  for (let m = cplusplus.exec(text); m; m = cplusplus.exec(text)) {
    const from = m.index + m[0].length;
    const to = deadBlockEnd(text, m.index);
    const body = text
      .slice(from, to)
      .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|^[ \t]*#[^\n]*$/gm, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (/^(?:extern "C" \{|\})$/.test(body) || /^extern "C" \{ \}$/.test(body)) blank(from, to);
  }
  for (const name of definedAway(text)) {
    const word = new RegExp(`\\b${name}\\b`, 'g');
    for (let m = word.exec(text); m; m = word.exec(text)) if (code[m.index]) blank(m.index, m.index + name.length);
  }
  // glibc's `__REDIRECT (name, (params), alias)` declares `name (params)`: the macro, the comma and the alias go.
  REDIRECT.lastIndex = 0;
  for (let m = REDIRECT.exec(text); m; m = REDIRECT.exec(text)) {
    if (!code[m.index]) continue;
    const open = m.index + m[0].length - 1;
    const close = closeOf(open);
    const inner = /^\(\s*[A-Za-z_]\w*\s*(,)\s*\(/.exec(text.slice(open, close));
    if (!inner) continue;
    const protoOpen = open + inner[0].length - 1;
    const protoClose = closeOf(protoOpen);
    if (protoClose >= close) continue;
    blank(m.index, open + 1);
    blank(open + inner[0].indexOf(','), open + inner[0].indexOf(',') + 1);
    blank(protoClose, close);
  }
  for (const pattern of [ATTRIBUTE_CALL, RESERVED_WORD]) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      if (!code[m.index] || out[m.index] !== text[m.index]) continue; // not code, or already read (`__REDIRECT`)
      const hasCall = m[0].endsWith('(');
      blank(m.index, hasCall ? closeOf(m.index + m[0].length - 1) : m.index + m[0].length);
    }
  }
  // Old prototype wrappers: `name OF((int a))`, `name __P((int a))`: the macro and its outer parentheses.
  WRAPPER.lastIndex = 0;
  for (let m = WRAPPER.exec(text); m; m = WRAPPER.exec(text)) {
    const at = m.index + m[1]!.length;
    if (!code[at]) continue;
    const open = text.indexOf('(', at);
    const close = closeOf(open);
    blank(at, open + 1);
    blank(close - 1, close);
  }
  CAPS.lastIndex = 0;
  for (let m = CAPS.exec(text); m; m = CAPS.exec(text)) {
    if (!code[m.index]) continue;
    const end = m.index + m[0].length;
    const call = /^\s*\(/.exec(text.slice(end, end + 40));
    if (call) {
      const open = end + call[0].length - 1;
      const close = closeOf(open);
      const before = previousCode(out, code, m.index);
      // After a parameter list: an attribute-like call (`) GCC_PRINTFLIKE(3,4);`, or several, with comments between
      // them), gone whole.
      if (before === ')' && /^[;{,]/.test(nextCodeAfterCalls(text, code, close))) blank(m.index, close);
      // A wrapped name or type (`BZ_API(name) (`, `NCURSES_EXPORT(int) name (`): the macro and its parentheses.
      else if (
        /^\(\s*[A-Za-z_][\w\s*]*\)$/.test(text.slice(open, close)) &&
        /^\s*(?:[A-Za-z_]\w*\s*)?\(/.test(text.slice(close, close + 80))
      ) {
        blank(m.index, open + 1);
        blank(close - 1, close);
      }
      // Alone on its line inside a declaration, between its type and its name (expat's `XML_ATTR_ALLOC_SIZE(2)`
      // under `XMLPARSEAPI(void *)`): an attribute, gone whole.
      else if (
        before !== '' &&
        before !== ';' &&
        before !== '}' &&
        /^[ \t]*$/.test(text.slice(text.lastIndexOf('\n', m.index - 1) + 1, m.index)) &&
        /^[ \t]*(?:\n|$)/.test(text.slice(close, close + 80)) &&
        /^[A-Za-z_]\w*\s*\(/.test(nextCodeAfterCalls(text, code, close))
      )
        blank(m.index, close);
      continue;
    }
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 200);
    const lineStart = text.lastIndexOf('\n', m.index - 1) + 1;
    const before = text.slice(lineStart, m.index);
    const startsDeclaration =
      /^\s*(?:(?:static|extern|inline|__inline)\s+)*$/.test(before) &&
      /^\s+(?:[A-Za-z_]\w*[\s*]+)+[A-Za-z_]\w*\s*\(/.test(after);
    // `int WORD name(`, and `uLong ZEXPORT crc32 OF((` where the type is itself a name the parser cannot know: two
    // names in a row before a parameter list, the first not a keyword (nor a macro: `BZ_EXTERN BZFILE * BZ_API(f)`),
    // can only have a macro between them.
    const word = lastWord(before);
    const typeBefore = TYPE_WORD.test(before) || (word !== null && /[a-z]/.test(word) && !KEYWORD_BEFORE.has(word));
    const betweenTypeAndName = typeBefore && /^\s+\**\s*[A-Za-z_]\w*\s*(?:[A-Z_]\w*\s*)?\(/.test(after);
    const alone = /^\s*$/.test(before) && /^[ \t]*(?:\n|$)/.test(after);
    // `type * WORD name`: two names after a `*` only when the first is a qualifier macro (PNG_RESTRICT).
    const qualifier = /\*\s*$/.test(before) && /^\s+\**\s*[A-Za-z_]\w*\s*[;,)([]/.test(after);
    if (startsDeclaration || betweenTypeAndName || alone || qualifier) blank(m.index, m.index + m[0].length);
  }
  return changed ? out.join('') : null;
}

/** The last word of `text` when whitespace follows it (`uLong` in `ZEXTERN uLong `), else null; no regex: one anchored
 * at the end would be tried from every offset of the line. */
function lastWord(text: string): string | null {
  let end = text.length;
  while (end > 0 && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
  if (end === text.length) return null;
  let start = end;
  while (start > 0 && /\w/.test(text[start - 1]!)) start--;
  return start < end ? text.slice(start, end) : null;
}

/** From an opening parenthesis at `open`, the index after its balanced close. */
function closeParen(text: string, open: number): number {
  let depth = 0;
  for (let k = open; k < text.length; k++) {
    const c = text[k];
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return k + 1;
  }
  return text.length;
}

/**
 * From `at`, the first code that is not blank, a comment or an ALL_CAPS call (`GCC_PRINTFLIKE(2,0)`): a few
 * characters of it ('' at the end of the text).
 */
function nextCodeAfterCalls(text: string, code: Uint8Array, at: number): string {
  let k = at;
  while (k < text.length) {
    if (!code[k] || /\s/.test(text[k]!)) {
      k++;
      continue;
    }
    const call = /^_*[A-Z][A-Z0-9_]{2,}\s*\(/.exec(text.slice(k, k + 80));
    if (!call) return text.slice(k, k + 80);
    k = closeParen(text, k + call[0].length - 1);
  }
  return '';
}

/** The last character before `at` that is code and not blank, in the text as blanked so far ('' at the start). */
function previousCode(out: readonly string[], code: Uint8Array, at: number): string {
  for (let k = at - 1; k >= 0; k--) if (code[k] && out[k] !== ' ' && out[k] !== '\t' && out[k] !== '\n') return out[k]!;
  return '';
}

/** Names `#define`d as nothing, or as only storage words, other such names and attributes. */
function definedAway(text: string): Set<string> {
  const names = new Set<string>();
  const define = /^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?![\w(])[ \t]*([^\n]*)$/gm;
  for (let m = define.exec(text); m; m = define.exec(text)) {
    const body = m[2]!.replace(/\/\*.*?\*\/|\/\/.*$/g, '').trim();
    const words = body
      .replace(/__attribute__\s*\(\(.*\)\)|__declspec\s*\([^)]*\)/g, ' ')
      .split(/\s+/)
      .filter(Boolean);
    if (words.every((w) => STORAGE.test(w) || names.has(w))) names.add(m[1]!);
  }
  return names;
}

/** From an `#if 0` line, the start of the line that ends its dead branch (`#else`, `#elif` or its `#endif`). */
function deadBlockEnd(text: string, from: number): number {
  const directive = /^[ \t]*#[ \t]*(if|ifdef|ifndef|else|elif|endif)\b/gm;
  directive.lastIndex = text.indexOf('\n', from) + 1;
  let depth = 0;
  for (let m = directive.exec(text); m; m = directive.exec(text)) {
    const word = m[1]!;
    if (word.startsWith('if')) depth++;
    else if (depth === 0) return m.index;
    else if (word === 'endif') depth--;
  }
  return text.length;
}

/** For each offset: true when it is code (not in a comment, a string or character literal, or a preprocessor line). */
function codeMask(text: string): Uint8Array {
  const mask = new Uint8Array(text.length);
  let k = 0;
  let lineStart = true;
  while (k < text.length) {
    const c = text[k]!;
    if (c === '\n') {
      lineStart = true;
      k++;
      continue;
    }
    if (lineStart && c === '#' && /^#\s*if\s+0\b/.test(text.slice(k, k + 12))) {
      // `#if 0`: dead code, read as such (its braces need not balance: `extern "C" {` … `#if 0` `}` `#endif`).
      k = deadBlockEnd(text, k);
      continue;
    }
    if (lineStart && c === '#') {
      // A preprocessor line, with its continuations.
      while (k < text.length && !(text[k] === '\n' && text[k - 1] !== '\\')) k++;
      continue;
    }
    if (c !== ' ' && c !== '\t') lineStart = false;
    if (c === '/' && text[k + 1] === '*') {
      const end = text.indexOf('*/', k + 2);
      k = end === -1 ? text.length : end + 2;
      continue;
    }
    if (c === '/' && text[k + 1] === '/') {
      while (k < text.length && text[k] !== '\n') k++;
      continue;
    }
    if (c === '"' || c === "'") {
      k++;
      while (k < text.length && text[k] !== c && text[k] !== '\n') k += text[k] === '\\' ? 2 : 1;
      k++;
      continue;
    }
    mask[k] = 1;
    k++;
  }
  return mask;
}
