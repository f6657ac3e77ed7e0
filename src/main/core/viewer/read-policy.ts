/**
 * The viewer's read policy, built from the disk module's one path policy (src/main/core/disk/), applied on every
 * request (docs/viewer.md "Read policy"):
 * - the path is resolved and canonicalized with the tools' canonicalizer (`..` and every symlink resolved);
 * - hard guards refuse whatever the person says: any `secrets` folder component (lexical or real, any letter
 *   case), and the app's data folder (database, key file, settings), except a workspace that lives inside it;
 * - a real path outside the session's working directory is `outside`: the viewer asks the person first.
 * The check and the later open are not atomic: `file-read.ts` opens the real path through the disk module, which
 * allows no symlink on it and checks the identity (and hard links, against `guardScopeOf`) on the opened descriptor;
 * the handle is bound to the real path it was issued for.
 */
import { canonicalizeForPolicy, displayPath, hasComponent, pathUnder, resolvePath } from '../disk/paths';
import { guardScope, inProtectedRoot, SECRETS_DIR, type GuardScope } from '../disk/protected';

export interface ReadPolicyContext {
  /** The session's working directory: inside it needs no confirmation. */
  workingDir: string;
  /** The app's data folder: never served (its workspace/ aside). */
  dataDir: string;
  /** The app's default workspace (inside the data folder unless chosen elsewhere): stays viewable. */
  workspaceDir: string;
}

export interface PolicyPath {
  absolute: string;
  real: string;
  display: string;
  isOutside: boolean;
}

export class ViewerRefusal extends Error {
  constructor(
    readonly code: 'refused' | 'missing' | 'not_file' | 'too_large' | 'unreadable' | 'changed',
    message: string,
  ) {
    super(message);
    this.name = 'ViewerRefusal';
  }
}

export function applyReadPolicy(input: string, base: string, ctx: ReadPolicyContext): PolicyPath {
  if (input.trim() === '') throw new ViewerRefusal('missing', 'No path given.');
  if (input.includes('\0')) throw new ViewerRefusal('refused', 'The path contains a NUL character.');
  const absolute = resolvePath(input, base);
  const real = canonicalizeForPolicy(absolute, base);
  const root = canonicalizeForPolicy(ctx.workingDir, ctx.workingDir);
  if (hasComponent(absolute, SECRETS_DIR) || hasComponent(real, SECRETS_DIR)) {
    throw new ViewerRefusal('refused', `${input} is inside a secrets/ folder, which the viewer never opens.`);
  }
  const workspaceRoot = canonicalizeForPolicy(ctx.workspaceDir, ctx.workspaceDir);
  const dataDir = inProtectedRoot(real, root, [ctx.dataDir]) && inProtectedRoot(real, workspaceRoot, [ctx.dataDir]);
  if (dataDir)
    throw new ViewerRefusal(
      'refused',
      `${input} is inside Skald's data folder (${dataDir}), which holds the database and keys; the viewer never opens it.`,
    );
  const isOutside = !pathUnder(real, root);
  return { absolute, real, display: isOutside ? real : displayPath(real, root), isOutside };
}

/**
 * Whose guarded files a hard link must not reach, for a read under this context: the `secrets` folders of the
 * working directory and every file of the data folder (key file, database, …) outside it.
 */
export function guardScopeOf(ctx: ReadPolicyContext): GuardScope {
  return guardScope(ctx.workingDir, [ctx.dataDir], ctx.workspaceDir);
}
