/**
 * Before/after images of write calls through the real session (scripted LLM, real gate, real SQLite), the blob
 * store's dedup, cap and pruning, and revert: restored through the approval gate, or a conflict with three
 * versions when the file changed since.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { BlobStore, MAX_IMAGE_BYTES } from './blob-store';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function approveNext(harness: Harness, skip = 0): Promise<void> {
  const pending = await harness.waitForEvent('pending_write', (e) => skip-- <= 0 && e !== undefined);
  await harness.call('inbox:resolveApproval', {
    requestId: pending.request_id,
    action: 'approve',
    note: '',
    argsHash: pending.args_hash,
  });
}

function blobStore(harness: Harness): BlobStore {
  const c = harness.core.config;
  return new BlobStore(harness.core.db, c.dataDir, (workingDir) => ({
    workingDir,
    dataDir: c.dataDir,
    workspaceDir: c.workspaceDir,
  }));
}

describe('write calls keep before/after images', () => {
  it('edit_file: diff shows both, revert restores the before-image through the gate', async () => {
    h = await startHarness({
      turns: [
        { toolCalls: [{ name: 'edit_file', arguments: { path: 'a.txt', old_string: 'one', new_string: 'ONE' } }] },
        { text: 'Edited.' },
      ],
    });
    writeFileSync(join(h.workspace, 'a.txt'), 'one\ntwo\n');
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: 'edit' });
    await approveNext(h);
    await h.waitForEvent('done');
    expect(readFileSync(join(h.workspace, 'a.txt'), 'utf8')).toBe('ONE\ntwo\n');
    const card = (await h.call('chat:history', { sessionId })).messages
      .flatMap((m) => m.tools)
      .find((t) => t.name === 'edit_file')!;
    const diff = await h.call('viewer:diff', { toolCallId: card.tool_call_id });
    expect(diff).toMatchObject({
      path: join(h.workspace, 'a.txt'),
      before: { state: 'file', text: 'one\ntwo\n' },
      after: { state: 'file', text: 'ONE\ntwo\n' },
    });

    const started = await h.call('viewer:revert', { toolCallId: card.tool_call_id });
    expect(started.status).toBe('started');
    // A revert is a write like any other: it asks (default policy), and nothing changes until approved.
    const pending = await h.waitForEvent(
      'pending_write',
      (e) => e.tool_call_id === (started as { toolCallId: string }).toolCallId,
    );
    expect(pending.new_content).toBe('one\ntwo\n');
    expect(readFileSync(join(h.workspace, 'a.txt'), 'utf8')).toBe('ONE\ntwo\n');
    await h.call('inbox:resolveApproval', {
      requestId: pending.request_id,
      action: 'approve',
      note: '',
      argsHash: pending.args_hash,
    });
    await h.waitForEvent('tool_done', (e) => e.tool_call_id === pending.tool_call_id);
    expect(readFileSync(join(h.workspace, 'a.txt'), 'utf8')).toBe('one\ntwo\n');
    // The revert's own images were kept too, and its card sits under the original message.
    const revertCard = (await h.call('chat:history', { sessionId })).messages
      .flatMap((m) => m.tools)
      .find((t) => t.tool_call_id === pending.tool_call_id)!;
    expect(revertCard).toMatchObject({ name: 'write_file', status: 'done', message_id: card.message_id });
    expect((await h.call('viewer:diff', { toolCallId: pending.tool_call_id })).after.text).toBe('one\ntwo\n');
  });

  it('a file changed since the call: revert answers with the three versions and writes only when forced', async () => {
    h = await startHarness({
      turns: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'b.txt', content: 'agent\n' } }] },
        { text: 'Written.' },
      ],
    });
    writeFileSync(join(h.workspace, 'b.txt'), 'mine\n');
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: 'write' });
    await approveNext(h);
    await h.waitForEvent('done');
    const card = (await h.call('chat:history', { sessionId })).messages
      .flatMap((m) => m.tools)
      .find((t) => t.name === 'write_file')!;
    writeFileSync(join(h.workspace, 'b.txt'), 'changed later\n');
    const conflict = await h.call('viewer:revert', { toolCallId: card.tool_call_id });
    expect(conflict).toMatchObject({
      status: 'conflict',
      before: { text: 'mine\n' },
      after: { text: 'agent\n' },
      current: { text: 'changed later\n' },
    });
    expect(readFileSync(join(h.workspace, 'b.txt'), 'utf8')).toBe('changed later\n');
    const forced = await h.call('viewer:revert', { toolCallId: card.tool_call_id, force: true });
    expect(forced.status).toBe('started');
  });

  it('a new file has an absent before-image; revert says it cannot delete', async () => {
    h = await startHarness({
      turns: [{ toolCalls: [{ name: 'write_file', arguments: { path: 'new.txt', content: 'N' } }] }, { text: 'ok' }],
    });
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: 'write' });
    await approveNext(h);
    await h.waitForEvent('done');
    const card = (await h.call('chat:history', { sessionId })).messages
      .flatMap((m) => m.tools)
      .find((t) => t.name === 'write_file')!;
    expect((await h.call('viewer:diff', { toolCallId: card.tool_call_id })).before).toEqual({
      state: 'absent',
      text: null,
    });
    expect(await h.call('viewer:revert', { toolCallId: card.tool_call_id })).toMatchObject({ status: 'unavailable' });
    await expect(h.call('viewer:diff', { toolCallId: 'no-such-call' })).rejects.toThrow(/No before\/after images/);
  });
});

describe('blob store', () => {
  it('dedups equal bytes, skips secrets, binaries and big files, and prunes by age and size', async () => {
    h = await startHarness();
    const store = blobStore(h);
    writeFileSync(join(h.workspace, 'x.txt'), 'same');
    writeFileSync(join(h.workspace, 'y.txt'), 'same');
    const x = store.snapshot(join(h.workspace, 'x.txt'), h.workspace);
    const y = store.snapshot(join(h.workspace, 'y.txt'), h.workspace);
    expect(x.hash).toBe(y.hash);
    const shard = join(store.dir, x.hash!.slice(0, 2));
    expect(readdirSync(shard)).toEqual([x.hash]);

    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(h.workspace, 'secrets'));
    writeFileSync(join(h.workspace, 'secrets', 'k.txt'), 'secret');
    expect(store.snapshot(join(h.workspace, 'secrets', 'k.txt'), h.workspace)).toMatchObject({ state: 'skipped' });
    writeFileSync(join(h.workspace, 'bin.dat'), Buffer.from([1, 0, 2]));
    expect(store.snapshot(join(h.workspace, 'bin.dat'), h.workspace)).toMatchObject({
      state: 'skipped',
      reason: 'a binary file',
    });
    writeFileSync(join(h.workspace, 'big.txt'), Buffer.alloc(MAX_IMAGE_BYTES + 1, 97));
    expect(store.snapshot(join(h.workspace, 'big.txt'), h.workspace)).toMatchObject({ state: 'skipped' });
    expect(store.snapshot(join(h.workspace, 'none.txt'), h.workspace)).toEqual({ state: 'absent', hash: null });

    store.record('call-1', join(h.workspace, 'x.txt'), { state: 'absent', hash: null }, x);
    // An orphan blob (its transaction never committed) and an old image both go on prune.
    const orphan = store.put(Buffer.from('orphan'));
    h.core.db.prepare("UPDATE tool_file_images SET created_at = 0 WHERE tool_call_id = 'call-1'").run();
    const pruned = store.prune();
    expect(pruned.images).toBe(1);
    expect(store.get(orphan)).toBeNull();
    expect(store.get(x.hash!)).toBeNull();

    // The size cap: with a 1 MB cap, the oldest images go first.
    h.core.db
      .prepare("INSERT INTO settings (key, value_json, updated_at) VALUES ('viewer.blob_store', '{\"maxMb\":1}', 0)")
      .run();
    for (let i = 0; i < 3; i++) {
      writeFileSync(join(h.workspace, `m${i}.txt`), Buffer.alloc(400 * 1024, 65 + i));
      store.record(
        `m${i}`,
        `m${i}`,
        { state: 'absent', hash: null },
        store.snapshot(join(h.workspace, `m${i}.txt`), h.workspace),
      );
    }
    store.prune();
    expect(store.images('m0')).toBeNull();
    expect(store.images('m2')).not.toBeNull();
    expect(existsSync(store.dir)).toBe(true);
  });
});
