/**
 * The shell gate's warm-up (docs/shell-analysis.md "Cold start"): once the bash grammar has loaded, the app decides a
 * few varied commands through the whole gate (the plain reading and the grammar's, the word expansions, the guards'
 * path checks, the rules of the default group), one per event-loop turn, and throws the decisions away. V8 compiles
 * JavaScript and the grammar's WebAssembly function by function on first use, and moves code it runs often to its
 * optimizing tier in the background: without this the first real commands a person sends pay for that (several ms
 * each). A decision has no side effect (gate.ts: pure CPU plus a few path lookups; nothing is recorded or emitted),
 * so the warm-up changes no state; `signal` stops it (the core's `dispose`).
 */
import { RunContextSchema } from '../../../shared/run-context';
import { TN } from '../../../shared/tool-names';
import type { ApprovalGate } from './gate';

/** Plain lines and lines only the grammar reads: pipes, lists, quotes, variables, globs, redirects, loops, here-docs. */
const COMMANDS = [
  'git status && npm test | tee out.txt',
  'ls -la src; cat package.json',
  'ls "my notes" | head -3 # a comment',
  'echo $HOME ~/x {a,b} > out.txt 2>&1',
  'grep -rn "TODO" src || true',
  'for f in src/*; do wc -l "$f"; done; git commit -m \'a && b\'',
  'x=$(date) && [ -n "$x" ] || echo \'no\' >> log',
  'cat <<EOF | sed -e s/a/b/\nhi $HOME\nEOF',
  "cd src && find . -name '*.ts' -exec grep -l x {} +",
  "bash -c 'rm -rf build' && env A=1 node --version",
  "case $1 in a|b) f() { local y=${1:-z}; echo ${y%.*}; } ;; *) echo $'\\x41' $((1+2)) ;; esac &",
  'while read -r l; do printf "%s\\n" "$l"; done < <(ls -1 ./*.md)',
];
/** Rounds over the commands: enough for the grammar's hot functions to reach V8's optimizing tier. */
const ROUNDS = 4;

/**
 * A plain line (read without the grammar, so deciding it never starts the grammar's load): its decision runs the
 * code every shell decision runs (the rules, the guards' path checks, `cd`, the word expansions, the walk's steps).
 */
export const PLAIN_AT_START = 'cd src && ls -la | head -3; cat package.json';

/**
 * Decides PLAIN_AT_START once, now, on this thread (`core.start()`: about 5 ms, most of it V8 compiling the gate's
 * JavaScript on its first run), so the first command a person sends does not pay for that, whether or not it waits
 * for the grammar (docs/shell-analysis.md "Cold start"). Nothing is recorded, as with every decision.
 */
export function warmUpPlainShellGate(gate: ApprovalGate, workspaceDir: string): void {
  const runContext = RunContextSchema.parse({});
  gate.check({
    sessionId: null,
    agentId: 'main',
    source: 'warm-up',
    toolName: TN.EXECUTE_CMD,
    category: 'shell',
    args: { command: PLAIN_AT_START, workdir: workspaceDir },
    runContext,
    workingDir: workspaceDir,
  });
}

export async function warmUpShellGate(gate: ApprovalGate, workspaceDir: string, signal: AbortSignal): Promise<void> {
  const runContext = RunContextSchema.parse({});
  for (let round = 0; round < ROUNDS; round++) {
    for (const command of COMMANDS) {
      await new Promise((resolve) => setImmediate(resolve));
      if (signal.aborted) return;
      gate.check({
        sessionId: null,
        agentId: 'main',
        source: 'warm-up',
        toolName: TN.EXECUTE_CMD,
        category: 'shell',
        args: { command, workdir: workspaceDir },
        runContext,
        workingDir: workspaceDir,
      });
    }
  }
}
