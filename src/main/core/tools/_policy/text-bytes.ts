/** How a file's bytes are text (docs/tools.md "Text files and their encodings"): src/main/core/disk/text-bytes.ts. */
export {
  BINARY_SNIFF_BYTES,
  decodeText,
  describeEncoding,
  textEncodingOf,
  utf8TextBytes,
  type TextEncoding,
} from '../../disk/text-bytes';
