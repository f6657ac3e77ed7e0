/**
 * What bash makes of one word before the program sees it (docs/shell-analysis.md "Words after expansion"), so the
 * guards judge `s\ecrets`, `"sec"rets`, `sec''rets`, `$'\x73ecrets'`, `secre*`, `{a,secrets}` and `~/x` as the
 * paths they become. Modelled, in bash's order: brace expansion, tilde expansion, parameter expansion of simple
 * `$NAME` / `${NAME}` from the environment the command gets, pathname expansion (globs) against the file system,
 * and quote removal (backslash, '…', "…", $'…' with ANSI-C escapes, $"…").
 * Everything else the shell computes at run time (command and arithmetic substitution, `${X:-…}` and the other
 * operators, special and positional parameters, a variable after something in the command may have set it, a
 * variable whose value would be split or globbed) makes the word *unknown*: the caller then never treats it as
 * harmless.
 * Limits: globs follow bash's defaults (shell-globs.ts); brace and glob expansions are capped (MAX_WORDS), beyond
 * which the word is unknown.
 */
import type { Node } from 'web-tree-sitter';
import { globComponents, globMatches, MAX_WORDS, type Ch, type GlobComponent } from './shell-globs';
import { braceExpand, isOpaque, tildeExpand, type Seg } from './shell-braces';
import type { WordEnv } from './shell-globs';

export { MAX_WORDS, type GlobComponent } from './shell-globs';

export type { WordEnv };

export interface ExpandedWord {
  /** The words bash passes on (a brace or glob may make several); empty when unknown. */
  values: string[];
  /** False when some part is computed at run time: `values` is then empty and `raw` is all there is. */
  isKnown: boolean;
  raw: string;
  /** Unquoted glob patterns of this word (after brace/tilde/parameter expansion), one `/`-split list per word. */
  globs: GlobComponent[][];
}

/** Expands the word node `node` (any argument-like node of tree-sitter bash). `cwds`: where relative globs look. */
export function expandWord(node: Node, env: WordEnv, cwds: readonly string[]): ExpandedWord {
  return expandWords([node], env, cwds);
}

/**
 * Expands nodes that touch (no blank between them) as the one word bash sees: tree-sitter sometimes cuts a word in
 * two, as `$"…"` (a `$` and a string).
 */
export function expandWords(nodes: readonly Node[], env: WordEnv, cwds: readonly string[]): ExpandedWord {
  const raw = nodes.map((n) => n.text).join('');
  const segs: Seg[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    // `$"…"` (a translated string) reads as the string itself.
    if (node.type === '$' && nodes[i + 1]?.type === 'string') continue;
    lexNode(node, env, segs, false);
  }
  return finish(segs, raw, env, cwds);
}

/**
 * Groups a command's word nodes into bash words: nodes with nothing between them are one word, and so are nodes
 * separated only by backslash-newlines (`secre\⏎ts` is `secrets` to bash; the grammar makes two words of it).
 * `source` is the text the nodes index into, with `offset` its first index.
 */
export function groupWords(nodes: readonly Node[], source?: { text: string; offset: number }): Node[][] {
  const groups: Node[][] = [];
  for (const n of nodes) {
    const last = groups.at(-1);
    const prevEnd = last?.at(-1)!.endIndex ?? -1;
    const between = source && last ? source.text.slice(prevEnd - source.offset, n.startIndex - source.offset) : null;
    if (last && (prevEnd === n.startIndex || (between !== null && /^(\\\n)+$/.test(between)))) last.push(n);
    else groups.push([n]);
  }
  return groups;
}

/** The same for text that is not a node (here-document delimiters, words re-read from a string). */
export function expandText(text: string, env: WordEnv, cwds: readonly string[]): ExpandedWord {
  const segs: Seg[] = [];
  lexUnquoted(text, env, segs);
  return finish(segs, text, env, cwds);
}

function finish(segs: Seg[], raw: string, env: WordEnv, cwds: readonly string[]): ExpandedWord {
  try {
    return expandSegs(segs, raw, env, cwds);
  } catch {
    return { values: [], isKnown: false, raw, globs: [] }; // a pattern the model cannot read: never a guess
  }
}

function expandSegs(segs: Seg[], raw: string, env: WordEnv, cwds: readonly string[]): ExpandedWord {
  const unknown: ExpandedWord = { values: [], isKnown: false, raw, globs: [] };
  const braced = braceExpand(segs);
  if (braced === null) return unknown;
  const values: string[] = [];
  const globs: GlobComponent[][] = [];
  for (let word of braced) {
    word = tildeExpand(word, env);
    if (word.some(isOpaque)) return unknown;
    const chars = word as Ch[];
    if (chars.some((ch) => !ch.q && (ch.c === '*' || ch.c === '?' || ch.c === '['))) {
      const components = globComponents(chars);
      globs.push(components);
      const matches = components.some((c) => 'pattern' in c)
        ? globMatches(chars[0]?.c === '/', components, cwds)
        : null;
      if (matches === null) return unknown;
      if (matches.length > 0) {
        values.push(...matches);
        if (values.length > MAX_WORDS) return unknown;
        continue;
      }
    }
    values.push(chars.map((ch) => ch.c).join(''));
  }
  return { values, isKnown: true, raw, globs };
}

// ---------------------------------------------------------------------------------------------------------------
// Lexing: tree-sitter gives the word's boundaries and its quoted parts; the characters inside are read here by
// bash's rules. Children are walked by position so no text between them is lost.

function lexNode(node: Node, env: WordEnv, out: Seg[], inDouble: boolean): void {
  switch (node.type) {
    case 'word':
    case 'number':
    case 'brace_expression':
    case 'extglob_pattern':
      if (inDouble) pushChars(node.text, true, out);
      else lexUnquoted(node.text, env, out);
      return;
    case 'raw_string':
      pushChars(node.text.slice(1, -1), true, out);
      return;
    case 'ansi_c_string':
      pushChars(ansiC(node.text.slice(2, -1)), true, out);
      return;
    case 'string':
    case 'translated_string':
      lexDouble(node, env, out);
      return;
    case 'simple_expansion':
    case 'expansion':
      parameter(node.text, env, out, inDouble);
      return;
    case 'concatenation':
      lexChildren(node, env, out, inDouble);
      return;
    case '$':
      out.push({ c: '$', q: inDouble }); // a lone `$` before nothing it could expand is literal
      return;
    default:
      // command_substitution, process_substitution, arithmetic_expansion and anything unforeseen.
      out.push({ opaque: node.text });
  }
}

function lexChildren(node: Node, env: WordEnv, out: Seg[], inDouble: boolean): void {
  const text = node.text;
  const base = node.startIndex;
  let at = 0;
  const children = node.children;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (!child) continue;
    const start = child.startIndex - base;
    if (start > at) gap(text.slice(at, start), env, out, inDouble);
    at = child.endIndex - base;
    if (child.type === '$' && children[i + 1]?.type === 'string' && children[i + 1]!.startIndex === child.endIndex)
      continue; // $"…"
    lexNode(child, env, out, inDouble);
  }
  if (at < text.length) gap(text.slice(at), env, out, inDouble);
}

function gap(text: string, env: WordEnv, out: Seg[], inDouble: boolean): void {
  if (inDouble) lexDoubleText(text, out);
  else lexUnquoted(text, env, out);
}

/** A "…" string: its text pieces between the expansion children, with the backslash rules of double quotes. */
function lexDouble(node: Node, env: WordEnv, out: Seg[]): void {
  const text = node.text;
  const open = text.startsWith('$"') ? 2 : 1;
  const base = node.startIndex;
  let at = open;
  const end = text.endsWith('"') && text.length > open ? text.length - 1 : text.length;
  for (const child of node.children) {
    if (!child || child.type === '"' || child.type === '$"') continue;
    const start = child.startIndex - base;
    if (start < at) continue;
    if (start > at) lexDoubleText(text.slice(at, start), out);
    if (child.type === 'string_content') lexDoubleText(child.text, out);
    else lexNode(child, env, out, true);
    at = child.endIndex - base;
  }
  if (at < end) lexDoubleText(text.slice(at, end), out);
}

/** Inside double quotes a backslash escapes only $ ` " \ and a newline (which it removes). */
function lexDoubleText(text: string, out: Seg[]): void {
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      const n = text[i + 1]!;
      if (n === '\n') {
        i++;
        continue;
      }
      if ('$`"\\'.includes(n)) {
        out.push({ c: n, q: true });
        i++;
        continue;
      }
    }
    if (c === '`' || (c === '$' && i + 1 < text.length && /[({A-Za-z_0-9@*#?$!-]/.test(text[i + 1]!))) {
      out.push({ opaque: text.slice(i) }); // an expansion tree-sitter did not mark: never guess its value
      return;
    }
    out.push({ c, q: true });
  }
}

/** Unquoted text: backslash quotes the next character (a backslash-newline disappears); quotes open strings. */
function lexUnquoted(text: string, env: WordEnv, out: Seg[]): void {
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') {
      if (i + 1 >= text.length) {
        out.push({ c, q: true });
        continue;
      }
      const n = text[++i]!;
      if (n !== '\n') out.push({ c: n, q: true });
      continue;
    }
    if (c === "'") {
      const close = text.indexOf("'", i + 1);
      if (close === -1) return void out.push({ opaque: text.slice(i) });
      pushChars(text.slice(i + 1, close), true, out);
      i = close;
      continue;
    }
    if (c === '$' && text[i + 1] === "'") {
      const close = ansiEnd(text, i + 2);
      if (close === -1) return void out.push({ opaque: text.slice(i) });
      pushChars(ansiC(text.slice(i + 2, close)), true, out);
      i = close;
      continue;
    }
    if (c === '"' || (c === '$' && text[i + 1] === '"')) {
      const start = c === '$' ? i + 2 : i + 1;
      const close = doubleEnd(text, start);
      if (close === -1) return void out.push({ opaque: text.slice(i) });
      lexDoubleText(text.slice(start, close), out);
      i = close;
      continue;
    }
    if (c === '`' || (c === '$' && i + 1 < text.length && /[({A-Za-z_0-9@*#?$!-]/.test(text[i + 1]!))) {
      const name = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/.exec(text.slice(i));
      if (name) {
        parameter(name[0], env, out, false);
        i += name[0].length - 1;
        continue;
      }
      return void out.push({ opaque: text.slice(i) });
    }
    out.push({ c, q: false });
  }
}

function pushChars(text: string, q: boolean, out: Seg[]): void {
  for (const c of text) out.push({ c, q });
}

function ansiEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === "'") return i;
  }
  return -1;
}

function doubleEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** The body of $'…' as bash decodes it; a NUL ends the string (bash drops the rest). */
export function ansiC(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\' || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const n = body[++i]!;
    let code: number | null = null;
    if (n in SIMPLE_ESCAPES) {
      out += SIMPLE_ESCAPES[n];
      continue;
    }
    if (/[0-7]/.test(n)) {
      const m = /^[0-7]{1,3}/.exec(body.slice(i))![0];
      code = parseInt(m, 8) & 0xff;
      i += m.length - 1;
    } else if (n === 'x') {
      const m = /^[0-9A-Fa-f]{1,2}/.exec(body.slice(i + 1));
      if (!m) {
        out += '\\x';
        continue;
      }
      code = parseInt(m[0], 16);
      i += m[0].length;
    } else if (n === 'u' || n === 'U') {
      const m = (n === 'u' ? /^[0-9A-Fa-f]{1,4}/ : /^[0-9A-Fa-f]{1,8}/).exec(body.slice(i + 1));
      if (!m) {
        out += `\\${n}`;
        continue;
      }
      code = parseInt(m[0], 16);
      i += m[0].length;
      if (code > 0x10ffff) code = 0xfffd;
    } else if (n === 'c' && i + 1 < body.length) {
      code = body.charCodeAt(++i) & 0x1f;
    } else {
      out += `\\${n}`;
      continue;
    }
    if (code === 0) return out;
    out += String.fromCodePoint(code);
  }
  return out;
}

/** `$NAME` / `${NAME}` from the environment; anything else, or an unset or unknown value, is opaque. */
function parameter(text: string, env: WordEnv, out: Seg[], inDouble: boolean): void {
  const m = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))$/.exec(text);
  const value = m ? env.variable(m[1] ?? m[2]!) : undefined;
  // Unquoted, a value is split into words and globbed again: only a plain value is taken as it is.
  if (value === undefined || (!inDouble && /[\s*?[\]{}\\'"$`~]/.test(value))) return void out.push({ opaque: text });
  pushChars(value, true, out);
}
