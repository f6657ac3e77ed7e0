/**
 * Programs that run another program, or read or write a file their words do not name as one, through an option or
 * their own script language (docs/shell-analysis.md "Commands run through options"): `sed 's/x/id/e'`, `awk
 * 'BEGIN{system("id")}'`, `git -c core.pager=id log`, `tar --checkpoint-action=exec=id`, `rg --pre id`,
 * `sort --compress-program=id`, `ssh -o ProxyCommand=id`, `vim -c '!id'`, … An allow rule for `git *` or `sed *`
 * means that program, not every program it can be told to start; such a command is an unsafe construct like a
 * wrapper (never auto-allowed, a deny still applies), and its reason says which option did it.
 * Limits: the table covers the common programs and their documented options; a program it does not know is judged by
 * its words alone (an allow rule on it allows what it can do). Scripts are read only as far as needed: a sed script
 * the scanner cannot follow, and any awk program that pipes, calls `system`, reads with `getline` or prints into a
 * named file, asks.
 */

type Check = (args: readonly string[]) => string | null;

/** `--name value`, `--name=value` (long) or `-X value`, `-Xvalue` (short): whether the option is present. */
function hasOption(args: readonly string[], long: readonly string[], short: readonly string[] = []): boolean {
  return args.some(
    (a) =>
      long.some((l) => a === l || a.startsWith(`${l}=`)) ||
      short.some((s) => a === s || (a.startsWith(s) && !a.startsWith('--'))),
  );
}

/** The values given to an option (`-o v`, `-ov`, `--opt v`, `--opt=v`). */
function optionValues(args: readonly string[], long: readonly string[], short: readonly string[]): string[] {
  const values: string[] = [];
  args.forEach((a, i) => {
    for (const l of long) {
      if (a === l && args[i + 1] !== undefined) values.push(args[i + 1]!);
      else if (a.startsWith(`${l}=`)) values.push(a.slice(l.length + 1));
    }
    for (const s of short) {
      if (a === s && args[i + 1] !== undefined) values.push(args[i + 1]!);
      else if (a.startsWith(s) && !a.startsWith('--') && a.length > s.length) values.push(a.slice(s.length));
    }
  });
  return values;
}

// --- sed ---------------------------------------------------------------------------------------------------------

/** Reads up to the unescaped `delim` from `i`; the index after it, or -1 when the script ends first. */
function skipDelimited(script: string, i: number, delim: string): number {
  for (let j = i; j < script.length; j++) {
    if (script[j] === '\\') j++;
    else if (script[j] === delim) return j + 1;
  }
  return -1;
}

function skipAddress(script: string, i: number): number {
  const c = script[i];
  if (c === undefined) return i;
  if (/[0-9]/.test(c)) {
    while (/[0-9~]/.test(script[i] ?? '')) i++;
    return i;
  }
  if (c === '$') return i + 1;
  let end = -1;
  if (c === '/') end = skipDelimited(script, i + 1, '/');
  else if (c === '\\' && script[i + 1] !== undefined) end = skipDelimited(script, i + 2, script[i + 1]!);
  else return i;
  if (end === -1) return -1;
  while (/[IM]/.test(script[end] ?? '')) end++;
  return end;
}

const SED_PLAIN = new Set([
  'p',
  'P',
  'd',
  'D',
  'n',
  'N',
  'g',
  'G',
  'h',
  'H',
  'x',
  '=',
  'z',
  'F',
  'l',
  'L',
  'q',
  'Q',
  '{',
  '}',
]);

/** Why a sed script is unsafe (it runs, writes or reads a file), or null; a script it cannot follow is unsafe too. */
export function sedScriptRisk(script: string): string | null {
  let i = 0;
  const lost = 'a sed script the gate cannot follow';
  while (i < script.length) {
    while (/[\s;]/.test(script[i] ?? '')) i++;
    if (i >= script.length) break;
    i = skipAddress(script, i);
    if (i === -1) return lost;
    if (script[i] === ',') {
      i = skipAddress(script, i + 1);
      if (i === -1) return lost;
    }
    while (/[\s!]/.test(script[i] ?? '')) i++;
    const c = script[i++];
    if (c === undefined) break;
    if (c === 'e') return 'sed runs a command (e)';
    if (c === 'w' || c === 'W') return 'sed writes a file its script names (w)';
    if (c === 'r' || c === 'R') return 'sed reads a file its script names (r)';
    if (c === '#' || c === 'a' || c === 'i' || c === 'c' || c === ':' || c === 'b' || c === 't' || c === 'T') {
      // Text or a label up to the end of the line (a, i, c: lines ending in a backslash go on).
      while (i < script.length && script[i] !== '\n' && !((c === 'b' || c === 't' || c === 'T') && script[i] === ';'))
        i += script[i] === '\\' ? 2 : 1;
      continue;
    }
    if (c === 's' || c === 'y') {
      const delim = script[i];
      if (delim === undefined || delim === '\n' || delim === '\\') return lost;
      i = skipDelimited(script, i + 1, delim);
      if (i !== -1) i = skipDelimited(script, i, delim);
      if (i === -1) return lost;
      if (c === 'y') continue;
      while (/[a-zA-Z0-9]/.test(script[i] ?? '')) {
        if (script[i] === 'e') return 'sed runs the replacement as a command (s///e)';
        if (script[i] === 'w') return 'sed writes a file its script names (s///w)';
        i++;
      }
      continue;
    }
    if (SED_PLAIN.has(c)) {
      while (/[0-9]/.test(script[i] ?? '')) i++; // q5, l 40
      continue;
    }
    return lost;
  }
  return null;
}

const sed: Check = (args) => {
  if (hasOption(args, ['--file'], ['-f'])) return 'sed reads its script from a file';
  const scripts = optionValues(args, ['--expression'], ['-e']);
  if (scripts.length === 0) {
    const valued = new Set(['-l', '--line-length']);
    const first = args.find((a, i) => !a.startsWith('-') && !valued.has(args[i - 1] ?? ''));
    if (first !== undefined) scripts.push(first);
  }
  for (const s of scripts) {
    const risk = sedScriptRisk(s);
    if (risk) return risk;
  }
  return null;
};

// --- awk ---------------------------------------------------------------------------------------------------------

const awk: Check = (args) => {
  if (hasOption(args, ['--file', '--exec', '--load', '--include'], ['-f', '-E', '-l', '-i']))
    return 'awk reads its program or a library from a file';
  const valued = new Set(['-F', '-v', '--field-separator', '--assign']);
  const program = args.find((a, i) => !a.startsWith('-') && !valued.has(args[i - 1] ?? ''));
  if (program === undefined) return null;
  // Text in double quotes is data, never code: left out so that `print "a|b"` does not ask. Only where the program has
  // no `/`: a regex literal may hold a quote (`/"/ { system("id") }`), and where one starts (or a division) is
  // ambiguous, so with one the program is judged whole (a regex's `|` then asks).
  const code = program.includes('/') ? program : program.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  if (/\bsystem\s*\(/.test(code)) return 'awk runs a command (system)';
  if (/\|/.test(code.replace(/\|\|/g, ''))) return 'awk pipes to or from a command (|)';
  if (/\bgetline\b/.test(code)) return 'awk reads with getline';
  if (/>\s*>|>\s*"/.test(program)) return 'awk prints into a file its program names';
  if (/@/.test(code)) return 'awk loads a library or calls a function by name (@)';
  return null;
};

// --- git ---------------------------------------------------------------------------------------------------------

const GIT_VALUED_GLOBALS = new Set(['-C', '--namespace', '--super-prefix', '--list-cmds', '--attr-source']);
const GIT_CONFIG_WRITES = /^--(add|replace-all|unset|unset-all|rename-section|remove-section|edit)$|^-e$/;

const git: Check = (args) => {
  let i = 0;
  for (; i < args.length && args[i]!.startsWith('-'); i++) {
    const a = args[i]!;
    if (a === '-c' || a.startsWith('-c') || a.startsWith('--config-env'))
      return 'git -c sets configuration for this run (a pager, alias, hook or ssh command runs)';
    if (a.startsWith('--exec-path') || a.startsWith('--git-dir') || a.startsWith('--work-tree'))
      return `git ${a.split('=')[0]} points git at other configuration or programs`;
    if (GIT_VALUED_GLOBALS.has(a)) i++;
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  switch (sub) {
    case 'config': {
      const positional = rest.filter((a) => !a.startsWith('-'));
      const verb = positional[0];
      if (verb === 'get' || verb === 'list') return null;
      const writes =
        rest.some((a) => GIT_CONFIG_WRITES.test(a)) ||
        verb === 'set' ||
        verb === 'unset' ||
        verb === 'rename-section' ||
        verb === 'remove-section' ||
        verb === 'edit';
      // `git config name` and `git config --get name` read; a name and a value (or a writing option) set.
      return writes || positional.length > 1
        ? 'git config changes settings (a hook path, pager or fsmonitor command set now runs later)'
        : null;
    }
    case 'rebase':
      return hasOption(rest, ['--exec'], ['-x']) ? 'git rebase --exec runs a command' : null;
    case 'bisect':
      return rest[0] === 'run' ? 'git bisect run runs a command' : null;
    case 'submodule':
      return rest.includes('foreach') ? 'git submodule foreach runs a command' : null;
    case 'difftool':
    case 'mergetool':
      return `git ${sub} runs a configured or given program`;
    case 'filter-branch':
    case 'instaweb':
      return `git ${sub} runs commands`;
    case 'grep':
      return hasOption(rest, ['--open-files-in-pager'], ['-O']) ? 'git grep -O runs a pager program' : null;
    case 'clone':
    case 'fetch':
    case 'pull':
    case 'ls-remote':
    case 'archive':
    case 'push':
      return hasOption(
        rest,
        ['--upload-pack', '--receive-pack', '--exec'],
        sub === 'clone' || sub === 'fetch' || sub === 'pull' || sub === 'ls-remote' ? ['-u'] : [],
      )
        ? `git ${sub} runs the remote program given`
        : null;
    default:
      if (hasOption(rest, ['--ext-diff'])) return 'git --ext-diff runs an external diff program';
      if (hasOption(rest, ['--output'])) return 'git writes into a file named by --output';
      return null;
  }
};

// --- the rest ----------------------------------------------------------------------------------------------------

const tar: Check = (args) => {
  if (
    hasOption(args, [
      '--checkpoint-action',
      '--to-command',
      '--use-compress-program',
      '--info-script',
      '--new-volume-script',
      '--rsh-command',
      '--rmt-command',
      '--index-file',
    ])
  )
    return 'tar runs a program given in an option';
  if (args.some((a) => /^-[A-Za-z]*[IF]/.test(a) && !a.startsWith('--')) || /^[A-Za-z]*[IF]/.test(args[0] ?? '-'))
    return 'tar runs a program given in an option (-I, -F)';
  return null;
};

const ssh: Check = (args) => {
  if (hasOption(args, [], ['-F'])) return 'ssh reads a configuration file (it can name commands to run)';
  const options = optionValues(args, [], ['-o']);
  return options.some((o) =>
    /^\s*(ProxyCommand|LocalCommand|PermitLocalCommand|KnownHostsCommand|RemoteCommand|Match)\b/i.test(o),
  )
    ? 'ssh runs a local command given in -o'
    : null;
};

/** Any option or `+command`: vim's options run commands (-c, --cmd, -S), read them from a file or stdin (-s, -e, -es). */
const vim: Check = (args) =>
  args.some((a) => (a.startsWith('-') && a !== '--') || a.startsWith('+'))
    ? 'vim runs commands given on its command line'
    : null;

const CHECKS = new Map<string, Check>(
  Object.entries({
    sed,
    gsed: sed,
    awk,
    gawk: awk,
    mawk: awk,
    nawk: awk,
    git,
    tar,
    gtar: tar,
    bsdtar: tar,
    ssh,
    scp: ssh,
    sftp: ssh,
    vim,
    vi: vim,
    nvim: vim,
    ex: vim,
    view: vim,
    vimdiff: vim,
    rg: (args) => (hasOption(args, ['--pre']) ? 'rg runs a preprocessor program (--pre)' : null),
    sort: (args) => (hasOption(args, ['--compress-program']) ? 'sort runs a compression program' : null),
    split: (args) => (hasOption(args, ['--filter']) ? 'split runs a filter command' : null),
    zip: (args) => (hasOption(args, ['--unzip-command'], ['-TT']) ? 'zip runs a test command' : null),
    man: (args) =>
      hasOption(args, ['--pager', '--html', '--browser'], ['-P', '-H'])
        ? 'man runs a pager or browser given in an option'
        : null,
    wget: (args) =>
      hasOption(args, ['--use-askpass', '--execute'], ['-e'])
        ? 'wget runs a command or wgetrc line given in an option'
        : null,
    find: (args) =>
      args.some((a) => /^-f(print0?|printf|ls)$/.test(a))
        ? 'find writes a file named in an option (-fprint, -fls)'
        : null,
  } satisfies Record<string, Check>),
);

/** Why this command runs a program or touches a file through an option or script, or null. `words[0]` is its name. */
export function runsThroughOptions(words: readonly string[]): string | null {
  const name = (words[0] ?? '').split('/').at(-1) ?? '';
  // A Map: a command named `constructor` or `__proto__` must find nothing, not Object.prototype's members.
  return CHECKS.get(name)?.(words.slice(1)) ?? null;
}
