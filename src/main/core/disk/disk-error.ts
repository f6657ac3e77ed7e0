/**
 * The one error of the disk module (docs/guards.md "One disk policy"): a sentence a person or a model can read, and a
 * code the caller maps onto its own answer (a tool's failed result, the viewer's refusal, a note in an MCP result).
 * It lives here, in the leaf, so that nothing below the tools has to import them to say why a file was not opened.
 */
export type DiskErrorCode =
  /** Nothing at the path (or a folder on the way is gone). */
  | 'missing'
  /** A folder where a file was wanted. */
  | 'folder'
  /** A FIFO, socket, device or anything else that is not a regular file. */
  | 'not_file'
  /** A symlink where the path must have none. */
  | 'symlink'
  /** The opened file is not the one the path names now: a folder on the way was swapped while it was opened. */
  | 'swapped'
  /** A hard link to a guarded file (secrets/, the data folder). */
  | 'guarded_link'
  /** The path lies outside the folder the caller confined it to. */
  | 'outside'
  /** Permission denied, an I/O error, a full disk. */
  | 'unreadable';

export class DiskError extends Error {
  override readonly name = 'DiskError';
  constructor(
    readonly code: DiskErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A failed system call's code (`ENOENT`, …), or the error's text when it has none. */
export const errnoOf = (error: unknown): string =>
  (error as NodeJS.ErrnoException | null)?.code ?? (error instanceof Error ? error.message : String(error));
