/**
 * Fetching a handle's bytes from the app's own origin (`/viewer/file/<handle>`; the web shape's cookie or the
 * desktop's `app://` handler carries the access). A refusal comes back as a status plus a message a person can
 * read; it is shown as it is.
 */
import { DECODER_LABEL, textEncodingOf } from '../../../../shared/text-encoding';

export class FileFetchError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function fetchBytes(url: string, signal?: AbortSignal): Promise<ArrayBuffer> {
  const response = await fetch(url, { signal, cache: 'no-store', credentials: 'same-origin' });
  if (!response.ok)
    throw new FileFetchError(
      response.status,
      response.headers.get('x-skald-error') ?? 'unknown',
      (await response.text()) || `HTTP ${response.status}`,
    );
  return response.arrayBuffer();
}

/** The file's text, decoded as its first bytes say (UTF-16 with its byte-order mark, else UTF-8; the mark left out). */
export async function fetchText(url: string, signal?: AbortSignal): Promise<string> {
  const bytes = new Uint8Array(await fetchBytes(url, signal));
  return new TextDecoder(DECODER_LABEL[textEncodingOf(bytes) ?? 'utf8']).decode(bytes);
}
