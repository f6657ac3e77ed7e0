/**
 * The hard guards and the always-prompt classes (docs/guards.md). They run before every
 * rule and nothing lifts them: a `deny` guard ends the decision; a `require` guard ("locked") can still be turned
 * into a deny by a rule, but no rule, bypass or fast-path makes it allow.
 *
 * Paths are judged twice: in their lexical form (what the model wrote, `..` folded) and in their canonical form
 * (symlinks of the longest existing ancestor resolved, the one canonicalizer of tools/_policy). `secrets` matches
 * any letter case. Which tools write: every tool with a path that is not a known reader (MCP tools included),
 * because a guard must err on the side of "this may write".
 * Hard links (more than one link) are judged by device+inode against the guarded files (tools/_policy/hardlinks.ts);
 * git's hook and config locations come from tools/_policy/git-paths.ts. A shell command is judged by its words
 * after bash's expansions (docs/shell-analysis.md), and by its text as a second net: command-guards.ts, with the
 * tests and roots of this file.
 * Limits: only the path-like argument names in PATH_ARG_KEYS (tools/_policy/paths.ts) are inspected.
 */
import { homedir } from 'node:os';
import { basename, sep } from 'node:path';
import { isFileTool, mayWrite, type ToolTraits } from '../../../shared/tool-traits';
import { gitConfiguredReason, gitProtectedReason } from '../tools/_policy/git-paths';
import { hardLinkVerdictAt } from '../tools/_policy/hardlinks';
import { canonicalBelow, canonicalizeForPolicy, hasComponent, resolvePath } from '../tools/_policy/paths';

export type GuardId =
  | 'secret_value'
  | 'secrets'
  | 'credentials'
  | 'app_data_write'
  | 'git_config'
  | 'app_data_touch'
  | 'steering_file'
  | 'symlink_escape'
  | 'outside_working_dir'
  | 'unsafe_shell';

export interface GuardVerdict {
  action: 'deny' | 'require';
  guard: GuardId;
  text: string;
}

/** The locked rows of the Security page. */
export const GUARD_LIST: readonly { id: GuardId; action: 'deny' | 'require'; title: string; description: string }[] = [
  {
    id: 'secrets',
    action: 'deny',
    title: 'secrets/ folders',
    description:
      'Reading or writing anything under a secrets/ folder of the session\'s working directory (or of the default workspace), in any letter case, through symlinks and "..". Shell commands that name a secrets/ path always ask.',
  },
  {
    id: 'credentials',
    action: 'require',
    title: 'Credential stores',
    description:
      'Any tool or shell command that names ~/.ssh, ~/.gnupg, ~/.aws, ~/.azure, ~/.kube, ~/.docker/config.json, ~/.netrc, ~/.git-credentials, ~/.npmrc, ~/.pypirc, ~/.pgpass, cloud CLI logins, password stores, browser profiles, /etc/shadow or /etc/ssh: always asks, whatever the rules (even where a rule allows "cat *").',
  },
  {
    id: 'app_data_write',
    action: 'deny',
    title: "The app's data folder",
    description:
      "Writing the app's own data folder (database, settings, rules). The workspace inside it stays writable.",
  },
  {
    id: 'git_config',
    action: 'deny',
    title: 'Git configuration and hooks',
    description:
      "Writing any place git reads hooks or configuration from: .git/hooks/, .git/config, a submodule's or worktree's hooks and config (.git/modules/, .git/worktrees/), a .git pointer file, and the hooks folder or included config a repository's config names. Shell commands that name one always ask.",
  },
  {
    id: 'app_data_touch',
    action: 'require',
    title: 'Touching the data folder',
    description: 'Reading the data folder, or a shell command that names it or the database file: always asks.',
  },
  {
    id: 'steering_file',
    action: 'require',
    title: 'Agent-steering files',
    description:
      'Writing AGENTS.md, CLAUDE.md, .mcp.json, .vscode/, .cursor/, .husky/, .envrc, shell rc files and similar: always asks.',
  },
  {
    id: 'secret_value',
    action: 'require',
    title: 'Storing a secret',
    description:
      'set_secret always asks: a stored secret can be handed to plugins and servers that name it. The card shows the key; the value stays masked.',
  },
  {
    id: 'outside_working_dir',
    action: 'deny',
    title: 'File tools outside the working directory',
    description:
      "The file tools (read, list, search, outline, write, edit) work only inside the session's working directory, and refuse any path outside it or leading out of it through a symlink; the gate denies such a call before anyone is asked. Shell commands and MCP tools are judged by the other rows.",
  },
  {
    id: 'symlink_escape',
    action: 'require',
    title: 'Symlink escapes',
    description:
      "A path inside the session's working directory that resolves through a symlink to a place outside it: always asks.",
  },
  // Enforced by the gate's shell analysis (shell.ts), listed here so the Security page shows it as locked.
  {
    id: 'unsafe_shell',
    action: 'require',
    title: 'Opaque shell commands',
    description:
      "A command with $(…) or backticks, eval, bash -c / sh -c, a wrapper such as env, xargs, sudo or find -exec, a program told by an option or its script to run another (sed e, awk system, git -c, tar --checkpoint-action, rg --pre, …), a redirect out of the session's working directory, or text that does not parse: always asks; no rule or bypass allows it.",
  },
];

const STEERING_NAMES = new Set([
  'agents.md',
  'agent.md',
  'claude.md',
  'gemini.md',
  '.mcp.json',
  '.cursorrules',
  '.windsurfrules',
  '.clinerules',
  '.envrc',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.profile',
  '.zshrc',
  '.zprofile',
  '.zshenv',
  '.zlogin',
  'copilot-instructions.md',
]);
const STEERING_DIRS = new Set(['.vscode', '.cursor', '.husky', '.claude', '.gemini', '.skald', '.clinerules']);

/**
 * Where credentials are kept, below the home folder (lower case, `/`-separated; a folder covers all below it), and
 * system-wide (docs/guards.md "Credential stores"). The file tools never leave the workspace, but a shell command an
 * allow rule lets through (`cat *`, `cp *`) and an MCP tool with a path can: those ask here whatever the rules.
 */
export const HOME_CREDENTIALS: readonly string[] = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.kube',
  '.docker/config.json',
  '.config/gcloud',
  '.config/gh',
  '.config/hub',
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.yarnrc.yml',
  '.pypirc',
  '.pgpass',
  '.my.cnf',
  '.vault-token',
  '.terraform.d/credentials.tfrc.json',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.password-store',
  '.local/share/keyrings',
  '.config/op',
  '.mozilla/firefox',
  '.config/google-chrome',
  '.config/chromium',
  '.config/bravesoftware',
  'library/keychains',
  'library/application support/google/chrome',
  'library/application support/firefox',
];
export const SYSTEM_CREDENTIALS: readonly string[] = ['/etc/shadow', '/etc/gshadow', '/etc/sudoers', '/etc/ssh'];
export const CREDENTIALS: GuardVerdict = {
  action: 'require',
  guard: 'credentials',
  text: 'The path is a credential store (~/.ssh, ~/.aws, a browser profile, /etc/shadow, …): always asks.',
};

/** The first component of each entry: most paths below the home folder are ruled out by it alone (a walk asks per file). */
const CREDENTIAL_TOPS = new Set(HOME_CREDENTIALS.map((c) => c.split('/')[0]!));

/** Whether an absolute path is a credential store or inside one (`home`: the home folder, resolved). */
export function isCredentialPath(path: string, home: string): boolean {
  if (path.startsWith('/etc/')) {
    const p = slash(path).toLowerCase();
    if (SYSTEM_CREDENTIALS.some((c) => p === c || p.startsWith(`${c}/`))) return true;
  }
  const rel = relIn(path, home);
  if (rel === null || rel === '') return false;
  const cut = rel.indexOf('/');
  if (!CREDENTIAL_TOPS.has((cut === -1 ? rel : rel.slice(0, cut)).toLowerCase())) return false;
  const lower = rel.toLowerCase();
  return HOME_CREDENTIALS.some((c) => lower === c || lower.startsWith(`${c}/`));
}

const OUTSIDE_WORKING_DIR: GuardVerdict = {
  action: 'deny',
  guard: 'outside_working_dir',
  text: "The file tools work only inside the session's working directory, and this path is outside it (or leads out of it through a symlink): use a path inside it.",
};
const GIT_TEXT =
  'Places git reads hooks or configuration from (.git/hooks, .git/config, submodule and worktree config, core.hooksPath) are never written by tools (hard guard).';
const HARD_LINK_TEXT = "The path is a hard link to a file in a secrets/ folder or the app's data folder (hard guard).";

/** A path in `/`-separated form, as guards compare it (and as rules and the card write it). */
export const slash = (p: string) => (sep === '/' ? p : p.split(sep).join('/'));

/**
 * `relativeInside` for two paths that are already absolute and normalized (canonical or resolved), as a string
 * prefix test on a separator boundary: path.relative costs microseconds and a decision makes a dozen of these.
 */
export function relIn(child: string, base: string): string | null {
  if (child === base) return '';
  const prefix = base.endsWith(sep) ? base : base + sep;
  return child.startsWith(prefix) ? slash(child.slice(prefix.length)) : null;
}
const under = (child: string, base: string) => relIn(child, base) !== null;

/**
 * The folders one decision is judged against, lexical and canonical, fixed for that decision. `ws` is the call's
 * workspace: the session's working directory, wherever the person put it (docs/approval.md "Relative means the
 * working directory"); relative rule paths, the secrets/ guard, symlink escapes and "inside the workspace" of the
 * shell analysis all mean below it. `defaultWs` is the app's default workspace (`<data>/workspace`) when the call's
 * working directory is another folder: it stays out of the data folder's guards, and its own secrets/ stay guarded.
 */
export interface Roots {
  wsRaw: string;
  wsCanon: string;
  dataRaw: string;
  dataCanon: string;
  defaultWsRaw?: string;
  defaultWsCanon?: string;
}

export interface GuardPaths {
  workspaceDir: string;
  dataDir: string;
  dbFile: string;
}

export class Guards {
  private readonly wsRaw: string;
  private readonly dataRaw: string;
  /** The database file's name, lower case: a command that names it touches the data folder. */
  readonly dbName: string;

  private homeCache: { home: string; homes: readonly string[] } | null = null;

  constructor(private readonly dirs: GuardPaths) {
    this.wsRaw = resolvePath(dirs.workspaceDir, '/');
    this.dataRaw = resolvePath(dirs.dataDir, '/');
    this.dbName = basename(dirs.dbFile).toLowerCase();
  }

  // Canonical roots are recomputed for each decision (the workspace may be created or re-linked after start-up; a
  // stale canonical root would open a gap). When the workspace's real path is its own path, no folder on that path
  // is a symlink, so the data folder above it (the default layout) is its own real path too: one realpath, not two.
  /** The roots of a decision made in `workingDir` (absolute; absent = the default workspace). */
  roots(workingDir?: string): Roots {
    const defaultCanon = canonicalizeForPolicy(this.wsRaw, '/');
    const symlinkFree = defaultCanon === this.wsRaw && under(this.wsRaw, this.dataRaw);
    const dataCanon = symlinkFree ? this.dataRaw : canonicalizeForPolicy(this.dataRaw, '/');
    const base = { dataRaw: this.dataRaw, dataCanon };
    const wd = workingDir === undefined ? this.wsRaw : resolvePath(workingDir, '/');
    if (wd === this.wsRaw) return { wsRaw: wd, wsCanon: defaultCanon, ...base };
    const wsCanon = canonicalizeForPolicy(wd, '/');
    if (wsCanon === defaultCanon) return { wsRaw: wd, wsCanon, ...base };
    return { wsRaw: wd, wsCanon, ...base, defaultWsRaw: this.wsRaw, defaultWsCanon: defaultCanon };
  }

  /**
   * `canonicalizeForPolicy(absolute)` within one decision: a path under the workspace (as written or as resolved) is
   * walked down from the workspace's real path resolved for these roots (`canonicalBelow`), not resolved again from
   * the root of the file system; anything else, and anything the walk cannot answer alone, goes through realpath
   * (docs/guards.md "Canonical paths").
   */
  canonical(r: Roots, absolute: string): string {
    const walked =
      canonicalBelow(absolute, r.wsRaw, r.wsCanon) ??
      (r.wsCanon !== r.wsRaw ? canonicalBelow(absolute, r.wsCanon, r.wsCanon) : null);
    return walked ?? canonicalizeForPolicy(absolute, '/');
  }

  /**
   * Inside the data folder, except the default workspace when it sits inside it (the default layout): a session's
   * working directory is never elsewhere in the data folder (session/working-directory.ts).
   */
  isDataDir(r: Roots, canon: string): boolean {
    if (!under(canon, r.dataCanon)) return false;
    const ws = r.defaultWsCanon ?? r.wsCanon;
    return !(under(ws, r.dataCanon) && under(canon, ws));
  }

  /**
   * Judges one path argument of a call. `lexical` and `canon` are absolute. `tool`: what the tool says it does (its
   * kind and category, docs/tools.md "One tool shape"); null for a tool the core does not know, judged as a writer.
   */
  checkPath(
    r: Roots,
    tool: Pick<ToolTraits, 'kind' | 'category'> | null,
    lexical: string,
    canon: string,
  ): GuardVerdict | null {
    const rels = [relIn(canon, r.wsCanon), relIn(lexical, r.wsRaw), relIn(lexical, r.wsCanon)];
    if (inSecrets(r, rels, lexical, canon)) {
      return {
        action: 'deny',
        guard: 'secrets',
        text: 'secrets/ folders are never read or written by tools (hard guard).',
      };
    }
    // A second name of a guarded file (a hard link) is that file; realpath cannot see it, its identity can.
    const link = hardLinkVerdictAt(canon, linkWorkspaces(r), [r.dataCanon]);
    if (link === 'guarded') return { action: 'deny', guard: 'secrets', text: HARD_LINK_TEXT };
    const writes = mayWrite(tool);
    const inData = this.isDataDir(r, canon);
    if (writes && inData)
      return {
        action: 'deny',
        guard: 'app_data_write',
        text: "The app's data folder (database, settings, rules) is never written by tools (hard guard).",
      };
    // Inside the workspace only the part below it counts: the default data folder is `~/.skald`, and a folder
    // above the workspace must not make every path in it look like a steering or git file.
    const parts = (rels[0] ?? slash(canon)).split('/').map((p) => p.toLowerCase());
    if (writes && (gitProtectedReason(parts) || gitConfiguredReason(canon)))
      return { action: 'deny', guard: 'git_config', text: GIT_TEXT };
    // The file tools work only inside the session's working directory and refuse anything else themselves
    // (tools/_policy/guard.ts): the gate says so before anyone is asked, so that the tester, the gate and the tool
    // give one answer (docs/approval.md "The tester is the gate"). Other tools with a path (MCP) ask below.
    if (rels[0] === null && isFileTool(tool)) return OUTSIDE_WORKING_DIR;
    if (this.isCredential(lexical, canon)) return CREDENTIALS;
    const lexInside = rels[1] !== null || rels[2] !== null;
    if (lexInside && rels[0] === null) {
      return {
        action: 'require',
        guard: 'symlink_escape',
        text: 'The path leads through a symlink out of the working directory: always asks.',
      };
    }
    if (inData)
      return { action: 'require', guard: 'app_data_touch', text: "The path is in the app's data folder: always asks." };
    if (link === 'unknown')
      return {
        action: 'require',
        guard: 'secrets',
        text: 'The file has several hard links and the gate could not check them all against the guarded files: always asks.',
      };
    if (writes && (STEERING_NAMES.has(parts.at(-1) ?? '') || parts.slice(0, -1).some((p) => STEERING_DIRS.has(p)))) {
      return {
        action: 'require',
        guard: 'steering_file',
        text: 'Writing an agent-steering or tool-config file: always asks.',
      };
    }
    return null;
  }

  /** The home folder as written and resolved (credential stores are below it), read again if `$HOME` changed. */
  homes(): readonly string[] {
    const home = homedir();
    if (this.homeCache?.home !== home) {
      const raw = resolvePath(home, '/');
      this.homeCache = { home, homes: [...new Set([raw, canonicalizeForPolicy(raw, '/')])] };
    }
    return this.homeCache.homes;
  }

  /** Whether a path (as written, and resolved) is a credential store or inside one (docs/guards.md "Credential stores"). */
  isCredential(lexical: string, canon: string): boolean {
    return this.homes().some((home) => isCredentialPath(lexical, home) || isCredentialPath(canon, home));
  }
}

/** The workspaces whose secrets/ a hard link is judged against: the working directory, and the default one beside it. */
export const linkWorkspaces = (r: Roots): string | readonly string[] =>
  r.defaultWsCanon === undefined ? r.wsCanon : [r.wsCanon, r.defaultWsCanon];

/**
 * Whether a path is below a `secrets` folder of the call's working directory (`rels`: its forms relative to it), or
 * of the default workspace when the session works elsewhere: a session in a sub-folder must not reach `../secrets`.
 */
export function inSecrets(r: Roots, rels: readonly (string | null)[], lexical: string, canon: string): boolean {
  if (rels.some((x) => x !== null && hasComponent(x, 'secrets'))) return true;
  if (r.defaultWsRaw === undefined || r.defaultWsCanon === undefined) return false;
  return [relIn(canon, r.defaultWsCanon), relIn(lexical, r.defaultWsRaw), relIn(lexical, r.defaultWsCanon)].some(
    (x) => x !== null && hasComponent(x, 'secrets'),
  );
}
