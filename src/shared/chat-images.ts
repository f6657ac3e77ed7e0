/**
 * Images in a person's message (docs/chat-ui.md "Images in a message"): what is accepted, how much, and how a
 * file's first bytes say what it is. The composer checks with these before sending, the contract bounds the call
 * with them, and the core checks the bytes again before anything is stored (a name or a declared type is never
 * trusted: the bytes decide).
 */
export const CHAT_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ChatImageType = (typeof CHAT_IMAGE_TYPES)[number];

/** One image: what the strictest provider takes (Anthropic, 5 MB an image). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_IMAGES_PER_MESSAGE = 4;
/** All of one message's images: the call carries them base64 (4/3 larger) in one frame (web shape: 16 MB). */
export const MAX_IMAGE_BYTES_PER_MESSAGE = 10 * 1024 * 1024;
/** A PDF put in the message box, whose text goes in (docs/chat-ui.md "Images in a message"): at most this big. */
export const MAX_PICKED_PDF_BYTES = 10 * 1024 * 1024;
export const MAX_PICKED_PDF_BASE64_CHARS = Math.ceil(MAX_PICKED_PDF_BYTES / 3) * 4;

/** Base64 length of MAX_IMAGE_BYTES (the contract's bound on one image's text). */
export const MAX_IMAGE_BASE64_CHARS = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;

/**
 * An image's bytes on their way into the database: a person's (checked from the call) or a tool's (`read_file` on
 * an image file: docs/chat-ui.md "Images a tool returns"). One shape for both; the type is always the sniffed one.
 */
export interface NewChatImage {
  name: string;
  mediaType: ChatImageType;
  bytes: Uint8Array;
}

/** The type the bytes are, by their signature; null for anything else. */
export function sniffImageType(bytes: Uint8Array): ChatImageType | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61)
    return 'image/gif';
  if (
    starts(0x52, 0x49, 0x46, 0x46) &&
    bytes[8] === 0x57 &&
    bytes[9] === 0x45 &&
    bytes[10] === 0x42 &&
    bytes[11] === 0x50
  )
    return 'image/webp';
  return null;
}

/** What is wrong with a message's images as the person picked them, or null (sizes and count; the type by its bytes). */
export function imagesProblem(images: readonly { name: string; size: number }[]): string | null {
  const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
  if (images.length > MAX_IMAGES_PER_MESSAGE) return `A message holds at most ${MAX_IMAGES_PER_MESSAGE} images.`;
  const big = images.find((i) => i.size > MAX_IMAGE_BYTES);
  if (big) return `${big.name} is larger than ${mb(MAX_IMAGE_BYTES)}, the most one image may be.`;
  if (images.reduce((sum, i) => sum + i.size, 0) > MAX_IMAGE_BYTES_PER_MESSAGE)
    return `These images come to more than ${mb(MAX_IMAGE_BYTES_PER_MESSAGE)}, the most one message may carry.`;
  return null;
}
