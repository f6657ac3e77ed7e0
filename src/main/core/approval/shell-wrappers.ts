/**
 * Commands that run another command (docs/shell-analysis.md "Wrappers"): `env rm`, `sudo -u root rm`, `nohup rm`,
 * `timeout 5 rm`, `xargs -0 rm`, `find . -exec rm {} ;`, `bash -c 'rm …'`, `eval rm …`. The wrapper itself is an
 * unsafe construct (never auto-allowed); the command it runs is found here so that a deny or ask rule on that
 * command (`rm *`) still catches it. Also the lists of builtins that change variables or the working directory,
 * after which the analysis stops trusting what it knows of them.
 * Limits: option parsing is per wrapper and covers the common flags; an option this table does not know may make
 * its value look like the inner command (which only ever adds a part: it can make a deny match, never an allow).
 */

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'ash', 'busybox']);

export const RUNS_ANOTHER = new Set([
  'eval',
  'source',
  '.',
  'exec',
  'env',
  'xargs',
  'sudo',
  'doas',
  'su',
  'nohup',
  'nice',
  'ionice',
  'timeout',
  'time',
  'command',
  'builtin',
  'watch',
  'parallel',
  'stdbuf',
  'chroot',
  'setsid',
  'strace',
  'script',
  'unbuffer',
  'trap',
]);

/** Builtins after which a variable's value is no longer the environment's (they set, unset or shift them). */
export const SETS_VARIABLES = new Set([
  'read',
  'mapfile',
  'readarray',
  'printf',
  'getopts',
  'let',
  'export',
  'declare',
  'typeset',
  'local',
  'readonly',
  'set',
  'shift',
  'source',
  '.',
  'eval',
  'unset',
  'cd',
  'pushd',
  'popd',
  'wait',
]);

/** Builtins that evaluate some arguments as arithmetic, where an array subscript can run `$(…)`. */
export const EVALUATES_ARITHMETIC = new Set([
  'let',
  'test',
  '[',
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
  'printf',
  'read',
  'unset',
  'mapfile',
  'readarray',
  'wait',
  'shift',
  'return',
  'exit',
]);

export const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** Options that take the next word as their value, per wrapper. */
const VALUE_OPTIONS: Record<string, Set<string>> = {
  env: new Set(['-u', '--unset', '-C', '--chdir', '-S', '--split-string']),
  sudo: new Set(['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T', '--user', '--group', '--chdir']),
  doas: new Set(['-u', '-C']),
  nice: new Set(['-n', '--adjustment']),
  ionice: new Set(['-c', '-n', '-p', '-P', '-u', '--class', '--classdata']),
  timeout: new Set(['-s', '-k', '--signal', '--kill-after']),
  stdbuf: new Set(['-i', '-o', '-e', '--input', '--output', '--error']),
  xargs: new Set([
    '-a',
    '-d',
    '-E',
    '-e',
    '-I',
    '-i',
    '-L',
    '-l',
    '-n',
    '-P',
    '-s',
    '--arg-file',
    '--delimiter',
    '--max-args',
    '--max-procs',
    '--max-lines',
    '--max-chars',
    '--replace',
  ]),
  strace: new Set(['-o', '-e', '-p', '-s', '-u', '-E', '-a']),
  exec: new Set(['-a']),
  watch: new Set(['-n', '-d', '--interval']),
  chroot: new Set(['--userspec', '--groups']),
  parallel: new Set(['-j', '--jobs', '-S']),
  setsid: new Set([]),
};

/** What a wrapper runs: inner commands as word lists, and shell text to parse again (`bash -c …`, `eval …`). */
export interface Inner {
  commands: string[][];
  scripts: string[];
}

/** The inner command(s) of `words` (already expanded; `words[0]` is the wrapper's name as written). */
export function innerOf(words: readonly string[]): Inner {
  const inner: Inner = { commands: [], scripts: [] };
  const name = (words[0] ?? '').split('/').at(-1) ?? '';
  const args = words.slice(1);
  if (SHELLS.has(name)) {
    // `bash -c 'script'`, `sh -ec 'script'`: the script runs; without -c a script file runs (unknown here).
    const c = args.findIndex((a) => /^-[A-Za-z]*c[A-Za-z]*$/.test(a));
    if (c !== -1 && args[c + 1] !== undefined) inner.scripts.push(args[c + 1]!);
    return inner;
  }
  if (name === 'eval') {
    if (args.length) inner.scripts.push(args.join(' '));
    return inner;
  }
  if (name === 'su') {
    const c = args.findIndex((a) => a === '-c' || a === '--command');
    if (c !== -1 && args[c + 1] !== undefined) inner.scripts.push(args[c + 1]!);
    return inner;
  }
  if (name === 'trap') {
    if (args[0] !== undefined && !args[0].startsWith('-')) inner.scripts.push(args[0]);
    return inner;
  }
  if (name === 'script') {
    const c = args.findIndex((a) => a === '-c' || a === '--command');
    if (c !== -1 && args[c + 1] !== undefined) inner.scripts.push(args[c + 1]!);
    return inner;
  }
  if (name === 'find') {
    for (let i = 0; i < args.length; i++) {
      if (!FIND_EXEC.has(args[i]!)) continue;
      let end = i + 1;
      while (end < args.length && args[end] !== ';' && args[end] !== '+') end++;
      if (end > i + 1) inner.commands.push(args.slice(i + 1, end));
      i = end;
    }
    return inner;
  }
  if (name === 'command' && args.some((a) => a === '-v' || a === '-V')) return inner; // a lookup, runs nothing
  if (name === 'watch') {
    const rest = skipOptions(name, args);
    if (rest.length) inner.scripts.push(rest.join(' ')); // watch hands its words to `sh -c`
    return inner;
  }
  if (!RUNS_ANOTHER.has(name) || name === 'source' || name === '.') return inner;
  let rest = skipOptions(name, args);
  if (name === 'env') {
    const split = args.findIndex((a) => a === '-S' || a === '--split-string');
    if (split !== -1 && args[split + 1]) inner.scripts.push(args[split + 1]!);
    while (rest.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0]!)) rest = rest.slice(1);
  }
  if (name === 'timeout' || name === 'chroot') rest = rest.slice(1); // the duration; the new root
  if (name === 'xargs' && rest.length === 0) rest = ['echo'];
  if (rest.length) inner.commands.push(rest);
  return inner;
}

function skipOptions(name: string, args: readonly string[]): string[] {
  const withValue = VALUE_OPTIONS[name] ?? new Set<string>();
  let i = 0;
  while (i < args.length) {
    const a = args[i]!;
    if (a === '--') return args.slice(i + 1);
    if (!a.startsWith('-') || a === '-') break;
    i += withValue.has(a) ? 2 : 1;
  }
  return args.slice(i);
}
