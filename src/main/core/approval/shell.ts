/**
 * Shell-aware rules (docs/shell-analysis.md): a command is parsed with tree-sitter bash, the grammar of the shell
 * that runs it (`execute_cmd` runs bash), and cut into its simple commands ("parts": the pieces joined by `&&`,
 * `||`, `;`, `|`, `&`, newlines, subshells, `!`, and those inside control flow and substitutions). A rule's
 * command_pattern is matched per part. Each part is written with its words *after* the shell's expansions
 * (shell-words.ts: quote and escape removal, ANSI-C strings, braces, `~`, environment variables, globs), so `\rm`
 * is `rm`; a command run by path (`/bin/rm`) or through a wrapper (`env rm`, `xargs rm`, `bash -c 'rm …'`) adds a
 * part for the command it runs, so a deny on `rm *` catches it.
 * Every word is also kept (`words`, with the working directories it is relative to, `cd` followed) for the guards,
 * which judge the paths the program will really open.
 * Some constructs can run something the parts do not show; they are listed as `unsafe` and never satisfy an
 * allow rule or a bypass: command or process substitution (also in an unquoted here-document), `eval`, `source`,
 * a shell interpreter, wrappers, variable assignments, control flow and functions, a word whose value is only known
 * at run time, a here-document whose end bash would find elsewhere than the parser, redirects whose target is
 * outside the workspace, computed or protected, and anything that does not parse.
 * Limits: see docs/shell-analysis.md "Known limits".
 */
import type { Node, Parser, Tree } from 'web-tree-sitter';
import { scrubEnv } from '../tools/shell/env-scrub';
import { createParser, prefetchGrammar, preloadRuntime } from '../treesitter/grammars';
import { splitPlainCommand } from './shell-plain';
import { expandText, type ExpandedWord, type WordEnv } from './shell-words';
import { addWords, finishWalk, MAX_DEPTH, newWalk, roughSplit, visit, type Walk } from './shell-walk';
import { runningSubstitutions } from './shell-substitutions';

import type { RedirectCheck, ShellAnalysis, ShellWord } from './shell-walk';

export type { RedirectCheck, ShellAnalysis, ShellWord };

/** Variables bash sets or changes on its own, whatever the environment says (`$_` is the last argument). */
const BASH_OWN = new Set([
  '_',
  'OLDPWD',
  'SHLVL',
  'PPID',
  'UID',
  'EUID',
  'RANDOM',
  'SRANDOM',
  'SECONDS',
  'LINENO',
  'HOSTNAME',
  'HOSTTYPE',
  'OSTYPE',
  'MACHTYPE',
  'OPTIND',
  'OPTARG',
  'OPTERR',
  'IFS',
  'PS1',
  'PS2',
  'PS4',
  'HISTCMD',
  'FUNCNAME',
  'GROUPS',
  'PIPESTATUS',
  'DIRSTACK',
  'EPOCHSECONDS',
  'EPOCHREALTIME',
  'COLUMNS',
  'LINES',
  'REPLY',
  'COPROC',
  'MAPFILE',
  'SHELLOPTS',
  'PROMPT_COMMAND',
]);

/** Thrown inside a plain reading that meets something only the grammar can read; the grammar then reads it all. */
const NEEDS_GRAMMAR = Symbol('needs the grammar');

export class ShellAnalyzer {
  private parser: Parser | null = null;
  private loading: Promise<void> | null = null;
  /** The grammar could not be loaded: every command that needs it counts as unparsed (fail closed). */
  private isUnavailable = false;
  private env: Record<string, string> | null = null;
  private readonly envSource: () => Record<string, string>;

  /** `env`: the environment commands will run with (default: this process's, scrubbed as execute_cmd scrubs it). */
  private constructor(opts: { env?: () => Record<string, string> }) {
    this.envSource = opts.env ?? (() => scrubEnv(process.env));
  }

  /** An analyzer with the bash grammar loaded. */
  static async create(opts: { env?: () => Record<string, string> } = {}): Promise<ShellAnalyzer> {
    const analyzer = new ShellAnalyzer(opts);
    await analyzer.whenLoaded();
    return analyzer;
  }

  /**
   * Starts compiling the bash grammar (and the tree-sitter runtime) off the main thread; resolves once V8 can go on
   * with it while the main thread is held (`prefetchGrammar`). The core calls it first thing at its creation.
   */
  static prefetch(): Promise<void> {
    return prefetchGrammar('bash');
  }

  /**
   * Starts the tree-sitter runtime now, synchronously: its JavaScript, and its instance once its compile has settled
   * (about 10 ms of this thread in all; the grammar is not loaded): `core.start()` calls it, so that a command the
   * grammar must read at once waits only for the grammar's load (docs/shell-analysis.md "Cold start"). A failure is
   * left to the load, which fails closed.
   */
  static preloadRuntime(): void {
    try {
      preloadRuntime();
    } catch {
      // the grammar's load reports it (every command that needs the grammar stays unparsed)
    }
  }

  /**
   * An analyzer at once, its grammar not loaded yet (docs/shell-analysis.md "Cold start"): plain command lines are
   * read without it; `whenLoaded()` loads it (the app calls it at start, in the background) and `needsGrammar`
   * tells a caller that must wait for it.
   */
  static deferred(opts: { env?: () => Record<string, string> } = {}): ShellAnalyzer {
    void prefetchGrammar('bash'); // compiled off the main thread meanwhile (the core began it at its creation)
    return new ShellAnalyzer(opts);
  }

  /**
   * Loads the bash grammar once (a failure leaves every command that needs it unparsed: fail closed). Resolves once
   * the grammar can be used. (The app then warms the whole gate up: gate-warm-up.ts.)
   */
  whenLoaded(): Promise<void> {
    this.loading ??= createParser('bash').then(
      (parser) => {
        this.parser = parser;
      },
      () => void (this.isUnavailable = true),
    );
    return this.loading;
  }

  /** Whether deciding on `command` has to wait for `whenLoaded()`: the grammar must read it and is not there yet. */
  needsGrammar(command: string): boolean {
    return this.parser === null && !this.isUnavailable && this.analyzePlain(command, '/', () => true) === null;
  }

  analyze(command: string, workdir: string, redirectOk: RedirectCheck): ShellAnalysis {
    return this.analyzePlain(command, workdir, redirectOk) ?? this.analyzeWithGrammar(command, workdir, redirectOk);
  }

  /** The grammar's reading of any command line. */
  analyzeWithGrammar(command: string, workdir: string, redirectOk: RedirectCheck): ShellAnalysis {
    if (!this.parser) return roughSplit(command, this.noGrammarReason());
    const tree = this.parse(command);
    if (!tree) return roughSplit(command, 'the command could not be parsed');
    try {
      if (tree.rootNode.hasError) return roughSplit(command, 'the command does not parse'); // any ERROR or MISSING node
      const w = newWalk(workdir, redirectOk);
      this.walkTree(tree.rootNode, command, w);
      return finishWalk(w);
    } catch {
      return roughSplit(command, 'the command could not be analysed'); // never an allow on a failure of ours
    } finally {
      tree.delete();
    }
  }

  /**
   * A plain command line (shell-plain.ts: plain words joined by `&&`, `||`, `;`, `|`) read without the grammar, by
   * the same steps as the tree walk, so the result is the one the grammar would give (shell-plain.test.ts compares
   * them). Null when the grammar must read it.
   */
  analyzePlain(command: string, workdir: string, redirectOk: RedirectCheck): ShellAnalysis | null {
    const commands = splitPlainCommand(command);
    if (!commands) return null;
    const w = { ...newWalk(workdir, redirectOk), isPlain: true };
    try {
      for (const words of commands) {
        const env = this.wordEnv(w);
        addWords(
          words.map((text) => expandText(text, env, w.cwds)),
          true,
          w,
          this,
          env,
        );
      }
    } catch (error) {
      if (error === NEEDS_GRAMMAR) return null;
      return roughSplit(command, 'the command could not be analysed');
    }
    return finishWalk(w);
  }

  private parse(text: string): Tree | null {
    try {
      return this.parser?.parse(text) ?? null;
    } catch {
      return null; // a parser failure is a parse failure: never an allow
    }
  }

  /** Why there is no tree: the grammar is still loading (a caller that did not wait), or it could not load. */
  private noGrammarReason(): string {
    if (this.isUnavailable) return 'the shell grammar is not available';
    void this.whenLoaded();
    return 'the shell grammar is still loading';
  }

  private walkTree(root: Node, text: string, w: Walk): void {
    visit(root, w, this);
    // Substitutions run wherever they stand; the commands inside are parts too (a deny must see them). Walking
    // the whole tree allocates a wrapper per node: without these characters there is nothing to find.
    if (/\$\(|`|[<>]\(/.test(text)) {
      const { nodes, isTooDeep } = runningSubstitutions(root);
      if (isTooDeep) w.out.unsafe.push('command substitutions nested too deep to follow');
      for (const sub of nodes) {
        w.out.unsafe.push('command substitution');
        for (const child of sub.namedChildren) if (child) visit(child, w, this);
      }
    }
  }

  /** Shell text a wrapper runs (`bash -c`, `eval`): its parts and words join this analysis; unsafe stays. */
  analyzeInner(script: string, w: Walk): void {
    if (w.depth >= MAX_DEPTH) return void w.out.unsafe.push('shell text nested too deep to follow');
    if (w.isPlain) throw NEEDS_GRAMMAR;
    const tree = this.parse(script);
    if (!tree) return void w.out.unsafe.push('shell text that could not be parsed');
    try {
      if (tree.rootNode.hasError) {
        w.out.unsafe.push('shell text that does not parse');
        w.out.parts.push(...roughSplit(script, '').parts);
        return;
      }
      this.walkTree(tree.rootNode, script, { ...w, depth: w.depth + 1 });
    } finally {
      tree.delete();
    }
  }

  wordEnv(w: Walk): WordEnv {
    this.env ??= this.envSource();
    const env = this.env;
    return {
      home: w.areVarsChanged ? null : (env.HOME ?? null),
      variable: (name) => {
        if (w.areVarsChanged) return undefined;
        if (name === 'PWD') return w.cwds.length === 1 && !w.isCwdLost ? w.cwds[0] : undefined;
        if (BASH_OWN.has(name) || name.startsWith('BASH')) return undefined; // bash sets these itself
        return Object.prototype.hasOwnProperty.call(env, name) ? env[name] : undefined;
      },
    };
  }
}
