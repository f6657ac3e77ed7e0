/**
 * Fetching a handle's bytes from the app's own origin (`/viewer/file/<handle>`; the web shape's cookie or the
 * desktop's `app://` handler carries the access). A refusal comes back as a status plus a message a person can
 * read; it is shown as it is.
 */
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
  if (!response.ok) throw new FileFetchError(response.status, response.headers.get('x-skald-error') ?? 'unknown', (await response.text()) || `HTTP ${response.status}`);
  return response.arrayBuffer();
}

export async function fetchText(url: string, signal?: AbortSignal): Promise<string> {
  return new TextDecoder('utf-8').decode(await fetchBytes(url, signal));
}
