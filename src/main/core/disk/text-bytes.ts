/**
 * A file's bytes as text for the tools (docs/tools.md "Text files and their encodings"), by the encoding its head shows
 * (src/shared/text-encoding.ts), so both search engines and the reading tools agree with ripgrep:
 * - UTF-16 with a BOM (what Windows PowerShell's `>` writes, Excel's "Unicode text"): text, decoded; its NUL bytes
 *   made every tool call it binary, while ripgrep, which decodes it, found lines in it.
 * - UTF-8 with a BOM: text without the BOM (ripgrep leaves it out of a line's text too).
 */
import { textEncodingOf, type TextEncoding } from '../../../shared/text-encoding';

export { BINARY_SNIFF_BYTES, textEncodingOf, type TextEncoding } from '../../../shared/text-encoding';

/** The text of a file's bytes (without its BOM), or null for a binary file. */
export function decodeText(bytes: Buffer): { text: string; encoding: TextEncoding } | null {
  const encoding = textEncodingOf(bytes);
  switch (encoding) {
    case null:
      return null;
    case 'utf16le':
      return { text: bytes.toString('utf16le', 2), encoding };
    case 'utf16be':
      return {
        text: Buffer.from(bytes.subarray(2, bytes.length - (bytes.length % 2)))
          .swap16()
          .toString('utf16le'),
        encoding,
      };
    case 'utf8-bom':
      return { text: bytes.toString('utf8', 3), encoding };
    default:
      return { text: bytes.toString('utf8'), encoding };
  }
}

/**
 * The file's text as UTF-8 bytes, for the search engine that matches bytes: the same bytes for UTF-8, a view past
 * the BOM for UTF-8 with one, new bytes for UTF-16; null for a binary file.
 */
export function utf8TextBytes(bytes: Buffer): Buffer | null {
  const encoding = textEncodingOf(bytes);
  if (encoding === null) return null;
  if (encoding === 'utf8') return bytes;
  if (encoding === 'utf8-bom') return bytes.subarray(3);
  return Buffer.from(decodeText(bytes)!.text, 'utf8');
}

export const describeEncoding = (encoding: TextEncoding): string =>
  encoding === 'utf16le' ? 'UTF-16 (little-endian)' : encoding === 'utf16be' ? 'UTF-16 (big-endian)' : 'UTF-8';
