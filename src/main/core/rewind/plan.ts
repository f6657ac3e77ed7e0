/**
 * What a rewind to before one of the person's messages would do (docs/rewind.md "The preview"), read from the images
 * the blob store kept of every write call after that message (any stack: a sub-agent's calls are the session's
 * rows too) and from the files as they are now. Per file, the calls' net effect: the first call's before-image is
 * what the file held before the message, the last call's after-image what the agent left. Undoing the calls one by
 * one in reverse order from their before-images ends at that first before-image, so the restore writes it once,
 * atomically. Read-only: nothing here writes.
 */
import { BridgeError } from '../../../shared/contract/define';
import type { RewindCommandSchema, RewindFile } from '../../../shared/contract/rewind';
import type { z } from 'zod';
import type { Db } from '../db/database';
import { DiskError } from '../disk/disk-error';
import { statAt } from '../disk/kinds';
import { readFile } from '../disk/open';
import { hashBytes, MAX_IMAGE_BYTES, type BlobStore, type ImageState } from '../viewer/blob-store';
import { applyReadPolicy, guardScopeOf, type ReadPolicyContext } from '../viewer/read-policy';

/** What the rewind needs of the rest of the core (narrow, so a crash test's child builds it without the core). */
export interface RewindPorts {
  db: Db;
  blobs: BlobStore;
  policyOf: (workingDir: string) => ReadPolicyContext;
  workingDir: (sessionId: number) => string;
  isRunning: (sessionId: number) => boolean;
  kindOf: (toolName: string) => string | null;
  label: (toolName: string, args: Record<string, unknown>) => string;
}

interface ImageRow {
  tool_call_id: string;
  path: string;
  before_state: ImageState;
  before_hash: string | null;
  after_state: ImageState;
  after_hash: string | null;
  stack_id: number | null;
}

/** A file's content as a comparable value: its sha256, or null when there is no file. */
export type Content = string | null;

export type Now = { kind: 'content'; hash: Content; bytes: Buffer | null } | { kind: 'refused'; reason: string };

export interface FilePlan extends RewindFile {
  /** The file's path as the calls named it (absolute). */
  absolute: string;
  /** Before the message (the first call's before-image): `undefined` when no image was kept. */
  target: Content | undefined;
  /** As the agent left it (the last call's after-image): `undefined` when no image was kept. */
  expected: Content | undefined;
  workingDir: string;
}

export interface Plan {
  sessionId: number;
  messageId: number;
  content: string;
  files: FilePlan[];
  commands: z.infer<typeof RewindCommandSchema>[];
}

const imageContent = (state: ImageState, hash: string | null): Content | undefined =>
  state === 'absent' ? null : state === 'file' && hash ? hash : undefined;

/** The file at a policy-checked real path now, read as every reader reads (docs/guards.md "One disk policy"). */
export function readNow(ports: RewindPorts, absolute: string, workingDir: string, keepBytes = false): Now {
  const policy = ports.policyOf(workingDir);
  let real: string;
  let shown: string;
  try {
    const p = applyReadPolicy(absolute, workingDir, policy);
    if (p.isOutside) return { kind: 'refused', reason: 'it is outside the working directory now' };
    real = p.real;
    shown = p.display;
  } catch (error) {
    return { kind: 'refused', reason: (error as Error).message };
  }
  if (real !== absolute || statAt(absolute, false)?.isSymbolicLink())
    return { kind: 'refused', reason: 'a symlink is on its path now; a rewind never writes through a link' };
  try {
    const read = readFile({ path: real, shown, guard: guardScopeOf(policy) }, MAX_IMAGE_BYTES + 1);
    return { kind: 'content', hash: hashBytes(read.bytes), bytes: keepBytes ? read.bytes : null };
  } catch (error) {
    if (error instanceof DiskError && error.code === 'missing') return { kind: 'content', hash: null, bytes: null };
    return { kind: 'refused', reason: (error as Error).message };
  }
}

/** The person's message a rewind goes back to, or a clear refusal. */
export function rewindTarget(db: Db, sessionId: number, messageId: number): { content: string } {
  const row = db
    .prepare('SELECT session_id, stack_id, role, content, status, metadata FROM chat_history WHERE id = ?')
    .get(messageId) as
    | { session_id: number; stack_id: number | null; role: string; content: string; status: string; metadata: string }
    | undefined;
  if (!row || row.session_id !== sessionId || row.stack_id !== null || row.role !== 'user')
    throw new BridgeError('not_found', 'That is not one of your messages in this chat.');
  if (row.status !== 'ok' && (JSON.parse(row.metadata ?? '{}') as { replaced?: number }).replaced)
    throw new BridgeError('replaced', 'That message is in an earlier branch of this chat; rewind to a current one.');
  return { content: row.content };
}

function fileState(
  target: Content | undefined,
  expected: Content | undefined,
  now: Now,
  hasBlob: boolean,
): Pick<RewindFile, 'state' | 'reason'> {
  if (target === undefined)
    return { state: 'unavailable', reason: 'No before-image was kept (binary, over 10 MB, or not readable).' };
  if (!hasBlob) return { state: 'unavailable', reason: "The before-image was dropped by the blob store's limits." };
  if (now.kind === 'refused') return { state: 'unavailable', reason: `Not touched: ${now.reason}.` };
  if (now.hash === target) return { state: 'unchanged' };
  if (expected !== undefined && now.hash === expected) return { state: 'restore' };
  return {
    state: 'conflict',
    reason:
      expected === undefined
        ? 'No image was kept of what the agent left, so it cannot be told from a later change.'
        : 'It changed after the agent last wrote it.',
  };
}

export function buildPlan(ports: RewindPorts, sessionId: number, messageId: number): Plan {
  const { content } = rewindTarget(ports.db, sessionId, messageId);
  const workingDir = ports.workingDir(sessionId);
  // Completion order: an image row is written once, with its call's final row.
  const rows = ports.db
    .prepare(
      `SELECT i.tool_call_id, i.path, i.before_state, i.before_hash, i.after_state, i.after_hash, t.stack_id
       FROM chat_llm_tools t
       JOIN tool_file_images i ON i.tool_call_id = t.tool_call_id
       WHERE t.session_id = ? AND t.message_id > ?
       ORDER BY i.rowid`,
    )
    .all(sessionId, messageId) as ImageRow[];
  const byPath = new Map<string, ImageRow[]>();
  for (const row of rows) {
    const list = byPath.get(row.path);
    if (list) list.push(row);
    else byPath.set(row.path, [row]);
  }
  const files: FilePlan[] = [];
  for (const [absolute, calls] of byPath) {
    const first = calls[0]!;
    const last = calls.at(-1)!;
    const target = imageContent(first.before_state, first.before_hash);
    const expected = imageContent(last.after_state, last.after_hash);
    const now = readNow(ports, absolute, workingDir);
    const hasBlob = typeof target !== 'string' || ports.blobs.has(target);
    const change = target === null ? 'created' : expected === null ? 'deleted' : 'edited';
    files.push({
      path: absolute,
      absolute,
      shown: shownPath(ports, absolute, workingDir),
      change,
      ...fileState(target, expected, now, hasBlob),
      currentHash: now.kind === 'content' ? now.hash : null,
      calls: calls.length,
      bySubAgent: calls.some((c) => c.stack_id !== null),
      target,
      expected,
      workingDir,
    });
  }
  files.sort((a, b) => (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
  return { sessionId, messageId, content, files, commands: commandsAfter(ports, sessionId, messageId) };
}

function shownPath(ports: RewindPorts, absolute: string, workingDir: string): string {
  try {
    return applyReadPolicy(absolute, workingDir, ports.policyOf(workingDir)).display;
  } catch {
    return absolute;
  }
}

const NEVER_RAN = new Set(['queued', 'rejected', 'pending']);

/** Calls that run processes (kind `execute`) after the message: what they did is not tracked, so it is only listed. */
function commandsAfter(ports: RewindPorts, sessionId: number, messageId: number): Plan['commands'] {
  const rows = ports.db
    .prepare(
      `SELECT tool_call_id, name, coalesce(effective_arguments, arguments) AS args, status
       FROM chat_llm_tools
       WHERE session_id = ? AND message_id > ? ORDER BY id`,
    )
    .all(sessionId, messageId) as { tool_call_id: string; name: string; args: string; status: string }[];
  const commands: Plan['commands'] = [];
  for (const row of rows) {
    if (NEVER_RAN.has(row.status) || ports.kindOf(row.name) !== 'execute') continue;
    let args: Record<string, unknown> = {};
    try {
      args = JSON.parse(row.args) as Record<string, unknown>;
    } catch {
      /* shown by name only */
    }
    commands.push({ toolCallId: row.tool_call_id, name: row.name, label: ports.label(row.name, args) });
  }
  return commands;
}
