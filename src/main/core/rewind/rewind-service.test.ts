/**
 * Rewind against a real database and a real workspace (docs/rewind.md): the preview's states, restore of an edited,
 * a created and a deleted file, conflicts (nothing overwritten without a choice), a preview gone stale, the chat's
 * fork and note, the decision-log entry, the modes, the disk policy (links and guarded places), and the journal of
 * a run cut short. The crash tests with real processes: crash.test.ts.
 */
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { listDecisions } from '../approval/decision-log';
import { buildWorld, serviceOf, type FileChange, type RewindWorld } from '../../../../test/helpers/rewind-world';

let world: RewindWorld | undefined;
afterEach(() => {
  world?.db.close();
  world = undefined;
  cleanupTempDirs();
});

const THREE: FileChange[] = [
  { name: 'edited.txt', before: 'one\n', after: 'ONE\n' },
  { name: 'created.txt', before: null, after: 'new\n' },
  { name: 'deleted.txt', before: 'keep me\n', after: null },
];

const read = (w: RewindWorld, name: string) =>
  existsSync(join(w.workspace, name)) ? readFileSync(join(w.workspace, name), 'utf8') : null;

function seenOf(w: RewindWorld) {
  const preview = serviceOf(w).preview(w.sessionId, w.messageId);
  return { preview, seen: preview.files.map((f) => ({ path: f.path, hash: f.currentHash })) };
}

function chatRows(w: RewindWorld) {
  return w.db
    .prepare('SELECT id, role, content, status, metadata FROM chat_history WHERE session_id = ? ORDER BY id')
    .all(w.sessionId) as { id: number; role: string; content: string; status: string; metadata: string }[];
}

describe('rewind', () => {
  it('previews, then restores an edited, a created and a deleted file, forks the chat and tells the model', () => {
    const w = (world = buildWorld(tempDir(), THREE));
    const { preview, seen } = seenOf(w);
    expect(preview.content).toBe('second: change the files');
    expect(preview.files.map((f) => [f.shown, f.change, f.state])).toEqual([
      ['created.txt', 'created', 'restore'],
      ['deleted.txt', 'deleted', 'restore'],
      ['edited.txt', 'edited', 'restore'],
    ]);
    const result = serviceOf(w).apply({ sessionId: w.sessionId, messageId: w.messageId, mode: 'files_and_chat', seen });
    expect(result).toMatchObject({ status: 'done', composer: 'second: change the files' });
    expect(read(w, 'edited.txt')).toBe('one\n');
    expect(read(w, 'created.txt')).toBeNull();
    expect(read(w, 'deleted.txt')).toBe('keep me\n');
    // The chat forks: the message and what came after stay, marked replaced; a note the next request replays.
    const rows = chatRows(w);
    const after = rows.filter((r) => r.id >= w.messageId);
    const note = after.at(-1)!;
    expect(note).toMatchObject({ role: 'agent', status: 'ok' });
    expect(note.content).toContain('restored to the state before that message');
    expect(note.content).toContain('created.txt');
    expect(after.slice(0, -1).every((r) => r.status === 'failed' && JSON.parse(r.metadata).replaced === 1)).toBe(true);
    expect(w.store.contextMessages(w.sessionId, 0).map((r) => r.content)).toEqual(['first', note.content]);
    // One decision-log entry, the person's, with the file list.
    const [entry] = listDecisions(w.db).filter((d) => d.tool_call_id.startsWith('rewind-'));
    expect(entry).toMatchObject({ action: 'allow', reason_kind: 'human', actor: 'user', session_id: w.sessionId });
    expect(entry!.detail).toMatch(/Restore: deleted\.txt, edited\.txt\. Remove \(created after it\): created\.txt/);
    // The message is in the earlier branch now: a rewind to it again is refused with a sentence.
    expect(() => serviceOf(w).preview(w.sessionId, w.messageId)).toThrow(/earlier branch/);
  });

  it('a file changed by someone else is a conflict: never overwritten without the person choosing', () => {
    const w = (world = buildWorld(tempDir(), THREE));
    writeFileSync(join(w.workspace, 'edited.txt'), 'mine now\n');
    const { preview, seen } = seenOf(w);
    expect(preview.files.find((f) => f.shown === 'edited.txt')).toMatchObject({ state: 'conflict' });
    const diff = serviceOf(w).diff(w.sessionId, w.messageId, join(w.workspace, 'edited.txt'));
    expect([diff.before.text, diff.after.text, diff.current.text]).toEqual(['one\n', 'ONE\n', 'mine now\n']);
    const base = { sessionId: w.sessionId, messageId: w.messageId, mode: 'files' as const, seen };
    expect(serviceOf(w).apply(base)).toMatchObject({ status: 'changed' });
    expect(read(w, 'deleted.txt')).toBeNull(); // nothing written at all
    const kept = serviceOf(w).apply({ ...base, choices: [{ path: join(w.workspace, 'edited.txt'), choice: 'keep' }] });
    expect(kept.status === 'done' && kept.files.map((f) => [f.shown, f.outcome])).toEqual([
      ['created.txt', 'restored'],
      ['deleted.txt', 'restored'],
      ['edited.txt', 'kept'],
    ]);
    expect(read(w, 'edited.txt')).toBe('mine now\n');
    // Files only: the chat is kept whole, the note added.
    expect(chatRows(w).filter((r) => r.status === 'failed')).toEqual([]);
  });

  it('restores a conflict the person chose to restore', () => {
    const w = (world = buildWorld(tempDir(), THREE));
    writeFileSync(join(w.workspace, 'edited.txt'), 'mine now\n');
    const { seen } = seenOf(w);
    const path = join(w.workspace, 'edited.txt');
    serviceOf(w).apply({
      sessionId: w.sessionId,
      messageId: w.messageId,
      mode: 'files',
      seen,
      choices: [{ path, choice: 'restore' }],
    });
    expect(read(w, 'edited.txt')).toBe('one\n');
  });

  it('a file that moved on after the preview refuses the apply, and nothing is written', () => {
    const w = (world = buildWorld(tempDir(), THREE));
    const { seen } = seenOf(w);
    writeFileSync(join(w.workspace, 'created.txt'), 'edited after the preview\n');
    const result = serviceOf(w).apply({ sessionId: w.sessionId, messageId: w.messageId, mode: 'files_and_chat', seen });
    expect(result).toMatchObject({ status: 'changed', message: expect.stringContaining('created.txt') });
    expect(read(w, 'edited.txt')).toBe('ONE\n');
    expect(chatRows(w).every((r) => r.status === 'ok')).toBe(true);
    expect(listDecisions(w.db)).toEqual([]);
  });

  it('chat only: the files stay as they are; the message comes back for the composer', () => {
    const w = (world = buildWorld(tempDir(), THREE));
    const result = serviceOf(w).apply({ sessionId: w.sessionId, messageId: w.messageId, mode: 'chat', seen: [] });
    expect(result).toMatchObject({ status: 'done', files: [], composer: 'second: change the files' });
    expect(read(w, 'edited.txt')).toBe('ONE\n');
    expect(chatRows(w).at(-1)!.content).toContain('files were left as they are now');
  });

  it('never writes through a link or into a guarded place: those files are left and said so', () => {
    const w = (world = buildWorld(tempDir(), [
      { name: 'linked.txt', before: 'a\n', after: 'b\n' },
      { name: 'hard.txt', before: 'a\n', after: 'b\n' },
      { name: 'dir/inner.txt', before: null, after: 'x\n' },
      { name: 'plain.txt', before: 'a\n', after: 'b\n' },
    ]));
    mkdirSync(join(w.workspace, 'secrets'));
    writeFileSync(join(w.workspace, 'secrets', 'key.txt'), 'b\n');
    // A symlink planted where the agent wrote, pointing into secrets/.
    rmSync(join(w.workspace, 'linked.txt'));
    symlinkSync(join(w.workspace, 'secrets', 'key.txt'), join(w.workspace, 'linked.txt'));
    // A hard link to the secret in place of a file the agent wrote.
    rmSync(join(w.workspace, 'hard.txt'));
    linkSync(join(w.workspace, 'secrets', 'key.txt'), join(w.workspace, 'hard.txt'));
    const { preview, seen } = seenOf(w);
    const state = (name: string) => preview.files.find((f) => f.shown === name || f.path.endsWith(name))!.state;
    expect(state('linked.txt')).toBe('unavailable');
    expect(state('hard.txt')).toBe('unavailable');
    const result = serviceOf(w).apply({ sessionId: w.sessionId, messageId: w.messageId, mode: 'files', seen });
    expect(readFileSync(join(w.workspace, 'secrets', 'key.txt'), 'utf8')).toBe('b\n');
    expect(read(w, 'plain.txt')).toBe('a\n');
    expect(result.status === 'done' && result.files.filter((f) => f.outcome === 'kept').length).toBe(2);
  });

  it('a folder swapped for a link after the confirmation: the step fails, the secret is untouched', () => {
    const swap = () => {
      rmSync(join(w.workspace, 'sub'), { recursive: true });
      symlinkSync(join(w.workspace, 'secrets'), join(w.workspace, 'sub'));
    };
    // Right after the journal's commit, before the file's step, `sub` becomes a link into secrets/ (same bytes).
    const w = (world = buildWorld(tempDir(), [{ name: 'sub/a.txt', before: 'a\n', after: 'b\n' }], {
      afterStep: (seq) => seq === -1 && swap(),
    }));
    mkdirSync(join(w.workspace, 'secrets'));
    writeFileSync(join(w.workspace, 'secrets', 'a.txt'), 'b\n');
    const { seen } = seenOf(w);
    const result = serviceOf(w).apply({ sessionId: w.sessionId, messageId: w.messageId, mode: 'files', seen });
    expect(result.status === 'done' && result.files[0]).toMatchObject({ outcome: 'failed', message: /symlink/ });
    expect(readFileSync(join(w.workspace, 'secrets', 'a.txt'), 'utf8')).toBe('b\n');
  });

  it('a run cut short is listed with each file restored or pending, and resume finishes it', () => {
    const dir = tempDir();
    const changes = THREE;
    let stop = true;
    const w = (world = buildWorld(dir, changes, {
      afterStep: (seq) => {
        if (stop && seq === 0) throw new Error('cut');
      },
    }));
    const { seen } = seenOf(w);
    expect(() =>
      serviceOf(w).apply({ sessionId: w.sessionId, messageId: w.messageId, mode: 'files_and_chat', seen }),
    ).toThrow('cut');
    const [run] = serviceOf(w).unfinished();
    expect(run!.files.map((f) => [f.shown, f.state])).toEqual([
      ['created.txt', 'restored'],
      ['deleted.txt', 'pending'],
      ['edited.txt', 'pending'],
    ]);
    expect(serviceOf(w).preview(w.sessionId, w.messageId).unfinishedRunId).toBe(run!.runId);
    expect(() => serviceOf(w).apply({ sessionId: w.sessionId, messageId: w.messageId, mode: 'files', seen })).toThrow(
      /interrupted/,
    );
    stop = false;
    expect(serviceOf(w).resume(run!.runId)).toMatchObject({ status: 'done', composer: 'second: change the files' });
    expect([read(w, 'edited.txt'), read(w, 'created.txt'), read(w, 'deleted.txt')]).toEqual([
      'one\n',
      null,
      'keep me\n',
    ]);
    expect(serviceOf(w).unfinished()).toEqual([]);
    expect(chatRows(w).filter((r) => r.role === 'agent')).toHaveLength(1);
  });

  it("the blob store keeps a cut-short run's before-images through a prune, and says what limits would drop", () => {
    const w = (world = buildWorld(tempDir(), THREE, {
      afterStep: (seq) => {
        if (seq >= 0) throw new Error('cut');
      },
    }));
    const { seen } = seenOf(w);
    expect(() => serviceOf(w).apply({ sessionId: w.sessionId, messageId: w.messageId, mode: 'files', seen })).toThrow();
    const usage = serviceOf(w).storeUsage({ maxMb: 512, keepDays: 30 });
    expect(usage).toMatchObject({ images: 3, drops: { images: 0, bytes: 0 } });
    expect(usage.usedBytes).toBe('one\n'.length + 'ONE\n'.length + 'new\n'.length + 'keep me\n'.length);
    w.db.prepare('UPDATE tool_file_images SET created_at = 0').run();
    expect(serviceOf(w).storeUsage({ maxMb: 512, keepDays: 30 }).drops).toMatchObject({
      images: 3,
      bytes: usage.usedBytes,
    });
    w.blobs.prune();
    const run = serviceOf(w).unfinished()[0]!;
    world = { ...w, deps: { ...w.deps, afterStep: undefined } };
    serviceOf(world).resume(run.runId);
    expect([read(w, 'edited.txt'), read(w, 'deleted.txt')]).toEqual(['one\n', 'keep me\n']);
  });

  it("refuses while a turn runs, and for a message that is not the person's", () => {
    const w = (world = buildWorld(tempDir(), THREE, { isRunning: () => true }));
    expect(() =>
      serviceOf(w).apply({ sessionId: w.sessionId, messageId: w.messageId, mode: 'files', seen: [] }),
    ).toThrow(/turn is running/);
    expect(() => serviceOf(w).preview(w.sessionId, w.messageId + 1)).toThrow(/not one of your messages/);
    expect(() => serviceOf(w).preview(w.sessionId + 1, w.messageId)).toThrow(/not one of your messages/);
  });
});
