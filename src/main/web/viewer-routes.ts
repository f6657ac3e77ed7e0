/**
 * The web shape's side of the viewer (docs/viewer.md): writing a core `HttpReply`, and the HTML preview's own
 * origin, a second HTTP server on another loopback port. The preview server takes no app token (a sandboxed
 * frame has none to give): a preview URL's random token is the capability, the `Host` must be its own address
 * (no DNS rebinding), and it answers GET/HEAD only. Nothing else of the app is reachable through it.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpReply } from '../core/viewer/http-reply';
import type { ViewerService } from '../core/viewer/viewer-service';

export function sendReply(res: ServerResponse, method: string | undefined, reply: HttpReply): void {
  res.writeHead(reply.status, { ...reply.headers, 'content-length': String(Buffer.byteLength(reply.body)) });
  res.end(method === 'HEAD' ? undefined : reply.body);
}

export interface PreviewOrigin {
  origin: string;
  close(): Promise<void>;
}

export async function startPreviewServer(
  viewer: ViewerService,
  log: (message: string, error?: unknown) => void,
): Promise<PreviewOrigin> {
  let port = 0;
  const server = createServer((req, res) => {
    try {
      if (req.headers.host !== `127.0.0.1:${port}`) {
        res.writeHead(421, { 'content-type': 'text/plain' }).end('bad host\n');
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405).end();
        return;
      }
      sendReply(res, req.method, viewer.preview.serve(new URL(req.url ?? '/', 'http://x').pathname));
    } catch (error) {
      log('preview handler failed', error);
      if (!res.headersSent) res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  viewer.preview.setBase(origin);
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections(); // a preview frame's keep-alive socket must not hold the shutdown
        server.close(() => resolve());
      }),
  };
}
