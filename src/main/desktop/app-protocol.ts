/**
 * Serves the renderer from the `app://skald/` scheme instead of `file://` (E3), with the CSP header on every
 * response (E4). Paths outside the renderer folder are refused.
 */
import { buildCsp } from '../core/security/csp';
import { readStatic } from '../core/http/static-files';

export async function serveAppRequest(rendererDir: string, requestUrl: string): Promise<Response> {
  const url = new URL(requestUrl);
  if (url.host !== 'skald') return new Response('not found', { status: 404 });
  const file = await readStatic(rendererDir, url.pathname);
  if (!file) return new Response('not found', { status: 404 });
  return new Response(new Uint8Array(file.body), {
    status: 200,
    headers: { 'content-type': file.type, 'content-security-policy': buildCsp(), 'x-content-type-options': 'nosniff' },
  });
}
