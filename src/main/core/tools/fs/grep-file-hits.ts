/**
 * One file of the JS engine's search: read by the search reader (the disk policy's open, ripgrep's binary rule), matched,
 * and confirmed on its descriptor when it holds a hit. The same function runs on the calling thread and in the pool's
 * workers (grep-pool.ts), so a worker's hit is what the calling thread would have found, with the same checks on the
 * same read: the calling thread then takes it as it is, without reading and matching the file again.
 */
import type { FileIdentity } from '../../disk/open';
import type { SearchReader } from '../../disk/search-reader';
import { ripgrepExtent } from './grep-binary';
import { byteLines } from './grep-byte-lines';
import { matchingLines, mayMatch, type Matcher } from './search-engine';

export type GrepMode = 'content' | 'files' | 'count';

/** A file's matching lines (0-based), as the engines give them (grep-engines.ts `FileMatches`). */
export interface FileHit {
  matches: number[];
  matchTexts: string[];
  /** Matching and context lines by number (context asked for, lines found on the bytes). */
  lineTexts?: Map<number, string>;
  /** The decoded text, when the lines were found on it rather than on the bytes. */
  text?: string;
  /**
   * A worker's hit in a file with other names: the identity of the descriptor it was read on, which the calling thread
   * judges against the guarded files before the hit counts (disk/open.ts `isGuardedIdentity`).
   */
  link?: FileIdentity;
}

/** What a search asks of each file: the pattern, what the answer needs, the context lines, the size cap. */
export interface FileSearch {
  matcher: Matcher;
  mode: GrepMode;
  context: number;
  maxBytes: number;
}

/**
 * The hit of the file at `path`, read through `reader`, or null when it has none, cannot be read, or is not the file
 * its path names now (confirmed on the descriptor the bytes came from: disk/search-reader.ts `confirm`).
 */
export function fileHit(reader: SearchReader, path: string, search: FileSearch): FileHit | null {
  const hit = matchIn(reader, path, search);
  if (!hit) {
    reader.release();
    return null;
  }
  return reader.confirm() ? hit : null;
}

/** The hit of the file at `path`, read through `reader` and still open there, unconfirmed; or null. */
export function matchIn(reader: SearchReader, path: string, search: FileSearch): FileHit | null {
  const { matcher, mode, context, maxBytes } = search;
  const bytes = reader.read(path, maxBytes, true, ripgrepExtent(context)); // null for a binary file, after its head
  if (!bytes || !mayMatch(matcher, bytes)) return null;
  if (mode === 'count' && reader.wasCut) return null; // rg counts no file it stopped at a NUL in
  // A files-only answer needs one matching line per file.
  const max = mode === 'files' ? 1 : Number.POSITIVE_INFINITY;
  const found = byteLines(matcher, bytes, max, context, mode !== 'count');
  if (found) {
    if (found.matches.length === 0) return null;
    return { matches: found.matches, matchTexts: found.texts, ...(found.around ? { lineTexts: found.around } : {}) };
  }
  const text = bytes.toString('utf8');
  const matchTexts: string[] = [];
  const matches = matchingLines(matcher, text, max, matchTexts);
  return matches.length > 0 ? { matches, matchTexts, text } : null;
}
