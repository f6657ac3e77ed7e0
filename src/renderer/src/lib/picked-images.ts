/**
 * Images a person picked for the next message (pasted, dropped, or chosen with the composer's button): read to base64
 * for `chat:send`, each with an object URL for its preview (docs/chat-ui.md "Images in a message"). The limits are
 * the shared ones (src/shared/chat-images.ts); the core checks the bytes again, so a type the browser guessed from a
 * name never decides anything there.
 */
import { CHAT_IMAGE_TYPES, imagesProblem } from '../../../shared/chat-images';

export interface PickedImage {
  key: number;
  name: string;
  size: number;
  /** Base64 of the bytes. */
  data: string;
  /** An object URL of the file, for the preview; revoked when the image leaves the composer. */
  url: string;
}

let nextKey = 1;
const ACCEPTED: ReadonlySet<string> = new Set(CHAT_IMAGE_TYPES);

/** An image the chat takes, by the type the browser gives it (the core reads the bytes again). */
export const isImageFile = (file: File): boolean => ACCEPTED.has(file.type);

/** A file's bytes as base64 (a data URL's payload: the browser encodes it, not a loop over the bytes here). */
export function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error(`${file.name} could not be read.`));
    reader.readAsDataURL(file);
  });
}

/**
 * `files` added to `current`: either all of them, read, or a sentence saying why none was added (a type that is not
 * accepted, or a limit the whole would pass).
 */
export async function addImages(
  current: readonly PickedImage[],
  files: readonly File[],
): Promise<{ images: PickedImage[] } | { problem: string }> {
  const wrong = files.find((f) => !isImageFile(f));
  if (wrong) return { problem: `${wrong.name || 'That file'} is not a PNG, JPEG, GIF or WebP image.` };
  const problem = imagesProblem([...current, ...files.map((f) => ({ name: f.name || 'image', size: f.size }))]);
  if (problem) return { problem };
  const added = await Promise.all(
    files.map(async (f) => ({
      key: nextKey++,
      name: f.name || 'image',
      size: f.size,
      data: await base64Of(f),
      url: URL.createObjectURL(f),
    })),
  );
  return { images: [...current, ...added] };
}

export function releaseImages(images: readonly PickedImage[]): void {
  for (const image of images) URL.revokeObjectURL(image.url);
}
