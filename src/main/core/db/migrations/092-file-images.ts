/**
 * Before/after images of each write tool call (docs/viewer.md "Diff and revert"). The bytes live in the data
 * folder's content-addressed blob store (`blobs/ab/<sha256>`); `file_blobs` counts them, `tool_file_images` ties
 * one call to its two images. An image's `state` says why it may have no blob: `absent` (no file then),
 * `skipped` (binary, over the size cap, a symlink, or outside what the viewer may read).
 */
import type { Migration } from '../migrate';

export const fileImagesSchema: Migration = {
  version: 92,
  name: 'file-images',
  up(db) {
    db.exec(`
      CREATE TABLE file_blobs (
        hash TEXT PRIMARY KEY,
        size INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE tool_file_images (
        tool_call_id TEXT PRIMARY KEY,
        path TEXT NOT NULL,
        before_state TEXT NOT NULL CHECK (before_state IN ('file', 'absent', 'skipped')),
        before_hash TEXT REFERENCES file_blobs(hash),
        after_state TEXT NOT NULL CHECK (after_state IN ('file', 'absent', 'skipped')),
        after_hash TEXT REFERENCES file_blobs(hash),
        created_at INTEGER NOT NULL
      );
      CREATE INDEX tool_file_images_created ON tool_file_images(created_at);
    `);
  },
};
