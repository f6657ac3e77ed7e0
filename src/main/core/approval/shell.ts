/**
 * Shell-aware rules (SPEC.md §4, check X3): a command is parsed with tree-sitter bash and cut into its simple
 * commands ("parts": the pieces joined by `&&`, `||`, `;`, `|`, `&`, newlines, subshells and `!`). A rule's
 * command_pattern is matched per part. Some constructs can run something the parts do not show; they are listed
 * as `unsafe` and never satisfy an allow rule: command or process substitution, `eval`/`source`/`exec`, a shell
 * interpreter (`bash -c`, `… | sh`), wrappers that run another command (`env`, `xargs`, `sudo`, `find -exec`, …),
 * variable assignments (`PATH=… git`), control flow and functions, redirects whose target is outside the workspace
 * or not a plain word, and anything that does not parse.
 * Limits: words are compared as written (`/usr/bin/git` is not `git`); quoting is not unfolded.
 */
import type { Node, Parser } from 'web-tree-sitter';
import { createParser } from '../treesitter/grammars';

export interface ShellAnalysis {
  /** False when the text did not parse cleanly (then `parts` come from a rough split, for deny/require only). */
  parsed: boolean;
  /** Each simple command as its words joined by single spaces. */
  parts: string[];
  /** Why this command may not be auto-allowed by a rule; empty when it may. */
  unsafe: string[];
}

/** Judges one redirect target (already resolved to an absolute path against the workdir); true = harmless. */
export type RedirectCheck = (target: string) => boolean;

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'ash', 'busybox']);
const RUNS_ANOTHER = new Set([
  'eval', 'source', '.', 'exec', 'env', 'xargs', 'sudo', 'doas', 'su', 'nohup', 'nice', 'ionice', 'timeout', 'time',
  'command', 'builtin', 'watch', 'parallel', 'stdbuf', 'chroot', 'setsid', 'strace', 'script', 'unbuffer', 'trap',
]);
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir', '-delete']);
const CONTAINERS = new Set(['program', 'list', 'pipeline', 'subshell', 'compound_statement', 'negated_command']);
const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

export class ShellAnalyzer {
  private constructor(private readonly parser: Parser | null) {}

  /** Loads the bash grammar. If it cannot load, every command counts as unparsed (fail closed). */
  static async create(): Promise<ShellAnalyzer> {
    try {
      return new ShellAnalyzer(await createParser('bash'));
    } catch {
      return new ShellAnalyzer(null);
    }
  }

  analyze(command: string, workdir: string, redirectOk: RedirectCheck): ShellAnalysis {
    let tree: ReturnType<Parser['parse']> = null;
    try {
      tree = this.parser?.parse(command) ?? null;
    } catch {
      tree = null; // a parser failure is a parse failure: never an allow
    }
    if (!tree) return roughSplit(command, 'the shell grammar is not available');
    try {
      const root = tree.rootNode;
      if (root.hasError) return roughSplit(command, 'the command does not parse'); // any ERROR or MISSING node
      const out: ShellAnalysis = { parsed: true, parts: [], unsafe: [] };
      // Walking the whole tree allocates a wrapper per node; without these characters there is nothing to find.
      if (/\$\(|`|[<>]\(/.test(command) && root.descendantsOfType(['command_substitution', 'process_substitution']).length > 0) out.unsafe.push('command substitution');
      walk(root, out, workdir, redirectOk);
      if (out.parts.length === 0) out.unsafe.push('no command found');
      return out;
    } finally {
      tree.delete();
    }
  }
}

function walk(node: Node, out: ShellAnalysis, workdir: string, redirectOk: RedirectCheck): void {
  for (const child of node.namedChildren) if (child) visit(child, out, workdir, redirectOk);
}

function visit(node: Node, out: ShellAnalysis, workdir: string, redirectOk: RedirectCheck): void {
  const type = node.type;
  if (type === 'comment') return;
  if (CONTAINERS.has(type)) return walk(node, out, workdir, redirectOk);
  if (type === 'redirected_statement') {
    const body = node.childForFieldName('body');
    if (body) visit(body, out, workdir, redirectOk);
    for (const r of node.childrenForFieldName('redirect')) if (r) checkRedirect(r, out, workdir, redirectOk);
    return;
  }
  if (type === 'command') return addCommand(node, out, workdir, redirectOk);
  if (type === 'file_redirect' || type === 'heredoc_redirect' || type === 'herestring_redirect') return checkRedirect(node, out, workdir, redirectOk);
  if (type === 'variable_assignment' || type === 'declaration_command' || type === 'unset_command') out.unsafe.push(`a variable assignment (${node.text.slice(0, 40)})`);
  else out.unsafe.push(type.replace(/_/g, ' ')); // control flow, functions, tests: their insides are not judged part by part
  out.parts.push(node.text.replace(/\s+/g, ' '));
}

function addCommand(cmd: Node, out: ShellAnalysis, workdir: string, redirectOk: RedirectCheck): void {
  for (const c of cmd.namedChildren) {
    if (c?.type === 'variable_assignment') out.unsafe.push(`an environment assignment (${c.text.slice(0, 40)})`);
    else if (c && (c.type === 'file_redirect' || c.type === 'herestring_redirect')) checkRedirect(c, out, workdir, redirectOk);
  }
  const nameNode = cmd.childForFieldName('name');
  const name = nameNode?.text ?? '';
  const words = [name, ...cmd.childrenForFieldName('argument').map((a) => a?.text ?? '')].filter((w) => w !== '');
  if (nameNode && nameNode.namedChildren.some((n) => n?.type !== 'word')) out.unsafe.push('a command name built from an expansion');
  const base = name.split('/').at(-1) ?? name;
  if (SHELLS.has(base)) out.unsafe.push(`a shell interpreter (${base})`);
  if (RUNS_ANOTHER.has(base)) out.unsafe.push(`"${base}" runs another command`);
  if (base === 'find' && words.some((w) => FIND_EXEC.has(w))) out.unsafe.push('find with -exec/-delete');
  out.parts.push(words.join(' '));
}

function checkRedirect(r: Node, out: ShellAnalysis, workdir: string, redirectOk: RedirectCheck): void {
  if (r.type === 'heredoc_redirect' || r.type === 'herestring_redirect') return; // input only; substitutions were caught above
  const dest = r.childForFieldName('destination');
  if (!dest) return;
  // `2>&1`, `>&2`: a file descriptor, not a file.
  if (dest.type === 'number' && /^[0-9]+$/.test(dest.text)) return;
  if (dest.type !== 'word' || /[$`~*?[{]/.test(dest.text)) {
    out.unsafe.push(`a redirect to a computed target (${dest.text.slice(0, 60)})`);
    return;
  }
  const target = dest.text.startsWith('/') ? dest.text : `${workdir.replace(/\/+$/, '')}/${dest.text}`;
  if (HARMLESS_TARGETS.has(dest.text)) return;
  if (!redirectOk(target)) out.unsafe.push(`a redirect out of the workspace or into a protected path (${dest.text.slice(0, 60)})`);
}

/** For text that does not parse: a crude split so that deny/require patterns can still catch a part. */
function roughSplit(command: string, reason: string): ShellAnalysis {
  const parts = command
    .split(/&&|\|\||[;|&\n]/)
    .map((p) => p.trim().replace(/\s+/g, ' '))
    .filter((p) => p !== '');
  return { parsed: false, parts, unsafe: [reason] };
}
