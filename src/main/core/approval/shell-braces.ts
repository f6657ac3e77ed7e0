/**
 * Brace and tilde expansion of one word (docs/shell-analysis.md "Words after expansion"), on the word's characters
 * with their quoting (shell-words.ts lexes them): only unquoted braces and a leading unquoted `~` expand, as in bash.
 */
import { MAX_WORDS, type Ch, type WordEnv } from './shell-globs';

/** A piece the shell computes at run time; its text is kept for messages. */
export interface Opaque {
  opaque: string;
}
/** One character of a word (with whether it was quoted), or a piece only known at run time. */
export type Seg = Ch | Opaque;

export const isOpaque = (s: Seg): s is Opaque => 'opaque' in s;

/**
 * Brace groups one word may hold before it counts as unknown: each group is a level of the expansion below, holding
 * a copy of the word, so a word of 24,000 groups (a 120 KB command) took the process out of memory before the word
 * count's cap could stop it (docs/shell-analysis.md "Bad input"). Past 8 groups of two or more the cap says unknown
 * anyway; only single-valued sequences (`{1..1}`) could count more.
 */
export const MAX_BRACE_GROUPS = 12;

/** `{a,b}` and `{1..3}` on unquoted braces; null when the result would be over MAX_WORDS words or groups. */
export function braceExpand(word: Seg[], groups = 0): Seg[][] | null {
  const found = findBrace(word);
  if (!found) return [word];
  if (groups >= MAX_BRACE_GROUPS) return null;
  const { open, close, alternatives } = found;
  const out: Seg[][] = [];
  for (const alt of alternatives) {
    const expanded = braceExpand(word.slice(0, open).concat(alt, word.slice(close + 1)), groups + 1);
    if (expanded === null) return null;
    out.push(...expanded);
    if (out.length > MAX_WORDS) return null;
  }
  return out;
}

const plain = (s: Seg, c: string) => !isOpaque(s) && !s.q && s.c === c;

function findBrace(word: Seg[]): { open: number; close: number; alternatives: Seg[][] } | null {
  for (let open = 0; open < word.length; open++) {
    if (!plain(word[open]!, '{')) continue;
    let depth = 0;
    const commas: number[] = [];
    for (let i = open + 1; i < word.length; i++) {
      const s = word[i]!;
      if (plain(s, '{')) depth++;
      else if (plain(s, '}')) {
        if (depth > 0) {
          depth--;
          continue;
        }
        if (commas.length > 0) {
          const alternatives: Seg[][] = [];
          let from = open + 1;
          for (const comma of [...commas, i]) {
            alternatives.push(word.slice(from, comma));
            from = comma + 1;
          }
          return { open, close: i, alternatives };
        }
        const seq = sequence(word.slice(open + 1, i));
        if (seq) return { open, close: i, alternatives: seq };
        break;
      } else if (depth === 0 && plain(s, ',')) commas.push(i);
    }
  }
  return null;
}

/** `{1..5}`, `{01..10..3}`, `{a..e}` as bash generates them; null when the text is no sequence. */
function sequence(inner: Seg[]): Seg[][] | null {
  if (inner.some(isOpaque)) return null;
  const text = (inner as Ch[]).map((c) => c.c).join('');
  const num = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(text);
  const chr = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?$/.exec(text);
  const toSegs = (s: string): Seg[] => [...s].map((c) => ({ c, q: false }));
  if (num) {
    const [a, b] = [Number(num[1]), Number(num[2])];
    const step = Math.abs(Number(num[3] ?? 1)) || 1;
    const width = /^-?0\d/.test(num[1]!) || /^-?0\d/.test(num[2]!) ? Math.max(num[1]!.length, num[2]!.length) : 0;
    const out: Seg[][] = [];
    for (let v = a; a <= b ? v <= b : v >= b; v += a <= b ? step : -step) {
      out.push(
        toSegs(width ? `${v < 0 ? '-' : ''}${String(Math.abs(v)).padStart(width - (v < 0 ? 1 : 0), '0')}` : String(v)),
      );
      if (out.length > MAX_WORDS) return out; // the caller's cap turns this into "unknown"
    }
    return out;
  }
  if (chr) {
    const [a, b] = [chr[1]!.charCodeAt(0), chr[2]!.charCodeAt(0)];
    const step = Math.abs(Number(chr[3] ?? 1)) || 1;
    const out: Seg[][] = [];
    for (let v = a; a <= b ? v <= b : v >= b; v += a <= b ? step : -step) out.push(toSegs(String.fromCharCode(v)));
    return out;
  }
  return null;
}

/** An unquoted `~` or `~/…` at the start becomes $HOME; `~user`, `~+`, `~-` are not known. */
export function tildeExpand(word: Seg[], env: WordEnv): Seg[] {
  if (!plain(word[0] ?? { opaque: '' }, '~')) return word;
  let end = 1;
  while (end < word.length && !plain(word[end]!, '/')) end++;
  if (end > 1) return [{ opaque: '~user' }, ...word.slice(end)];
  if (env.home === null) return [{ opaque: '~' }, ...word.slice(1)];
  return [...[...env.home].map((c) => ({ c, q: true })), ...word.slice(1)];
}
