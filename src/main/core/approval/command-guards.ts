/**
 * The hard guards applied to a shell command (docs/guards.md; docs/shell-analysis.md): its text, its working directory,
 * and every word the program will receive after bash's expansions, each judged as a path against every directory it
 * may be relative to. A command is the user's to run, so these never deny: they make the call ask, whatever the rules.
 * The guards on one path, the roots and the credential stores are guards.ts's; this file only finds the paths a
 * command names and hands each to the same tests.
 * Limits: a recursive command over a folder that holds secrets/ is not seen as reading it (commands run unsandboxed;
 * execute_cmd asks by default).
 */
import { homedir } from 'node:os';
import { lstatSync } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';
import { gitConfiguredReason, gitProtectedReason } from '../tools/_policy/git-paths';
import { hardLinkVerdictAt } from '../tools/_policy/hardlinks';
import { canonicalizeForPolicy, resolvePath } from '../tools/_policy/paths';
import {
  CREDENTIALS,
  type GuardVerdict,
  type Guards,
  inSecrets,
  linkWorkspaces,
  relIn,
  type Roots,
  slash,
} from './guards';
import type { ShellAnalysis, ShellWord } from './shell';

/** A `secrets` path component in a command's text or in a word after expansion. */
const SECRETS_WORD = /(^|[\s'"=/:<>|;&(`,@])secrets(?=$|[/\s'";|&)<>`,])/i;
const SHELL_SECRETS: GuardVerdict = {
  action: 'require',
  guard: 'secrets',
  text: "The command names a secrets/ path or a hard link to a guarded file (after the shell's expansions): always asks.",
};
/**
 * Paths one command's words are judged as, at most (each name against each place it may be relative to): a command
 * naming more asks. Each costs file-system lookups, and a 120 KB command can name tens of thousands
 * (docs/shell-analysis.md "Bad input").
 */
export const MAX_COMMAND_PATHS = 4_096;
const TOO_MANY_PATHS: GuardVerdict = {
  action: 'require',
  guard: 'unsafe_shell',
  text: `The command names more paths than the gate checks one by one (${MAX_COMMAND_PATHS}): always asks.`,
};
interface PathBudget {
  /** Names judged in this command, with the place they were taken relative to. */
  seen: Set<string>;
  left: number;
}
const SHELL_GIT: GuardVerdict = {
  action: 'require',
  guard: 'git_config',
  text: 'The command names a place git reads hooks or configuration from: always asks.',
};

/** Judges an `execute_cmd` by its text and working directory. Never denies: a shell command is the user's to run. */
export function checkCommand(
  guards: Guards,
  r: Roots,
  command: string,
  workdir: string | null,
  shell?: ShellAnalysis | null,
): GuardVerdict | null {
  if (mentionsDataDir(guards, r, command))
    return {
      action: 'require',
      guard: 'app_data_touch',
      text: "The command names the app's data folder or database: always asks.",
    };
  if (SECRETS_WORD.test(command)) return SHELL_SECRETS;
  if (workdir) {
    const canon = canonicalizeForPolicy(workdir, r.wsRaw);
    if (inSecrets(r, [relIn(canon, r.wsCanon)], resolvePath(workdir, r.wsRaw), canon))
      return { action: 'require', guard: 'secrets', text: 'The command runs inside a secrets/ folder: always asks.' };
    if (guards.isDataDir(r, canon))
      return {
        action: 'require',
        guard: 'app_data_touch',
        text: "The command runs in the app's data folder: always asks.",
      };
  }
  const cwdCanon = new Map<string, string>();
  const paths: PathBudget = { seen: new Set(), left: MAX_COMMAND_PATHS };
  try {
    for (const w of shell?.words ?? []) {
      const v = checkShellWord(guards, r, w, cwdCanon, paths);
      if (v) return v;
    }
  } finally {
    singleLinked.clear();
  }
  return null;
}

/**
 * One word of a command after the shell's expansions (docs/shell-analysis.md): each value, and the parts of it
 * after `=` or `:` (`--file=x`, `if=x`, `host:path`), judged as a path against every directory it may be
 * relative to; a glob that could reach a guarded name asks even when it matches nothing yet.
 */
function checkShellWord(
  guards: Guards,
  r: Roots,
  w: ShellWord,
  cwdCanon: Map<string, string>,
  paths: PathBudget,
): GuardVerdict | null {
  for (const value of w.word.values) {
    if (SECRETS_WORD.test(value)) return SHELL_SECRETS;
    // A program found on PATH is not a path; one run by path (`./x`, `/bin/x`) is.
    if (w.role === 'name' && !value.includes('/')) continue;
    const pieces = new Set([value]);
    for (const sep of ['=', ':']) for (const p of value.split(sep).slice(1)) pieces.add(p);
    for (const piece of pieces) {
      if (piece === '' || (/^-/.test(piece) && !piece.includes('/'))) continue;
      for (const cwd of isAbsolute(piece) ? ['/'] : w.cwds) {
        const key = `${cwd}\0${piece}`;
        if (paths.seen.has(key)) continue; // the same name in the same place: judged already
        if (paths.left-- === 0) return TOO_MANY_PATHS;
        paths.seen.add(key);
        const v = checkShellPath(guards, r, resolvePath(piece, cwd), probePath(piece, cwd, cwdCanon));
        if (v) return v;
      }
    }
  }
  for (const components of w.word.globs) {
    const loose = components.map((c) =>
      'pattern' in c ? new RegExp(`^${c.source}$`, 'isu') : c.literal.toLowerCase(),
    );
    const could = (name: string, at: number) => {
      const c = loose[at];
      return typeof c === 'string' ? c === name : c !== undefined && c.test(name);
    };
    for (let i = 0; i < loose.length; i++) {
      if (could('secrets', i))
        return {
          action: 'require',
          guard: 'secrets',
          text: 'A glob in the command could reach a secrets/ folder: always asks.',
        };
      // `.gi?/hooks`, `.git/h*`: a pattern at or right after a .git component could name hooks or config.
      const isGit = could('.git', i);
      if (isGit && (typeof loose[i] !== 'string' || loose.slice(i + 1).some((c) => typeof c !== 'string')))
        return SHELL_GIT;
    }
  }
  return null;
}

function checkShellPath(guards: Guards, r: Roots, lexical: string, canon: string): GuardVerdict | null {
  const rels = [relIn(canon, r.wsCanon), relIn(lexical, r.wsRaw), relIn(lexical, r.wsCanon)];
  if (inSecrets(r, rels, lexical, canon)) return SHELL_SECRETS;
  if (!singleLinked.has(canon) && hardLinkVerdictAt(canon, linkWorkspaces(r), [r.dataCanon]) !== null)
    return SHELL_SECRETS;
  if (guards.isDataDir(r, canon) || guards.isDataDir(r, lexical))
    return {
      action: 'require',
      guard: 'app_data_touch',
      text: "The command names a path in the app's data folder: always asks.",
    };
  if (guards.isCredential(lexical, canon)) return CREDENTIALS;
  const parts = (rels[0] ?? rels[1] ?? slash(canon)).split('/').map((p) => p.toLowerCase());
  if (gitProtectedReason(parts) || gitConfiguredReason(canon)) return SHELL_GIT;
  return null;
}

/** Whether the command names the data folder or the database file (not a file of the default workspace in it). */
function mentionsDataDir(guards: Guards, r: Roots, command: string): boolean {
  const text = command.toLowerCase();
  if (text.includes(guards.dbName)) return true;
  const home = homedir();
  const spellings = new Set<string>();
  for (const dir of [r.dataRaw, r.dataCanon]) {
    spellings.add(slash(dir));
    if (dir.startsWith(home + sep)) spellings.add(`~/${slash(dir.slice(home.length + 1))}`);
  }
  const ws = [r.defaultWsRaw ?? r.wsRaw, r.defaultWsCanon ?? r.wsCanon];
  const wsSpellings = ws.map((s) => slash(s).toLowerCase());
  for (const spelling of spellings) {
    const needle = spelling.toLowerCase();
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
      const rest = text.slice(at);
      if (!/^($|[/\s'"`;|&)])/.test(rest.slice(needle.length))) continue; // `/data2` is not `/data`
      // The default workspace lives inside the data folder: naming a file in it is not naming the data folder.
      const intoWorkspace = wsSpellings.some((w) =>
        w.startsWith(needle) ? rest.startsWith(w) && /^($|[/\s'"])/.test(rest.slice(w.length)) : false,
      );
      if (!intoWorkspace) return true;
    }
  }
  return false;
}

/**
 * The canonical form of a shell word's path, cheaply for the common case: a plain name in the working directory
 * (`status`, `out.txt`) is the canonical working directory plus the name unless the name is itself a symlink
 * (one lstat); anything else goes through the canonicalizer. Most words of a command are such names, and a
 * realpath that fails (the name does not exist) costs an exception per level.
 */
function probePath(piece: string, cwd: string, cwdCanon: Map<string, string>): string {
  if (piece.includes('/') || piece === '.' || piece === '..' || piece.startsWith('~'))
    return canonicalizeForPolicy(piece, cwd);
  let base = cwdCanon.get(cwd);
  if (base === undefined) cwdCanon.set(cwd, (base = canonicalizeForPolicy(cwd, cwd)));
  try {
    const info = lstatSync(join(base, piece), { throwIfNoEntry: false });
    if (info?.isSymbolicLink()) return canonicalizeForPolicy(piece, cwd);
    if (!info || !info.isFile() || info.nlink <= 1) singleLinked.add(join(base, piece));
  } catch {
    return canonicalizeForPolicy(piece, cwd);
  }
  return join(base, piece);
}

/** Paths `probePath` saw as no multi-link file, within one decision: no need to stat them again for hard links. */
const singleLinked = new Set<string>();
