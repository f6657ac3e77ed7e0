/**
 * Every place git reads hooks or configuration from (docs/guards.md "Git"): writing one of them makes git run a
 * program of the writer's choice the next time the person runs git. Judged on path components, case-insensitively
 * (macOS and Windows file systems), under any `.git` folder of the path:
 * - `.git/hooks/**`; `.git/config`, `.git/config.worktree`, `.git/commondir`, `.git/gitdir`;
 * - a submodule's repository `.git/modules/<name…>/` and a linked worktree's `.git/worktrees/<name>/`: their
 *   `hooks/**`, `config`, `config.worktree`, `commondir`, `gitdir`;
 * - a `.git` *file* (a submodule's or worktree's pointer: `gitdir: <where the repository is>`);
 * - what a repository's own config names: the folder of `core.hooksPath`, and the files of `include.path` and
 *   `includeIf.*.path` (configuration git reads as its own), found by reading the config of every repository
 *   that encloses the path.
 * Not guarded, on purpose: `.git/info/attributes` and `.gitattributes` (they can name a filter or diff driver, but
 * the command of a driver lives in the config, which is guarded); `.git/objects`, refs, `HEAD` (data, not code).
 * What a config names is re-read when the config changes (by modification time); which folders hold a `.git` is
 * remembered for REPO_TTL_MS.
 * Every file here is read through the disk module (disk/open.ts), never with a blocking read: a `.git`, a
 * `commondir`, a pointer's target or a config that is a FIFO, socket or device (or any odd kind) makes the answer a
 * reason to refuse ("where git looks for its hooks cannot be read"), so a write under it is refused with a sentence
 * instead of hanging the core on the read.
 * Limits: the user's global and system config (`~/.gitconfig`, `/etc/gitconfig`) are outside the workspace, where
 * no tool writes; a config value set by `GIT_CONFIG_*` variables is not seen.
 */
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { DiskError } from '../../disk/disk-error';
import { KIND_WORDS, kindOf, statAt } from '../../disk/kinds';
import { readFile } from '../../disk/open';
import { pathUnder, realPathOrNull } from '../../disk/paths';

const CONFIG_FILES = new Set(['config', 'config.worktree', 'commondir', 'gitdir']);

/** Why writing a path with these components (lower case, in order) could change what git runs; null when not. */
export function gitProtectedReason(parts: readonly string[]): string | null {
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] !== '.git') continue;
    const after = parts.slice(i + 1);
    if (after.length === 0) return 'a .git file or folder tells git where the repository and its hooks are';
    if (after[0] === 'hooks') return 'git hooks run code on your machine';
    if (after.length === 1 && CONFIG_FILES.has(after[0]!)) return `.git/${after[0]} can make git run commands`;
    if (after[0] === 'modules' || after[0] === 'worktrees') {
      // A submodule's or worktree's own repository: same rules, at any depth of (possibly nested) names.
      const rest = after.slice(1);
      if (rest.slice(0, -1).includes('hooks') || rest.at(-1) === 'hooks') return 'git hooks run code on your machine';
      if (rest.length > 1 && CONFIG_FILES.has(rest.at(-1)!))
        return `a submodule's or worktree's ${rest.at(-1)} can make git run commands`;
    }
  }
  return null;
}

interface RepoPaths {
  /** Absolute folders named by core.hooksPath. */
  hookDirs: string[];
  /** Absolute files named by include.path / includeIf.*.path. */
  includes: string[];
  /** Why git's metadata here cannot be read (a FIFO where a file should be, …): every write below is refused. */
  unreadable?: string;
}

const configCache = new Map<string, { mtimeMs: number; value: RepoPaths }>();
const EMPTY: RepoPaths = { hookDirs: [], includes: [] };

/**
 * Why writing `absolute` (canonical) is writing a hooks folder or config file that a repository enclosing it names
 * in its config; null when none does.
 */
export function gitConfiguredReason(absolute: string): string | null {
  for (let dir = dirname(absolute), depth = 0; depth < 64; depth++) {
    const repo = repoPathsAt(dir);
    if (repo.unreadable) return repo.unreadable;
    for (const hooks of repo.hookDirs)
      if (pathUnder(absolute, hooks))
        return "the repository's core.hooksPath names this folder: git runs the hooks in it";
    for (const inc of repo.includes)
      if (absolute === inc) return "the repository's config includes this file as git configuration";
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}

/**
 * Which folders hold a `.git`, remembered for a moment: a decision asks about the same few ancestors for every
 * word of a command, and each question is a stat per level up to the root.
 */
const REPO_TTL_MS = 1000;
const repoCache = new Map<string, { at: number; value: RepoPaths }>();

/** The hooks folders and included configs named by the repository whose work tree is `dir`, if any. */
function repoPathsAt(dir: string): RepoPaths {
  const now = Date.now();
  const hit = repoCache.get(dir);
  if (hit && now - hit.at < REPO_TTL_MS) return hit.value;
  const value = readRepoPaths(dir);
  if (repoCache.size > 512) repoCache.clear();
  repoCache.set(dir, { at: now, value });
  return value;
}

/** The most of a pointer, `commondir` or config file that is read (git's own are a few hundred bytes). */
const MAX_META_BYTES = 1024 * 1024;

/** Raised while reading a repository's metadata: the sentence for the refusal. */
class Unreadable extends Error {}

/** What a file of git's metadata is when it is not what git needs: a reason, in a sentence. */
const oddKind = (path: string, what: string, wanted: string) =>
  new Unreadable(
    `where git looks for its hooks cannot be read: ${path} is ${what}, not ${wanted}, so writes under it are refused`,
  );

/**
 * The text of one metadata file, or null when there is none; following symlinks as git does (the real path is what
 * is opened, with no link left on it), never blocking.
 */
function metaText(path: string): string | null {
  const info = statAt(path, true);
  if (!info) return null;
  if (!info.isFile()) throw oddKind(path, KIND_WORDS[kindOf(info)], 'a regular file');
  const real = realPathOrNull(path);
  if (real === null) return null;
  try {
    return readFile({ path: real, shown: path }, MAX_META_BYTES).bytes.toString('utf8');
  } catch (error) {
    if (error instanceof DiskError && error.code === 'missing') return null;
    throw new Unreadable(`where git looks for its hooks cannot be read (${(error as Error).message})`);
  }
}

function readRepoPaths(dir: string): RepoPaths {
  try {
    return repoPathsOf(dir);
  } catch (error) {
    if (error instanceof Unreadable) return { hookDirs: [], includes: [], unreadable: error.message };
    return EMPTY;
  }
}

function repoPathsOf(dir: string): RepoPaths {
  const dotGit = join(dir, '.git');
  const info = statAt(dotGit, true);
  if (!info) return EMPTY;
  let gitDir = dotGit;
  if (!info.isDirectory()) {
    if (!info.isFile()) throw oddKind(dotGit, KIND_WORDS[kindOf(info)], 'a folder or a gitdir pointer file');
    const pointed = pointedGitDir(metaText(dotGit) ?? '', dir);
    if (pointed === null) return EMPTY;
    const target = statAt(pointed, true);
    if (!target) return EMPTY;
    if (!target.isDirectory()) throw oddKind(pointed, KIND_WORDS[kindOf(target)], "the repository's folder");
    gitDir = pointed;
  }
  const out: RepoPaths = { hookDirs: [], includes: [] };
  const configs = [join(gitDir, 'config'), join(gitDir, 'config.worktree')];
  const common = metaText(join(gitDir, 'commondir'))?.trim();
  if (common) configs.push(join(resolve(gitDir, common), 'config'));
  for (const file of configs) {
    const paths = parsedConfig(file, dir);
    out.hookDirs.push(...paths.hookDirs);
    out.includes.push(...paths.includes);
  }
  return out;
}

/** The folder a `.git` pointer file names (`gitdir: <path>`), or null when it names none. */
function pointedGitDir(text: string, workTree: string): string | null {
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  return m ? resolve(workTree, m[1]!) : null;
}

function parsedConfig(file: string, workTree: string): RepoPaths {
  const info = statAt(file, true);
  if (!info) return EMPTY;
  if (!info.isFile()) throw oddKind(file, KIND_WORDS[kindOf(info)], 'a regular file');
  const hit = configCache.get(file);
  if (hit && hit.mtimeMs === info.mtimeMs) return hit.value;
  const value: RepoPaths = { hookDirs: [], includes: [] };
  let section = '';
  const text = metaText(file);
  if (text === null) return EMPTY;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]/.exec(line);
    if (header) {
      section = header[1]!.toLowerCase();
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (!kv) continue;
    const key = kv[1]!.toLowerCase();
    const val = configValue(kv[2]!);
    if (val === '') continue;
    if (section === 'core' && key === 'hookspath') value.hookDirs.push(expandPath(val, workTree));
    if ((section === 'include' || section === 'includeif') && key === 'path')
      value.includes.push(expandPath(val, dirname(file)));
  }
  if (configCache.size > 256) configCache.clear();
  configCache.set(file, { mtimeMs: info.mtimeMs, value });
  return value;
}

/** A config value without its comment and quotes (enough for paths). */
function configValue(v: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < v.length; i++) {
    const c = v[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '#' || c === ';')) break;
    else if (c === '\\' && i + 1 < v.length) out += v[++i];
    else out += c;
  }
  return out.trim();
}

function expandPath(p: string, base: string): string {
  if (p === '~' || p.startsWith('~/')) return join(homedir(), p.slice(1));
  return isAbsolute(p) ? resolve(p) : resolve(base, p);
}
