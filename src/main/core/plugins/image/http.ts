/**
 * Small HTTP helpers for the image providers: one request with a deadline joined to the caller's stop signal, and
 * errors written for the model (the server's status and the start of its message, never a key or a whole body).
 */
export const DEFAULT_IMAGE_TIMEOUT_S = 180;
const MAX_ERROR_TEXT = 300;

export class ImageProviderError extends Error {
  override readonly name = 'ImageProviderError';
}

/** `fetch` that fails with a readable message on timeout, network errors and non-2xx answers. */
export async function request(
  url: string,
  init: RequestInit,
  opts: { signal: AbortSignal; timeoutMs: number; what: string },
): Promise<Response> {
  const deadline = AbortSignal.timeout(opts.timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.any([opts.signal, deadline]) });
  } catch (error) {
    if (opts.signal.aborted) throw error; // stopped: the execution reports `cancelled`
    if (deadline.aborted)
      throw new ImageProviderError(`${opts.what} did not answer within ${Math.round(opts.timeoutMs / 1000)} s.`);
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    throw new ImageProviderError(`${opts.what} could not be reached at ${new URL(url).origin} (${cause}).`);
  }
  if (!response.ok) {
    const text = (await response.text().catch(() => '')).replace(/\s+/g, ' ').trim();
    let message = text;
    try {
      const parsed = JSON.parse(text) as { error?: { message?: unknown } | string };
      const inner = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message;
      if (typeof inner === 'string') message = inner;
    } catch {
      /* not JSON: keep the text */
    }
    const shown = message.length > MAX_ERROR_TEXT ? `${message.slice(0, MAX_ERROR_TEXT)}…` : message;
    throw new ImageProviderError(`${opts.what} answered HTTP ${response.status}${shown ? `: ${shown}` : ''}.`);
  }
  return response;
}

/** The image type from its first bytes (servers do not always say). */
export function sniffImageMime(bytes: Buffer): string | null {
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && bytes.toString('ascii', 0, 4) === 'RIFF' && bytes.toString('ascii', 8, 12) === 'WEBP')
    return 'image/webp';
  if (bytes.length >= 6 && bytes.toString('ascii', 0, 3) === 'GIF') return 'image/gif';
  return null;
}

/** Joins a base URL and a path without doubling or losing a slash. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
