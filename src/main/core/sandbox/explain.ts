/**
 * A command the sandbox stopped tells the model so, in a sentence it can act on (docs/sandbox.md "When the sandbox
 * stops a command"), not only the raw `Read-only file system` or `EPERM` of the program. Read from the command's
 * output, line by line, after it ran: the usual messages of bash, coreutils, git, curl, Python and Node for
 * - a write outside the writable folders (`Read-only file system`, `EROFS`; `Permission denied` on a path outside
 *   them), and a write to git's hooks or configuration;
 * - a read of what the sandbox hides (`No such file or directory` on a path under a hidden folder, or in the
 *   machine's /tmp, which the command's own /tmp replaces), and a move of what it holds in place (`Device or
 *   resource busy` on a mount point: a `.git`, a hidden folder);
 * - the network, when the call has none (`Network is unreachable`, `Could not resolve host`, `getaddrinfo EAI_AGAIN`,
 *   a refused connection to a local server, …);
 * - a Unix socket (`Operation not permitted` / `EPERM` from `socket` or `connect`).
 * Limits: a program that words its error otherwise, or prints nothing, gets no sentence; the path is the one the
 * message names, resolved against the folder the command started in (a `cd` inside the command is not followed).
 */
import { isAbsolute, resolve } from 'node:path';
import { pathUnder } from '../tools/_policy/paths';
import { mountOver } from './bwrap';
import type { Mount, MountWhy } from './plan';

export interface ExplainContext {
  mounts: readonly Mount[];
  workingDir: string;
  /** Where the command started: relative paths in messages are read against it. */
  cwd: string;
  network: boolean;
}

const READ_ONLY = /read-only file system|\bEROFS\b/i;
const DENIED = /permission denied|\bEACCES\b/i;
const MISSING = /no such file or directory|\bENOENT\b/i;
const BUSY = /device or resource busy|\bEBUSY\b/i;
const NETWORK =
  /network is unreachable|could not resolve host|temporary failure in name resolution|name or service not known|no address associated with hostname|nodename nor servname|getaddrinfo \w+|\bEAI_AGAIN\b|\bENETUNREACH\b|\bECONNREFUSED\b|connection refused|couldn't connect to server|failed to connect to/i;
const NOT_PERMITTED = /operation not permitted|\bEPERM\b/i;
/** A socket named on the line of an EPERM or just before it (Python prints the call above its error). */
const SOCKET = /\b(socket|connect)\b/i;
/** How many sentences at most: the first of each kind is what the model needs. */
const MAX_SENTENCES = 3;

const HIDDEN_WHY: Partial<Record<MountWhy, string>> = {
  'data-folder': "it is in the app's data folder",
  secrets: 'it is in a secrets/ folder',
  credentials: 'it is a credential store',
};

/** Why the sandbox hides what a mount covers, as the end of a sentence. */
export function hiddenReason(why: MountWhy): string {
  return HIDDEN_WHY[why] ?? 'the sandbox hides it from commands';
}

/** The path a message line names: a quoted one, else the part before `: <error>` (bash's and coreutils' form). */
export function pathInMessage(line: string, error: RegExp): string | null {
  for (const m of line.matchAll(/['‘"`]([^'’"`\n]+)['’"`]/g)) {
    const candidate = m[1]!.trim();
    if (candidate !== '' && (candidate.includes('/') || !/\s/.test(candidate))) return candidate;
  }
  const at = line.search(error);
  if (at <= 0) return null;
  const parts = line
    .slice(0, at)
    .split(': ')
    .map((p) => p.trim())
    .filter(Boolean);
  // The last word before the error (`could not lock config file .git/config: …`).
  const candidate = (parts.at(-1)?.split(/\s+/).at(-1) ?? '').replace(/[:,]$/, '');
  return candidate.includes('/') ? candidate : null;
}

export function sandboxRefusals(output: string, ctx: ExplainContext): string[] {
  const out = new Set<string>();
  const writable = `only ${ctx.workingDir} and /tmp are writable in the sandbox`;
  const place = (raw: string | null) => (raw === null ? null : isAbsolute(raw) ? resolve(raw) : resolve(ctx.cwd, raw));
  const isWritable = (path: string) =>
    pathUnder(path, ctx.workingDir) || (pathUnder(path, '/tmp') && !pathUnder('/tmp', ctx.workingDir));
  const lines = output.split('\n');
  for (const [i, line] of lines.entries()) {
    if (out.size >= MAX_SENTENCES) break;
    const written = READ_ONLY.test(line) ? READ_ONLY : DENIED.test(line) ? DENIED : null;
    if (written) {
      const path = place(pathInMessage(line, written));
      const over = path ? mountOver(ctx.mounts, path) : null;
      if (over?.why === 'git')
        out.add(
          `the sandbox kept this command from writing ${path}: git's hooks and configuration stay read-only in the sandbox`,
        );
      else if (over?.kind === 'hidden') out.add(`the sandbox hides ${path}: ${hiddenReason(over.why)}`);
      else if (written === READ_ONLY)
        out.add(
          `the sandbox kept this command from writing ${path ?? 'outside the working folder'}: ${path ? 'it is outside the working folder; ' : ''}${writable}`,
        );
      // Permission denied is also the system's own answer: a sentence only for a path outside the writable folders.
      else if (path && !isWritable(path) && !/^\/(proc|sys|dev)\//.test(path))
        out.add(`if this command was writing ${path}, the sandbox kept it from doing so: ${writable}`);
    } else if (MISSING.test(line)) {
      const path = place(pathInMessage(line, MISSING));
      const over = path ? mountOver(ctx.mounts, path) : null;
      const why = over?.kind === 'hidden' ? HIDDEN_WHY[over.why] : undefined;
      if (why) out.add(`the sandbox hides ${path}: ${why}`);
      else if (over?.kind === 'private-tmp')
        out.add(
          `the sandbox gives commands their own empty ${over.path}: ${path}, in the machine's ${over.path}, is not visible to them`,
        );
    } else if (BUSY.test(line)) {
      const path = place(pathInMessage(line, BUSY));
      const over = path ? mountOver(ctx.mounts, path) : null;
      if (over && over.path === path && over.kind !== 'private-tmp')
        out.add(
          `the sandbox kept this command from moving or removing ${path}: ${over.why === 'git' ? "git's metadata stays in place in the sandbox" : hiddenReason(over.why)}`,
        );
    } else if (NOT_PERMITTED.test(line) && lines.slice(Math.max(0, i - 2), i + 1).some((l) => SOCKET.test(l))) {
      out.add('the sandbox kept this command from opening a Unix socket (a local service outside the sandbox)');
    } else if (!ctx.network && NETWORK.test(line)) {
      out.add(
        'the sandbox kept this command from using the network: commands run without network unless approved with it',
      );
    }
  }
  return [...out];
}
