/**
 * The content-addressed blob store of write calls' before/after images (docs/viewer.md "Diff and revert").
 * - A blob is a file `<data>/blobs/<first two hex>/<sha256>`, written once (temp file + rename) and shared by
 *   every image with the same bytes (dedup).
 * - An image over MAX_IMAGE_BYTES, a binary file, a symlink, or a path the viewer's read policy refuses (secrets,
 *   the data folder, outside the working directory) is recorded as `skipped` without reading or keeping bytes.
 * - The rows are written by `record`, which the session calls inside the tool row's transaction; the blob files
 *   are written just before (an orphan blob of a rolled-back transaction is removed by the next prune).
 * - `prune` drops images older than the retention setting, then the oldest until the store fits its size cap,
 *   then every blob no image references. Setting `viewer.blob_store` = `{ "maxMb": N, "keepDays": N }`.
 * Every file, the workspace's and the store's own, is opened and written through the disk module (docs/guards.md
 * "One disk policy"): a before-image is read as the viewer reads (no symlink on the path, never a FIFO, a hard link
 * to a guarded file skipped), a blob is written by the atomic writer inside the data folder.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { textEncodingOf } from '../../../shared/text-encoding';
import { statement, type Db } from '../db/database';
import { DiskError } from '../disk/disk-error';
import { statAt } from '../disk/kinds';
import { readFile } from '../disk/open';
import { canonicalRoot } from '../disk/protected';
import { listFolder, removeFile } from '../disk/walk';
import { atomicWrite } from '../disk/write';
import { applyReadPolicy, guardScopeOf, type ReadPolicyContext } from './read-policy';

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_LIMITS = { maxMb: 512, keepDays: 30 };

export type ImageState = 'file' | 'absent' | 'skipped';
export interface ImageSnapshot {
  state: ImageState;
  hash: string | null;
  /** Why a `skipped` image has no bytes. */
  reason?: string;
}

export interface FileImageRow {
  tool_call_id: string;
  path: string;
  before_state: ImageState;
  before_hash: string | null;
  after_state: ImageState;
  after_hash: string | null;
  created_at: number;
}

export const hashBytes = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

export class BlobStore {
  constructor(
    private readonly db: Db,
    private readonly dataDir: string,
    private readonly policyOf: (workingDir: string) => ReadPolicyContext,
    private readonly now: () => number = Date.now,
  ) {}

  /** `<data>/blobs`, by its real path (the disk module opens real paths only). */
  get dir(): string {
    return join(canonicalRoot(this.dataDir), 'blobs');
  }

  private pathOf(hash: string): string {
    return join(this.dir, hash.slice(0, 2), hash);
  }

  /** Writes the bytes once; returns their hash. */
  put(bytes: Buffer): string {
    const hash = hashBytes(bytes);
    const path = this.pathOf(hash);
    if (statAt(path, false)?.isFile()) return hash; // already stored
    atomicWrite(
      { path, shown: `the blob ${hash}`, root: canonicalRoot(this.dataDir), mode: 0o600, folderMode: 0o700 },
      bytes,
    );
    return hash;
  }

  /** Whether the blob's file is there (a pruned one is not). */
  has(hash: string): boolean {
    return /^[0-9a-f]{64}$/.test(hash) && statAt(this.pathOf(hash), false)?.isFile() === true;
  }

  get(hash: string): Buffer | null {
    if (!/^[0-9a-f]{64}$/.test(hash)) return null;
    try {
      return readFile({ path: this.pathOf(hash), shown: `the blob ${hash}` }, MAX_IMAGE_BYTES * 2).bytes;
    } catch {
      return null;
    }
  }

  /** The image of `path` now, stored as a blob when it may be kept. Never follows a symlink, never blocks. */
  snapshot(path: string, workingDir: string): ImageSnapshot {
    let policy;
    try {
      policy = applyReadPolicy(path, workingDir, this.policyOf(workingDir));
    } catch (error) {
      return { state: 'skipped', hash: null, reason: (error as Error).message };
    }
    if (policy.isOutside) return { state: 'skipped', hash: null, reason: 'outside the working directory' };
    // A symlink is replaced by a write, never written through: its image is the link's, which no blob holds.
    if (statAt(policy.absolute, false)?.isSymbolicLink()) return { state: 'skipped', hash: null, reason: 'a symlink' };
    let read;
    try {
      read = readFile(
        { path: policy.real, shown: policy.display, guard: guardScopeOf(this.policyOf(workingDir)) },
        MAX_IMAGE_BYTES + 1,
      );
    } catch (error) {
      if (error instanceof DiskError && error.code === 'missing') return { state: 'absent', hash: null };
      return { state: 'skipped', hash: null, reason: (error as Error).message };
    }
    if (read.size > MAX_IMAGE_BYTES)
      return { state: 'skipped', hash: null, reason: `over ${MAX_IMAGE_BYTES / 1024 / 1024} MB` };
    if (textEncodingOf(read.bytes) === null) return { state: 'skipped', hash: null, reason: 'a binary file' };
    try {
      return { state: 'file', hash: this.put(read.bytes) };
    } catch (error) {
      // The store's own folder refused the write (a link planted in it, a full disk): the call goes on without it.
      return { state: 'skipped', hash: null, reason: (error as Error).message };
    }
  }

  /** Inside the tool row's transaction. */
  record(toolCallId: string, path: string, before: ImageSnapshot, after: ImageSnapshot): void {
    const at = this.now();
    // Every edit's commit writes these: prepared once (db/database.ts `statement`).
    const addBlob = statement(this.db, 'INSERT OR IGNORE INTO file_blobs (hash, size, created_at) VALUES (?, ?, ?)');
    for (const image of [before, after]) if (image.hash) addBlob.run(image.hash, this.get(image.hash)?.length ?? 0, at);
    statement(
      this.db,
      `INSERT OR REPLACE INTO tool_file_images (tool_call_id, path, before_state, before_hash, after_state, after_hash, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(toolCallId, path, before.state, before.hash, after.state, after.hash, at);
  }

  images(toolCallId: string): FileImageRow | null {
    return (
      (statement(this.db, 'SELECT * FROM tool_file_images WHERE tool_call_id = ?').get(toolCallId) as
        | FileImageRow
        | undefined) ?? null
    );
  }

  limits(): { maxMb: number; keepDays: number } {
    const row = this.db.prepare("SELECT value_json FROM settings WHERE key = 'viewer.blob_store'").get() as
      | { value_json: string }
      | undefined;
    try {
      const parsed = row ? (JSON.parse(row.value_json) as Partial<typeof DEFAULT_LIMITS>) : {};
      const maxMb = Number.isFinite(parsed.maxMb) && parsed.maxMb! > 0 ? parsed.maxMb! : DEFAULT_LIMITS.maxMb;
      const keepDays =
        Number.isFinite(parsed.keepDays) && parsed.keepDays! > 0 ? parsed.keepDays! : DEFAULT_LIMITS.keepDays;
      return { maxMb, keepDays };
    } catch {
      return { ...DEFAULT_LIMITS };
    }
  }

  /**
   * The images `limits` would drop, oldest first: those older than `keepDays`, then the oldest until the blobs the
   * rest reference fit `maxMb` (a blob shared by several images counts once). Read-only: Settings shows it
   * (docs/rewind.md "Blob store limits"), `prune` applies it.
   */
  droppedBy(limits: { maxMb: number; keepDays: number }): {
    images: string[];
    bytes: number;
    usedBytes: number;
    total: number;
    newestDroppedAt: number | null;
  } {
    const rows = this.db
      .prepare(
        'SELECT tool_call_id, before_hash, after_hash, created_at FROM tool_file_images ORDER BY created_at, rowid',
      )
      .all() as { tool_call_id: string; before_hash: string | null; after_hash: string | null; created_at: number }[];
    const sizes = new Map(
      (this.db.prepare('SELECT hash, size FROM file_blobs').all() as { hash: string; size: number }[]).map((b) => [
        b.hash,
        b.size,
      ]),
    );
    // How many kept images reference each blob: a blob's bytes go when its last image goes.
    const refs = new Map<string, number>();
    const each = (row: (typeof rows)[number], f: (hash: string) => void) => {
      if (row.before_hash) f(row.before_hash);
      if (row.after_hash && row.after_hash !== row.before_hash) f(row.after_hash);
    };
    for (const row of rows) each(row, (h) => refs.set(h, (refs.get(h) ?? 0) + 1));
    let used = 0;
    for (const hash of refs.keys()) used += sizes.get(hash) ?? 0;
    const usedBytes = used;
    const cutoff = this.now() - limits.keepDays * 86_400_000;
    const cap = limits.maxMb * 1024 * 1024;
    const images: string[] = [];
    let newestDroppedAt: number | null = null;
    for (const row of rows) {
      if (row.created_at >= cutoff && used <= cap) break;
      images.push(row.tool_call_id);
      newestDroppedAt = row.created_at;
      each(row, (h) => {
        const left = refs.get(h)! - 1;
        refs.set(h, left);
        if (left === 0) used -= sizes.get(h) ?? 0;
      });
    }
    return { images, bytes: usedBytes - used, usedBytes, total: rows.length, newestDroppedAt };
  }

  /** Applies the retention and size settings; returns how many images and blobs went. */
  prune(): { images: number; blobs: number } {
    const dropped = this.droppedBy(this.limits()).images;
    let images = 0;
    this.db.transaction(() => {
      const drop = this.db.prepare('DELETE FROM tool_file_images WHERE tool_call_id = ?');
      for (const id of dropped) images += drop.run(id).changes;
      // A rewind a crash cut short still needs the before-images it restores (docs/rewind.md "Crash and resume").
      this.db
        .prepare(
          `DELETE FROM file_blobs WHERE hash NOT IN (
             SELECT before_hash FROM tool_file_images WHERE before_hash IS NOT NULL
             UNION SELECT after_hash FROM tool_file_images WHERE after_hash IS NOT NULL
             UNION SELECT s.target_hash FROM rewind_steps s JOIN rewind_runs r ON r.id = s.run_id
               WHERE r.state = 'running' AND s.target_hash IS NOT NULL)`,
        )
        .run();
    })();
    // Files no row counts (pruned, or left by a rolled-back transaction) go last.
    const kept = new Set(
      (this.db.prepare('SELECT hash FROM file_blobs').all() as { hash: string }[]).map((r) => r.hash),
    );
    let blobs = 0;
    for (const shard of listFolder(this.dir)) {
      for (const name of listFolder(join(this.dir, shard))) {
        if (kept.has(name)) continue;
        if (removeFile(join(this.dir, shard, name))) blobs++;
      }
    }
    return { images, blobs };
  }
}
