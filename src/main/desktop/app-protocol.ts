/**
 * Serves the renderer from the `app://skald/` scheme instead of `file://` (E3), with the CSP header on every
 * response (E4). Paths outside the renderer folder are refused. `/viewer/file/<handle>` is the viewer's file
 * route (the core decides, as in the web shape); `skald-preview://v/…` is the HTML preview's own origin
 * (docs/viewer.md "HTML").
 * Check ids (E3, E4) are listed in docs/security-checks.md.
 */
import { buildCsp } from '../core/security/csp';
import { readStatic } from '../core/http/static-files';
import type { HttpReply } from '../core/viewer/http-reply';
import { FILE_ROUTE, type ViewerService } from '../core/viewer/viewer-service';

export const PREVIEW_SCHEME = 'skald-preview';
const PREVIEW_BASE = `${PREVIEW_SCHEME}://v`;

function toResponse(reply: HttpReply): Response {
  const body = typeof reply.body === 'string' ? reply.body : new Uint8Array(reply.body);
  return new Response(body, { status: reply.status, headers: reply.headers });
}

export async function serveAppRequest(
  rendererDir: string,
  requestUrl: string,
  viewer?: ViewerService,
): Promise<Response> {
  const url = new URL(requestUrl);
  if (url.host !== 'skald') return new Response('not found', { status: 404 });
  if (viewer && url.pathname.startsWith(FILE_ROUTE)) return toResponse(viewer.serveFile(url.pathname));
  const file = await readStatic(rendererDir, url.pathname);
  if (!file) return new Response('not found', { status: 404 });
  const csp = buildCsp(viewer ? { previewOrigin: `${PREVIEW_SCHEME}:` } : {});
  return new Response(new Uint8Array(file.body), {
    status: 200,
    headers: { 'content-type': file.type, 'content-security-policy': csp, 'x-content-type-options': 'nosniff' },
  });
}

/** Tells the core where previews live; call once before the first window. */
export function usePreviewScheme(viewer: ViewerService): void {
  viewer.preview.setBase(PREVIEW_BASE);
}

export function servePreviewRequest(viewer: ViewerService, requestUrl: string): Response {
  const url = new URL(requestUrl);
  if (url.host !== 'v') return new Response('not found', { status: 404 });
  return toResponse(viewer.preview.serve(url.pathname));
}
