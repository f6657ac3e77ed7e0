/**
 * A sentence in front of a failed start when the cause is plain (docs/mcp.md "Catalog"): a server run through `npx` or
 * `uvx` whose package could not be downloaded (offline, a proxy, the registry down), or whose runner is not installed.
 * Read from the start error and the server's stderr (npm prints the network error well above its last lines). Null
 * when neither applies: the error and stderr then speak for themselves.
 */
import { basename } from 'node:path';

const NETWORK =
  /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH)\b|network (is )?unreachable|dns error|error sending request|failed to fetch/i;

const INSTALL: Record<'npx' | 'uvx', string> = {
  npx: 'npx comes with Node.js (nodejs.org)',
  uvx: 'uvx comes with uv (docs.astral.sh/uv)',
};

export function startFailureHint(command: string, args: readonly string[], text: string): string | null {
  const runner = basename(command).replace(/\.(cmd|exe)$/i, '');
  if (runner !== 'npx' && runner !== 'uvx') return null;
  if (new RegExp(`\\bspawn ${runner}\\S* ENOENT\\b`).test(text))
    return `${runner} was not found on this machine's PATH: ${INSTALL[runner]}. Install it, then press Restart.`;
  if (!NETWORK.test(text)) return null;
  const pkg = args.find((a) => !a.startsWith('-')) ?? 'its package';
  const registry = runner === 'npx' ? 'the npm registry' : 'the Python package index';
  return (
    `${runner} could not download ${pkg}: ${registry} could not be reached (is this machine offline, or behind a ` +
    'proxy?). Once it can be reached, press Restart; the download happens once.'
  );
}
