/**
 * What a file's first bytes say about its text (docs/tools.md "Text files and their encodings"), for the tools in the
 * core and the viewer in the page alike, as ripgrep reads files: a byte-order mark decides (UTF-16 little- or
 * big-endian, UTF-8 with a BOM), else a NUL byte in the first 8 KB marks a binary file (git's and ripgrep's rule),
 * else the text is UTF-8.
 */

/** How much of a file's head is looked at for a NUL byte, the sign of a binary file. */
export const BINARY_SNIFF_BYTES = 8192;

export type TextEncoding = 'utf8' | 'utf8-bom' | 'utf16le' | 'utf16be';

/** The encoding the head of a file shows, or null for a binary file. */
export function textEncodingOf(head: Uint8Array): TextEncoding | null {
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return 'utf16le';
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return 'utf16be';
  if (head.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return null;
  return head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 'utf8-bom' : 'utf8';
}

/** The label TextDecoder knows the encoding by (it leaves the BOM out of the text). */
export const DECODER_LABEL: Record<TextEncoding, string> = {
  utf8: 'utf-8',
  'utf8-bom': 'utf-8',
  utf16le: 'utf-16le',
  utf16be: 'utf-16be',
};
