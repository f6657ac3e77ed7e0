/**
 * The hard invariants every fs tool enforces itself, whatever the approval gate decided (docs/approval.md "Hard
 * guards"; checks F1–F4, F7 in docs/security-checks.md):
 * - a path is resolved (absolute, or relative to the working directory) and canonicalized with the one
 *   canonicalizer (`..` and symlinks of the longest existing ancestor); the canonical path must lie inside the
 *   canonical workspace root, compared by whole components;
 * - nothing under a `secrets` folder (any depth, any letter case) is read, listed or written;
 * - writes never touch a protected path (every place git reads hooks or config from — `git-paths.ts` —,
 *   `.vscode/**`, `.mcp.json`, shell rc files, our per-project `.skald/` config) nor the app's data dir
 *   (`protectedRoots`).
 * The resulting `GuardedPath.real` is the path the tool must operate on: it was checked, the lexical one was not.
 * Limits: the check and the later open are not atomic: the disk module (src/main/core/disk/) closes the gap, as the
 * facade (`fs.ts`) opens the canonical path with no symlink allowed on it, checks the identity on the descriptor,
 * and asks `recheckWriteTarget` again right before a write's rename.
 */
import { basename, dirname } from 'node:path';
import { shownPath } from '../../../../shared/shown-path';
import { canonicalizeForPolicy, displayPath, hasComponent, relativeInside, resolvePath } from '../../disk/paths';
import { guardScope, inProtectedRoot, SECRETS_DIR, type GuardScope } from '../../disk/protected';
import { ToolError } from '../define-tool';
import { gitConfiguredReason, gitProtectedReason } from './git-paths';

export { inProtectedRoot, SECRETS_DIR } from '../../disk/protected';

export interface PathContext {
  workingDir: string;
  workspaceDir: string;
  protectedRoots?: readonly string[];
  /**
   * The app's default workspace, when the session works in another folder: its `secrets` folders stay guarded (a hard
   * link to one of its secrets is refused), as the gate guards them (docs/approval.md "Relative means the working
   * directory").
   */
  defaultWorkspaceDir?: string;
}

export interface GuardedPath {
  /** What the model sent. */
  input: string;
  /** Resolved lexically (absolute). */
  absolute: string;
  /** Canonical: the path to operate on. */
  real: string;
  /** Canonical workspace root. */
  root: string;
  /** Relative to the workspace when inside it (what the model should see). */
  display: string;
  /** Canonical app data folders: a hard link into them (or into secrets/) is refused when the file is opened. */
  protectedRoots?: readonly string[];
  /** What a hard link is judged against when the file is opened (disk/protected.ts): root, data and default workspace. */
  scope: GuardScope;
}

/** Our own per-project config folder inside a workspace (F7). */
export const PROJECT_CONFIG_DIR = '.skald';
const SHELL_RC_FILES = new Set([
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.zlogout',
  '.cshrc',
  '.tcshrc',
  '.kshrc',
  '.inputrc',
]);

/** Why a workspace-relative path may never be written, or null when it may (F7). Case-insensitive on purpose. */
export function protectedReason(rel: string): string | null {
  const parts = rel
    .split(/[\\/]+/)
    .filter(Boolean)
    .map((p) => p.toLowerCase());
  const last = parts[parts.length - 1] ?? '';
  const git = gitProtectedReason(parts);
  if (git) return git;
  if (parts.includes('.vscode')) return 'editor settings and tasks can run commands';
  if (last === '.mcp.json') return 'it configures MCP servers (programs that run on your machine)';
  if (SHELL_RC_FILES.has(last)) return 'shell start-up files run on every new shell';
  if (parts.includes(PROJECT_CONFIG_DIR)) return "it is Skald's own per-project configuration";
  return null;
}

function locate(raw: unknown, ctx: PathContext): GuardedPath {
  if (typeof raw !== 'string' || raw.trim() === '')
    throw new ToolError(
      'The path is empty. Pass a file or folder path, relative to the working directory or absolute.',
    );
  if (raw.includes('\0')) throw new ToolError('The path contains a NUL character; pass a plain path.');
  const absolute = resolvePath(raw, ctx.workingDir);
  const real = canonicalizeForPolicy(absolute, ctx.workingDir);
  const scope = guardScope(ctx.workspaceDir, ctx.protectedRoots, ctx.defaultWorkspaceDir);
  const root = scope.root;
  return {
    input: raw,
    absolute,
    real,
    root,
    display: shownPath(displayPath(real, root)),
    protectedRoots: scope.protectedRoots,
    scope,
  };
}

function refuseOutsideOrSecret(g: GuardedPath): void {
  const rel = relativeInside(g.real, g.root);
  if (rel === null) {
    throw new ToolError(
      `Access denied: ${g.input} resolves to ${g.real}, which is outside the workspace (${g.root}). ` +
        'File tools only work inside the workspace; symlinks that lead outside are not followed.',
    );
  }
  const lexical = relativeInside(g.absolute, g.root);
  if (hasComponent(rel, SECRETS_DIR) || (lexical !== null && hasComponent(lexical, SECRETS_DIR))) {
    throw new ToolError(`Access denied: ${g.input} is inside a secrets/ folder, which no tool may read or write.`);
  }
}

/** For read_file, list_files, grep_files, search_file, get_ast_outline. */
export function guardRead(raw: unknown, ctx: PathContext): GuardedPath {
  const g = locate(raw, ctx);
  refuseOutsideOrSecret(g);
  return g;
}

/** For write_file, edit_file, insert_at_line, replace_lines. */
export function guardWrite(raw: unknown, ctx: PathContext): GuardedPath {
  const g = locate(raw, ctx);
  refuseOutsideOrSecret(g);
  for (const rel of [relativeInside(g.real, g.root), relativeInside(g.absolute, g.root)]) {
    const reason = rel === null ? null : protectedReason(rel);
    if (reason)
      throw new ToolError(
        `Write refused: ${g.display} is a protected path (${reason}). No tool may change it; ask the user to do it.`,
      );
  }
  const configured = gitConfiguredReason(g.real);
  if (configured)
    throw new ToolError(
      `Write refused: ${g.display} is a protected path (${configured}). No tool may change it; ask the user to do it.`,
    );
  const dataDir = inProtectedRoot(g.real, g.root, ctx.protectedRoots);
  if (dataDir)
    throw new ToolError(
      `Write refused: ${g.display} is inside the app's data folder (${dataDir}), which no tool may change.`,
    );
  if (g.real === g.root)
    throw new ToolError('Write refused: the path is the workspace folder itself; name a file inside it.');
  return g;
}

/** Re-check used right before a rename: the parent's *current* real path must still be a writable place. */
export function recheckWriteTarget(real: string, ctx: PathContext): boolean {
  try {
    const parentReal = canonicalizeForPolicy(dirname(real), ctx.workingDir);
    const root = guardScope(ctx.workspaceDir).root;
    const rel = relativeInside(parentReal, root);
    if (rel === null || hasComponent(rel, SECRETS_DIR)) return false;
    if (protectedReason(rel === '' ? basename(real) : `${rel}/${basename(real)}`)) return false;
    if (gitConfiguredReason(real)) return false;
    return inProtectedRoot(parentReal, root, ctx.protectedRoots) === null;
  } catch {
    return false;
  }
}
