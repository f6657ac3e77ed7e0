/**
 * Diff and revert of one write call (docs/viewer.md "Diff and revert"), from the images the blob store kept (the file as
 * it is now is read through the disk module, as the viewer reads: docs/guards.md "One disk policy"):
 * - `diff` gives the call's before and after text (or why an image has none);
 * - `revert` restores the before-image when the file still holds the after-image, as a real `write_file` call in
 *   the call's session (so it passes the approval gate like any other write and shows as a card); when the file
 *   changed since, it answers `conflict` with all three versions and writes only when asked again with `force`.
 */
import { BridgeError } from '../../../shared/contract/define';
import type { FileImage, RevertResult } from '../../../shared/contract/viewer';
import type { ToolRow } from '../db/session-rows';
import { decodeText } from '../disk/text-bytes';
import { BlobStore, hashBytes, MAX_IMAGE_BYTES, type ImageState } from './blob-store';
import { kindOfPath } from './file-kinds';
import { readForViewer } from './file-read';
import { applyReadPolicy, guardScopeOf, ViewerRefusal, type ReadPolicyContext } from './read-policy';

/** A kept image's text for the diff, decoded as the file's first bytes say (UTF-16 too), the bytes kept as they are. */
const textOf = (bytes: Buffer): string => decodeText(bytes)?.text ?? bytes.toString('utf8');

/**
 * What a revert needs of the sessions (session/session-manager.ts; core/index.ts passes it): the call's row, its
 * session's working directory, and a person's write run as a call in that session. Declared here so the viewer
 * does not import the session.
 */
export interface RevertSessions {
  getTool(toolCallId: string): ToolRow | undefined;
  workingDir(sessionId: number): string;
  runPersonWrite(sessionId: number, messageId: number, path: string, content: string): string;
}

export class FileImages {
  constructor(
    private readonly blobs: BlobStore,
    private readonly sessions: RevertSessions,
    private readonly policyOf: (workingDir: string) => ReadPolicyContext,
  ) {}

  private image(state: ImageState, hash: string | null): FileImage {
    if (state !== 'file' || !hash) return { state, text: null };
    const bytes = this.blobs.get(hash);
    return bytes ? { state, text: textOf(bytes) } : { state: 'skipped', text: null };
  }

  private row(toolCallId: string) {
    const row = this.blobs.images(toolCallId);
    if (!row)
      throw new BridgeError(
        'not_found',
        'No before/after images were kept for this call (it wrote nothing, or they were pruned).',
      );
    return row;
  }

  diff(toolCallId: string): { path: string; language: string; before: FileImage; after: FileImage } {
    const row = this.row(toolCallId);
    return {
      path: row.path,
      language: kindOfPath(row.path).language,
      before: this.image(row.before_state, row.before_hash),
      after: this.image(row.after_state, row.after_hash),
    };
  }

  /** The file as it is now, read under the viewer's policy. */
  private current(path: string, workingDir: string): FileImage & { hash: string | null } {
    try {
      const policy = this.policyOf(workingDir);
      const p = applyReadPolicy(path, workingDir, policy);
      const read = readForViewer(p.real, p.display, MAX_IMAGE_BYTES + 1, guardScopeOf(policy));
      if (read.isTruncated) return { state: 'skipped', text: null, hash: null };
      return { state: 'file', text: textOf(read.bytes), hash: hashBytes(read.bytes) };
    } catch (error) {
      if (error instanceof ViewerRefusal && error.code === 'missing')
        return { state: 'absent', text: null, hash: null };
      throw new BridgeError('refused', (error as Error).message);
    }
  }

  revert(toolCallId: string, force: boolean): RevertResult {
    const row = this.row(toolCallId);
    const tool = this.sessions.getTool(toolCallId);
    if (!tool || tool.message_id === null)
      throw new BridgeError('not_found', 'The call this change came from is gone.');
    if (row.before_state === 'absent')
      return {
        status: 'unavailable',
        message: 'The file did not exist before this call; delete it yourself if you want it gone.',
      };
    if (row.before_state !== 'file' || !row.before_hash)
      return {
        status: 'unavailable',
        message: 'No before-image was kept for this call (binary, too large, or not readable by the viewer).',
      };
    const before = this.image(row.before_state, row.before_hash);
    if (before.text === null) return { status: 'unavailable', message: 'The before-image was pruned.' };
    const workingDir = this.sessions.workingDir(tool.session_id);
    const now = this.current(row.path, workingDir);
    if (!force && now.hash !== row.after_hash) {
      return {
        status: 'conflict',
        message: 'The file changed after this call; restoring the before-image would also undo those later changes.',
        before,
        after: this.image(row.after_state, row.after_hash),
        current: { state: now.state, text: now.text },
      };
    }
    if (now.hash === row.before_hash)
      return { status: 'unavailable', message: 'The file already holds the before-image.' };
    const id = this.sessions.runPersonWrite(tool.session_id, tool.message_id, row.path, before.text);
    return { status: 'started', toolCallId: id };
  }
}
