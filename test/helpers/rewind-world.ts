/**
 * A rewind's world without a model, for the crash tests' child processes and the bench: a real database in a data
 * folder, a real workspace, a session with two messages of the person, and after the second one a round of write
 * calls whose before/after images the real blob store keeps, the files on disk as the calls left them.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openDatabase, type Db } from '../../src/main/core/db/database';
import { canonicalRoot } from '../../src/main/core/disk/protected';
import { SessionStore } from '../../src/main/core/session/session-store';
import { BlobStore } from '../../src/main/core/viewer/blob-store';
import type { ReadPolicyContext } from '../../src/main/core/viewer/read-policy';
import { RewindService, type RewindServiceDeps } from '../../src/main/core/rewind/rewind-service';

/** A file the round changes: its content before and after (null: no file). */
export interface FileChange {
  name: string;
  before: string | null;
  after: string | null;
}

export interface RewindWorld {
  db: Db;
  store: SessionStore;
  blobs: BlobStore;
  dataDir: string;
  workspace: string;
  sessionId: number;
  /** The person's second message: the one a rewind goes back to. */
  messageId: number;
  deps: RewindServiceDeps;
}

export function openWorld(
  dataDir: string,
  extra: Partial<RewindServiceDeps> = {},
): Omit<RewindWorld, 'sessionId' | 'messageId'> {
  const root = canonicalRoot(dataDir);
  const workspace = join(root, 'workspace');
  mkdirSync(workspace, { recursive: true });
  const db = openDatabase({ file: join(root, 'skald.db') });
  const policyOf = (workingDir: string): ReadPolicyContext => ({ workingDir, dataDir: root, workspaceDir: workspace });
  const blobs = new BlobStore(db, root, policyOf);
  const store = new SessionStore(db);
  const deps: RewindServiceDeps = {
    db,
    blobs,
    store,
    policyOf,
    workingDir: () => workspace,
    isRunning: () => false,
    kindOf: (name) => (name === 'execute_cmd' ? 'execute' : name === 'write_file' ? 'edit' : null),
    label: (name, args) => `${name} ${String(args.command ?? args.path ?? '')}`.trim(),
    ...extra,
  };
  return { db, store, blobs, dataDir: root, workspace, deps };
}

export function buildWorld(
  dataDir: string,
  changes: readonly FileChange[],
  extra: Partial<RewindServiceDeps> = {},
): RewindWorld {
  const world = openWorld(dataDir, extra);
  const { store, blobs, workspace } = world;
  const sessionId = store.createSession('rewind');
  store.appendMessage({ sessionId, role: 'user', content: 'first' });
  const put = (name: string, text: string) => {
    mkdirSync(dirname(join(workspace, name)), { recursive: true });
    writeFileSync(join(workspace, name), text);
  };
  for (const c of changes) if (c.before !== null) put(c.name, c.before);
  const messageId = store.appendMessage({ sessionId, role: 'user', content: 'second: change the files' });
  const reply = store.appendMessage({ sessionId, role: 'assistant', content: '' });
  const keys = store.insertRoundTools(
    sessionId,
    reply,
    changes.map((c, i) => ({ id: `c${i}`, name: 'write_file', arguments: JSON.stringify({ path: c.name }) })),
  );
  changes.forEach((c, i) => {
    const path = join(workspace, c.name);
    const before = blobs.snapshot(path, workspace);
    if (c.after === null) rmSync(path, { force: true });
    else put(c.name, c.after);
    const after = blobs.snapshot(path, workspace);
    store.transaction(() => {
      blobs.record(keys[i]!, path, before, after);
      store.finishTool(keys[i]!, 'done', 'ok');
    });
  });
  return { ...world, sessionId, messageId };
}

export const serviceOf = (world: Pick<RewindWorld, 'deps'>): RewindService => new RewindService(world.deps);

/** `count` files of `size` bytes, each edited by the round. */
export function editedFiles(count: number, size: number): FileChange[] {
  return Array.from({ length: count }, (_, i) => {
    const line = `line of file ${i} `.padEnd(63, '.') + '\n';
    const body = line.repeat(Math.ceil(size / 64)).slice(0, size);
    return { name: `f${String(i).padStart(3, '0')}.txt`, before: body, after: `${body.slice(0, -8)}EDITED!\n` };
  });
}
