/**
 * The user's login-shell PATH (docs/mcp.md "Lifecycle"). An app started from a desktop launcher inherits a bare
 * PATH (`/usr/bin:/bin`), so `npx`, `uvx` or a version-managed `node` that work in a terminal are "not found" from
 * the app: the most common MCP failure in desktop agent apps. We ask the login shell once (`$SHELL -ilc`), between
 * markers so rc-file chatter is ignored, bounded by a timeout, and put its entries first, then the app's own.
 * Limits: a shell that needs a terminal or hangs past the timeout leaves the app's PATH as it is.
 */
import { execFile } from 'node:child_process';
import { delimiter } from 'node:path';

const MARK = '__SKALD_PATH__';
const TIMEOUT_MS = 5_000;
let cached: Promise<string> | null = null;

export function mergePaths(first: string, then: string): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of [...first.split(delimiter), ...then.split(delimiter)]) {
    if (part === '' || seen.has(part)) continue;
    seen.add(part);
    out.push(part);
  }
  return out.join(delimiter);
}

function askLoginShell(shell: string): Promise<string | null> {
  return new Promise((resolve) => {
    const child = execFile(
      shell,
      ['-ilc', `printf '%s%s%s' '${MARK}' "$PATH" '${MARK}'`],
      { timeout: TIMEOUT_MS, encoding: 'utf8', env: { ...process.env, TERM: 'dumb' }, maxBuffer: 1024 * 1024 },
      (error, stdout) => {
        const match = new RegExp(`${MARK}(.*?)${MARK}`, 's').exec(stdout ?? '');
        resolve(match?.[1] ? match[1] : error ? null : null);
      },
    );
    child.stdin?.end();
  });
}

/** The PATH a stdio server gets: login shell's first, the app's after. Asked once per run. */
export function loginShellPath(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (process.platform === 'win32') return Promise.resolve(env.PATH ?? '');
  cached ??= (async () => {
    const shell = env.SHELL && env.SHELL.startsWith('/') ? env.SHELL : '/bin/sh';
    const login = await askLoginShell(shell);
    return mergePaths(login ?? '', env.PATH ?? '');
  })();
  return cached;
}
