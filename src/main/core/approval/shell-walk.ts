/**
 * The walk of a parsed command line (docs/shell-analysis.md): each simple command's words expanded and kept for the
 * guards, its parts (with those of the commands a wrapper runs), what it changes (`cd`, variables), and every
 * construct that makes it unsafe. `shell.ts` runs it over the grammar's tree, or over a plain line's words.
 */
import type { Node } from 'web-tree-sitter';
import { isAbsolute, resolve } from 'node:path';
import { runsThroughOptions } from './shell-option-exec';
import { EVALUATES_ARITHMETIC, FIND_EXEC, innerOf, RUNS_ANOTHER, SETS_VARIABLES, SHELLS } from './shell-wrappers';
import { ansiC, expandWords, groupWords, type ExpandedWord, type WordEnv } from './shell-words';

export interface ShellWord {
  word: ExpandedWord;
  /** The working directories a relative value is relative to (more than one after a `cd`). */
  cwds: string[];
  role: 'name' | 'argument' | 'redirect' | 'assignment';
}

export interface ShellAnalysis {
  /** False when the text did not parse cleanly (then `parts` come from a rough split, for deny/require only). */
  parsed: boolean;
  /** Each simple command as its expanded words joined by single spaces (plus the commands wrappers run). */
  parts: string[];
  /** Why this command may not be auto-allowed by a rule; empty when it may. */
  unsafe: string[];
  /** Every word of every command, assignment and redirect, after expansion (empty when not parsed). */
  words: ShellWord[];
}

/** Judges one redirect target (already resolved to an absolute path against the workdir); true = harmless. */
export type RedirectCheck = (target: string) => boolean;

const CONTAINERS = new Set([
  'program',
  'list',
  'pipeline',
  'subshell',
  'compound_statement',
  'negated_command',
  'do_group',
]);
const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);
const STATEMENTS = new Set([
  ...CONTAINERS,
  'command',
  'redirected_statement',
  'variable_assignment',
  'variable_assignments',
  'declaration_command',
  'unset_command',
  'if_statement',
  'elif_clause',
  'else_clause',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'case_statement',
  'case_item',
  'function_definition',
  'test_command',
  'file_redirect',
  'heredoc_redirect',
  'herestring_redirect',
]);
const WORDISH = new Set([
  'word',
  'string',
  'raw_string',
  'ansi_c_string',
  'translated_string',
  'concatenation',
  'simple_expansion',
  'expansion',
  'number',
]);
export const MAX_DEPTH = 3;

export interface Walk {
  out: ShellAnalysis;
  redirectOk: RedirectCheck;
  workdir: string;
  cwds: string[];
  /** A `cd` the analysis could not follow: relative paths after it are unknown. */
  isCwdLost: boolean;
  /** Something may have set variables: their environment values no longer hold. */
  areVarsChanged: boolean;
  depth: number;
  /** Read without the grammar (a plain command line): shell text handed to a shell sends it to the grammar. */
  isPlain?: boolean;
}

/** What the walk asks of the analyzer: shell text a wrapper runs, and the environment words expand in. */
export interface WalkHost {
  analyzeInner(script: string, w: Walk): void;
  wordEnv(w: Walk): WordEnv;
}

export function newWalk(workdir: string, redirectOk: RedirectCheck): Walk {
  return {
    out: { parsed: true, parts: [], unsafe: [], words: [] },
    redirectOk,
    workdir,
    cwds: [workdir],
    isCwdLost: false,
    areVarsChanged: false,
    depth: 0,
  };
}

export function finishWalk(w: Walk): ShellAnalysis {
  if (w.out.parts.length === 0) w.out.unsafe.push('no command found');
  w.out.unsafe = [...new Set(w.out.unsafe)];
  return w.out;
}

export function visit(node: Node, w: Walk, a: WalkHost): void {
  const type = node.type;
  if (type === 'comment') return;
  if (CONTAINERS.has(type)) {
    for (const child of node.namedChildren) if (child) visit(child, w, a);
    return;
  }
  if (type === 'redirected_statement') {
    const body = node.childForFieldName('body');
    if (body) visit(body, w, a);
    for (const r of node.childrenForFieldName('redirect')) if (r) checkRedirect(r, w, a);
    return;
  }
  if (type === 'command') return addCommand(node, w, a);
  if (type === 'file_redirect' || type === 'heredoc_redirect' || type === 'herestring_redirect')
    return checkRedirect(node, w, a);
  if (
    type === 'variable_assignment' ||
    type === 'variable_assignments' ||
    type === 'declaration_command' ||
    type === 'unset_command'
  ) {
    w.out.unsafe.push(`a variable assignment (${node.text.slice(0, 40)})`);
  } else {
    w.out.unsafe.push(type.replace(/_/g, ' ')); // control flow, functions, tests: their insides are not judged part by part
  }
  w.out.parts.push(node.text.replace(/\s+/g, ' '));
  // Still look inside: the commands there are parts a deny must catch, and their words go to the guards.
  inside(node, w, a);
  w.areVarsChanged = true; // loops and declarations set variables
}

function inside(node: Node, w: Walk, a: WalkHost): void {
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (STATEMENTS.has(child.type)) visit(child, w, a);
    else if (WORDISH.has(child.type))
      w.out.words.push({ word: expandWords([child], a.wordEnv(w), w.cwds), cwds: [...w.cwds], role: 'argument' });
    else inside(child, w, a);
  }
}

function addCommand(cmd: Node, w: Walk, a: WalkHost): void {
  for (const c of cmd.namedChildren) {
    if (c?.type === 'variable_assignment') {
      w.out.unsafe.push(`an environment assignment (${c.text.slice(0, 40)})`);
      const value = c.childForFieldName('value');
      if (value)
        w.out.words.push({ word: expandWords([value], a.wordEnv(w), w.cwds), cwds: [...w.cwds], role: 'assignment' });
    } else if (c && (c.type === 'file_redirect' || c.type === 'herestring_redirect' || c.type === 'heredoc_redirect'))
      checkRedirect(c, w, a);
  }
  const nameNode = cmd.childForFieldName('name');
  const env = a.wordEnv(w);
  const groups: Node[][] = [];
  if (nameNode) groups.push(nameNode.children.filter((n): n is Node => n !== null));
  groups.push(
    ...groupWords(
      cmd.childrenForFieldName('argument').filter((n): n is Node => n !== null),
      { text: cmd.text, offset: cmd.startIndex },
    ),
  );
  addWords(
    groups.map((g) => expandWords(g, env, w.cwds)),
    nameNode !== null,
    w,
    a,
    env,
  );
}

/** A simple command's expanded words: kept for the guards, then its parts and what it changes (`cd`, variables). */
export function addWords(
  expanded: readonly ExpandedWord[],
  hasName: boolean,
  w: Walk,
  a: WalkHost,
  env: WordEnv,
): void {
  const words: string[] = [];
  expanded.forEach((word, i) => {
    w.out.words.push({ word, cwds: [...w.cwds], role: i === 0 && hasName ? 'name' : 'argument' });
    if (word.isKnown) words.push(...word.values);
    else {
      words.push(word.raw);
      w.out.unsafe.push(
        i === 0 && hasName
          ? 'a command name built from an expansion'
          : `a word only known when it runs (${word.raw.slice(0, 40)})`,
      );
    }
  });
  if (words.length === 0) return;
  addParts(words, w, a, 0);
  const base = words[0]!.split('/').at(-1) ?? '';
  if (EVALUATES_ARITHMETIC.has(base) && words.slice(1).some((v) => v.includes('$(') || v.includes('`'))) {
    w.out.unsafe.push(`"${base}" may evaluate $(…) inside an arithmetic or subscript argument`);
  }
  if (base === 'cd' || base === 'pushd' || base === 'popd') followCd(base, words.slice(1), w, env);
  if (SETS_VARIABLES.has(base)) w.areVarsChanged = true;
}

/** One part for the command, one for its basename when run by path, and those of the commands a wrapper runs. */
function addParts(words: string[], w: Walk, a: WalkHost, depth: number): void {
  w.out.parts.push(words.join(' '));
  const name = words[0]!;
  const base = name.split('/').at(-1) ?? name;
  if (base !== name && base !== '') w.out.parts.push([base, ...words.slice(1)].join(' '));
  if (SHELLS.has(base)) w.out.unsafe.push(`a shell interpreter (${base})`);
  if (RUNS_ANOTHER.has(base)) w.out.unsafe.push(`"${base}" runs another command`);
  if (base === 'find' && words.some((v) => FIND_EXEC.has(v) || v === '-delete'))
    w.out.unsafe.push('find with -exec/-delete');
  const viaOption = runsThroughOptions(words);
  if (viaOption) w.out.unsafe.push(viaOption);
  if (depth >= MAX_DEPTH) return;
  const inner = innerOf(words);
  for (const c of inner.commands) if (c.length) addParts(c, w, a, depth + 1);
  for (const s of inner.scripts) a.analyzeInner(s, w);
}

/**
 * Places a command's relative paths may be relative to, at most: each `cd` keeps the old ones (`cd x || …`), and
 * every later word is judged against each, so a chain of 15,000 `cd a &&` held the gate for minutes. A command that
 * would need more is unsafe (docs/shell-analysis.md "Bad input").
 */
export const MAX_CWDS = 16;

/** `cd DIR` adds DIR to the places later relative paths may be relative to (the old one stays: `cd x || …`). */
function followCd(name: string, args: string[], w: Walk, env: WordEnv): void {
  if (w.cwds.length >= MAX_CWDS) {
    w.out.unsafe.push(`more places a cd could lead to than the gate follows (${MAX_CWDS})`);
    w.isCwdLost = true;
    return;
  }
  let i = 0;
  while (i < args.length && /^-[LPe@]+$/.test(args[i]!)) i++;
  if (args[i] === '--') i++;
  const operands = args.slice(i);
  const target =
    name === 'cd' && operands.length === 0
      ? env.home
      : name === 'popd' || operands[0] === '-' || operands.length !== 1
        ? null
        : operands[0]!;
  if (target === null || target === undefined) {
    w.isCwdLost = true;
    return;
  }
  const next = w.cwds.map((c) => (isAbsolute(target) ? resolve(target) : resolve(c, target)));
  w.cwds = [...new Set([...w.cwds, ...next])];
}

function checkRedirect(r: Node, w: Walk, a: WalkHost): void {
  if (r.type === 'heredoc_redirect') return checkHeredoc(r, w, a);
  if (r.type === 'herestring_redirect') return; // input only; substitutions in it are found by the tree scan
  const dest = r.childForFieldName('destination');
  if (!dest) return;
  const op = r.children.find((c) => c && !c.isNamed)?.text ?? '>';
  // `2>&1`, `>&2`, `<&0`: a file descriptor, not a file.
  if (/&$/.test(op) && /^[0-9]+-?$|^-$/.test(dest.text)) return;
  const word = expandWords(
    groupWords(r.childrenForFieldName('destination').filter((n): n is Node => n !== null))[0] ?? [dest],
    a.wordEnv(w),
    w.cwds,
  );
  w.out.words.push({ word, cwds: [...w.cwds], role: 'redirect' });
  const isRead = op === '<' || op === '<&';
  if (isRead) return;
  if (!word.isKnown || word.values.length !== 1 || word.globs.length > 0) {
    w.out.unsafe.push(`a redirect to a computed target (${dest.text.slice(0, 60)})`);
    return;
  }
  const value = word.values[0]!;
  if (HARMLESS_TARGETS.has(value)) return;
  if (!isAbsolute(value) && w.isCwdLost)
    return void w.out.unsafe.push(`a redirect after a cd the gate cannot follow (${value.slice(0, 60)})`);
  for (const cwd of isAbsolute(value) ? ['/'] : w.cwds) {
    if (!w.redirectOk(resolve(cwd, value)))
      return void w.out.unsafe.push(`a redirect out of the workspace or into a protected path (${value.slice(0, 60)})`);
  }
}

/**
 * A here-document ends at the first line equal to its delimiter after quote removal (`<<E"O"F` ends at `EOF`),
 * which the grammar does not always follow: if a body line could end it for bash, or its end line is not one
 * bash would accept, the text after it may run unseen. An unquoted delimiter means `$(…)` and backticks in the
 * body run: they are unsafe, and the commands in them are parts.
 */
function checkHeredoc(r: Node, w: Walk, a: WalkHost): void {
  const start = r.children.find((c) => c?.type === 'heredoc_start');
  if (!start) return void w.out.unsafe.push('a here-document without a delimiter');
  const raw = start.text;
  const isQuoted = /['"\\]/.test(raw);
  const ends = delimiterSpellings(raw);
  const stripsTabs = r.children.some((c) => c && !c.isNamed && c.text === '<<-');
  const norm = (line: string) => (stripsTabs ? line.replace(/^\t+/, '') : line);
  const body = r.children.find((c) => c?.type === 'heredoc_body');
  const end = r.children.find((c) => c?.type === 'heredoc_end');
  const bodyLines = (body?.text ?? '').split('\n');
  if (bodyLines.some((l) => ends.has(norm(l))) || (end && !ends.has(norm(end.text)))) {
    w.out.unsafe.push('a here-document whose end bash would find elsewhere');
    return;
  }
  if (isQuoted || !body) return;
  const text = body.text;
  if (/\$\(|`/.test(text)) w.out.unsafe.push('command substitution in a here-document');
  // Backticks in a body are not parsed by the grammar: read them here so a deny sees the commands inside.
  for (const m of text.matchAll(/`((?:[^`\\]|\\.)*)`/gs)) a.analyzeInner(m[1]!.replace(/\\([`$\\])/g, '$1'), w);
}

/** The lines that may end a here-document started with `raw`: its quote-removed form, and the raw text itself. */
function delimiterSpellings(raw: string): Set<string> {
  let removed = '';
  let decoded = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\' && i + 1 < raw.length) {
      removed += raw[++i];
      decoded += raw[i];
    } else if (c === "'" || c === '"') {
      const close = raw.indexOf(c, i + 1);
      const inner = raw.slice(i + 1, close === -1 ? raw.length : close);
      const ansi = c === "'" && raw[i - 1] === '$';
      if (ansi) {
        removed = removed.slice(0, -1);
        decoded = decoded.slice(0, -1) + ansiC(inner);
      } else decoded += inner;
      removed += inner;
      i = close === -1 ? raw.length : close;
    } else {
      removed += c;
      decoded += c;
    }
  }
  return new Set([removed, decoded, raw]);
}

/** For text that does not parse: a crude split so that deny/require patterns can still catch a part. */
export function roughSplit(command: string, reason: string): ShellAnalysis {
  const parts = command
    .split(/&&|\|\||[;|&\n]/)
    .map((p) => p.trim().replace(/\s+/g, ' '))
    .filter((p) => p !== '');
  // Also the parts without quotes and backslashes, so `\rm` or `"rm"` in a broken command still meets `rm *`.
  const unquoted = parts.map((p) => p.replace(/\\(.)/g, '$1').replace(/['"]/g, '')).filter((p, i) => p !== parts[i]);
  return { parsed: false, parts: [...parts, ...unquoted], unsafe: reason ? [reason] : [], words: [] };
}
