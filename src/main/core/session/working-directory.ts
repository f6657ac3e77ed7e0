/**
 * Which folders may be a session's working directory (docs/chat-ui.md "Working directory"): an existing directory,
 * never inside the app's data folder (its database, settings and rules), except the default workspace/ there.
 */
import { existsSync, statSync } from 'node:fs';
import { BridgeError } from '../../../shared/contract/define';
import { canonicalizeForPolicy, pathUnder, resolvePath } from '../tools/_policy/paths';

/** The absolute form of `path` (resolved against `base`), or a BridgeError saying why it is not a usable one. */
export function usableWorkingDirectory(
  path: string,
  base: string,
  dirs: { workspaceDir: string; dataDir: string },
): string {
  const absolute = resolvePath(path, base);
  if (!existsSync(absolute) || !statSync(absolute).isDirectory())
    throw new BridgeError('bad_request', `Not a directory: ${absolute}`);
  const real = canonicalizeForPolicy(absolute, absolute);
  const data = canonicalizeForPolicy(dirs.dataDir, dirs.dataDir);
  if (pathUnder(real, data) && !pathUnder(real, canonicalizeForPolicy(dirs.workspaceDir, dirs.workspaceDir))) {
    throw new BridgeError('bad_request', "The app's data folder cannot be a working directory.");
  }
  return absolute;
}
