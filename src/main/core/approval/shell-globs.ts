/**
 * Pathname expansion as bash does it by default (docs/shell-analysis.md "Words after expansion"): `*`, `?` and `[…]`
 * on unquoted characters, matched per `/`-separated component against real directory listings; no dotglob (a name
 * starting with `.` needs a pattern starting with `.`), no nocaseglob, extglob or globstar; a glob that matches
 * nothing stays as written. Results keep the pattern's form (relative stays relative) and are sorted.
 * Limits: a `[` bracket expression supports ranges, `!`/`^` negation and POSIX classes (not equivalence classes or
 * collating symbols); more than MAX_WORDS matches make the word unknown (null).
 */
import { lstatSync, readdirSync } from 'node:fs';

export const MAX_WORDS = 256;

/** One character of a word and whether quoting made it literal (quoted characters never glob or brace-expand). */
export interface Ch {
  c: string;
  q: boolean;
}

/** One `/`-separated part of a glob word: a literal name, or a pattern as a RegExp. */
export type GlobComponent = { literal: string } | { pattern: RegExp; source: string; dotOk: boolean };

export function globComponents(chars: Ch[]): GlobComponent[] {
  const parts: Ch[][] = [[]];
  for (const ch of chars) {
    if (ch.c === '/') parts.push([]);
    else parts.at(-1)!.push(ch);
  }
  return parts.map((p) => {
    if (!p.some((ch) => !ch.q && (ch.c === '*' || ch.c === '?' || ch.c === '[')))
      return { literal: p.map((ch) => ch.c).join('') };
    const source = globRegex(p);
    return { pattern: new RegExp(`^${source}$`, 'su'), source, dotOk: p[0]?.c === '.' };
  });
}

const escapeRe = (c: string) => c.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
const escapeClass = (c: string) => c.replace(/[\\\]^-]/g, '\\$&');

function globRegex(p: Ch[]): string {
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const ch = p[i]!;
    if (ch.q) re += escapeRe(ch.c);
    else if (ch.c === '*') re += '.*';
    else if (ch.c === '?') re += '.';
    else if (ch.c === '[') {
      const bracket = bracketRegex(p, i);
      if (bracket) {
        re += bracket.re;
        i = bracket.end;
      } else re += '\\[';
    } else re += escapeRe(ch.c);
  }
  return re;
}

const CLASSES: Record<string, string> = {
  alpha: 'a-zA-Z',
  digit: '0-9',
  alnum: 'a-zA-Z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: '\\s',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f',
  word: '\\w',
  print: ' -~',
  graph: '!-~',
  cntrl: '\\x00-\\x1f\\x7f',
};

/** `[...]` from index `open`; null when it does not close (then `[` is literal, as in bash). */
function bracketRegex(p: Ch[], open: number): { re: string; end: number } | null {
  let i = open + 1;
  let negate = false;
  if (i < p.length && !p[i]!.q && (p[i]!.c === '!' || p[i]!.c === '^')) {
    negate = true;
    i++;
  }
  let body = '';
  let first = true;
  for (; i < p.length; i++) {
    const ch = p[i]!;
    if (!ch.q && ch.c === ']' && !first) return { re: `[${negate ? '^' : ''}${body}]`, end: i };
    first = false;
    if (!ch.q && ch.c === '[' && p[i + 1]?.c === ':') {
      const rest = p
        .slice(i + 2)
        .map((x) => x.c)
        .join('');
      const m = /^([a-z]+):\]/.exec(rest);
      if (m && CLASSES[m[1]!]) {
        body += CLASSES[m[1]!];
        i += 2 + m[0].length - 1;
        continue;
      }
    }
    if (!ch.q && ch.c === '-' && body !== '' && p[i + 1] && !(p[i + 1]!.c === ']' && !p[i + 1]!.q)) {
      body += '-';
      continue;
    }
    body += escapeClass(ch.c);
  }
  return null;
}

/** The paths a glob word matches, in bash's form (relative stays relative); null when over MAX_WORDS. */
export function globMatches(
  isAbsolute: boolean,
  components: GlobComponent[],
  cwds: readonly string[],
): string[] | null {
  const found = new Set<string>();
  const parts = isAbsolute ? components.slice(1) : components;
  for (const start of isAbsolute ? ['/'] : cwds) {
    // `seen`: the entry came out of a directory listing, so it exists; literal parts are checked at the end.
    let frontier: { dir: string; shown: string | null; seen: boolean }[] = [
      { dir: start, shown: isAbsolute ? '' : null, seen: true },
    ];
    for (const part of parts) {
      const next: typeof frontier = [];
      for (const f of frontier) {
        const step = (name: string, seen: boolean) => ({
          dir: f.dir.endsWith('/') ? f.dir + name : `${f.dir}/${name}`,
          shown: f.shown === null ? name : `${f.shown}/${name}`,
          seen,
        });
        if ('literal' in part) {
          next.push(step(part.literal, false));
          continue;
        }
        let names: string[];
        try {
          names = readdirSync(f.dir);
        } catch {
          continue;
        }
        for (const name of names)
          if ((part.dotOk || !name.startsWith('.')) && part.pattern.test(name)) next.push(step(name, true));
        if (next.length > MAX_WORDS) return null;
      }
      frontier = next;
    }
    for (const f of frontier) {
      if (f.shown === null) continue;
      if (!f.seen && !exists(f.dir)) continue;
      found.add(f.shown);
    }
    if (found.size > MAX_WORDS) return null;
  }
  return [...found].sort();
}

function exists(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false; // ENOTDIR: `file/` names no folder
  }
}

export interface WordEnv {
  /** The value of a variable the command will see, or undefined when it is not known. */
  variable(name: string): string | undefined;
  /** $HOME for `~`; null when not known. */
  home: string | null;
}
