/**
 * The web shape (docs/architecture.md "Shapes and processes"): an HTTP server on 127.0.0.1 serving the built renderer,
 * and a WebSocket at `/ws` carrying the bridge contract. Every request and socket passes `checkAccess`; a bad frame
 * gets an error reply and the socket stays up.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import { eventFamilies } from '../../shared/contract/index';
import { dispatchCall } from '../core/bridge/dispatch';
import type { Core } from '../core/index';
import { buildCsp } from '../core/security/csp';
import { checkAccess, TOKEN_COOKIE } from './access';
import { readStatic } from '../core/http/static-files';
import { ClientFrameSchema, type ServerFrame } from './wire';
import { startPreviewServer, sendReply } from './viewer-routes';
import { FILE_ROUTE } from '../core/viewer/viewer-service';
import { windowListener } from '../core/window-events';

export interface WebServerOptions {
  core: Core;
  rendererDir: string;
  port?: number;
  token?: string;
  log?: (message: string, error?: unknown) => void;
}

export interface WebServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/**
 * The largest frame a window may send: a message with its images (src/shared/chat-images.ts: 10 MB of images, base64
 * 4/3 larger) and its text fit; anything larger is refused by the socket before it is read whole.
 */
const MAX_FRAME_BYTES = 16 * 1024 * 1024;
const require = createRequire(import.meta.url);

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const log = options.log ?? ((m, e) => console.error(`[web] ${m}`, e ?? ''));
  let port = 0;
  // The HTML preview's own origin: a second loopback port (docs/viewer.md "HTML").
  const preview = await startPreviewServer(options.core.viewer, log);

  const http = createServer((req, res) => {
    void handleHttp(req, res).catch((error) => {
      log('http handler failed', error);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  async function handleHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const verdict = checkAccess(req, port, token);
    if (!verdict.ok) {
      res.writeHead(verdict.status, { 'content-type': 'text/plain' }).end(`${verdict.reason}\n`);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path.startsWith(FILE_ROUTE)) {
      sendReply(res, req.method, options.core.viewer.serveFile(path));
      return;
    }
    const file = await readStatic(options.rendererDir, path);
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    const headers: Record<string, string | string[]> = {
      'content-type': file.type,
      'content-security-policy': buildCsp({ previewOrigin: preview.origin }),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    };
    if (verdict.viaQuery) headers['set-cookie'] = `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;
    res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : file.body);
  }

  // The WebSocket library loads off the start's path and off the first page's scripts: at the first upgrade. The
  // page's first module opens its socket as soon as that module's small file is in, while the browser still fetches
  // and compiles the app's chunk (docs/ui.md "What the first page loads"); both were asked for together, so the app's
  // chunk has been sent by then, and loading the library (tens of ms of this thread) no longer holds it back, as it
  // did when it loaded right after the first script was sent. Loaded when the server listened, it held the page's
  // HTML back; through `import()`, Node's ESM loader scans each of its CommonJS files for exports first (about twice
  // the time of `require`; docs/performance.md "Performance targets").
  let wss: WebSocketServer | null = null;
  let wssReady: Promise<WebSocketServer> | null = null;
  const socketServer = () =>
    (wssReady ??= Promise.resolve().then(() => {
      const { WebSocketServer: Server } = require('ws') as typeof import('ws');
      return (wss = new Server({ noServer: true, maxPayload: MAX_FRAME_BYTES }));
    }));
  http.on('upgrade', (req, socket, head) => {
    const verdict = checkAccess(req, port, token);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (!verdict.ok || path !== '/ws') {
      socket.end(`HTTP/1.1 ${verdict.ok ? 404 : verdict.status} Refused\r\n\r\n`);
      return;
    }
    void socketServer().then(
      (server) => server.handleUpgrade(req, socket, head, (ws) => onSocket(ws, socket)),
      (error) => {
        log('websocket library failed to load', error);
        socket.destroy();
      },
    );
  });

  // Every event goes to every open socket from one subscription per family, queued inside the emit as it is and
  // serialized once, at the end of that turn of the event loop, whatever the number of windows (`EventFrame`); a
  // socket's frames of one turn leave in one write at its end (`Outgoing`): each write to a window is a system call
  // that wakes the window's process, which on a busy machine took the processor from the tool call that emitted the
  // event before it went on, and the serializing was most of what an emit cost the call (docs/performance.md "What
  // keeps the waited-on paths fast").
  const sockets = new Map<WebSocket, Outgoing>();
  let unsubscribe: (() => void)[] = [];
  const broadcast = (frame: ServerFrame) => {
    const shared = new EventFrame(frame);
    for (const out of sockets.values()) out.send(shared);
  };
  const forwardEvents = () =>
    eventFamilies.map((family) =>
      // Streamed deltas are joined per turn of the event loop on their way out (core/window-events.ts).
      options.core.events.subscribe(
        family,
        windowListener(family, (payload) => broadcast({ type: 'event', family, payload })),
      ),
    );

  function onSocket(ws: WebSocket, tcp: Duplex): void {
    const out = new Outgoing(ws, tcp);
    const send = (frame: ServerFrame) => out.send(JSON.stringify(frame));
    sockets.set(ws, out);
    if (sockets.size === 1) unsubscribe = forwardEvents();
    ws.on('message', (data) => {
      let raw: unknown;
      try {
        raw = JSON.parse(data.toString());
      } catch {
        send({ type: 'result', id: null, ok: false, error: { code: 'bad_frame', message: 'Frame is not JSON.' } });
        return;
      }
      const frame = ClientFrameSchema.safeParse(raw);
      if (!frame.success) {
        send({
          type: 'result',
          id: null,
          ok: false,
          error: { code: 'bad_frame', message: 'Frame does not match the wire format.' },
        });
        return;
      }
      const { id, channel, request } = frame.data;
      void dispatchCall(options.core.handlers, channel, request, log).then((outcome) =>
        send(
          outcome.ok
            ? { type: 'result', id, ok: true, result: outcome.result }
            : { type: 'result', id, ok: false, error: outcome.error },
        ),
      );
    });
    ws.on('close', () => {
      if (!sockets.delete(ws) || sockets.size > 0) return;
      for (const off of unsubscribe) off();
      unsubscribe = [];
    });
    ws.on('error', (error) => log('socket error', error));
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (http.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    async close() {
      for (const client of wss?.clients ?? []) client.terminate();
      wss?.close();
      await preview.close();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        // close() ends only idle connections; a socket Chromium opened ahead of a request it never sent (a
        // preconnect) would hold the shutdown until its header timeout, a minute later.
        http.closeAllConnections();
      });
    },
  };
}

/**
 * An event's frame for every window: serialized by the first window that writes it, at the end of the turn of the
 * event loop it was emitted in (after the tool call that emitted it has ended), into UTF-8 bytes the other windows
 * send as they are. The core's events are not changed once emitted (each is a new object), so what is written is
 * what was emitted.
 */
class EventFrame {
  private bytes: Buffer | null = null;

  constructor(private readonly frame: ServerFrame) {}

  get data(): Buffer {
    return (this.bytes ??= Buffer.from(JSON.stringify(this.frame)));
  }
}

/** Settled once: `then` on it runs a function as a microtask of the current turn of the event loop. */
const settled = Promise.resolve();

/**
 * One window's frames, in the order they were sent (events and call results alike, through the one socket): queued
 * as they come, then serialized if need be (`EventFrame`), framed and written at the end of the turn of the event
 * loop, the socket corked around them so they go out in one `writev` (Node's `cork`; ws frames each message into the
 * socket as it is sent). Inside an emit a frame costs a place in each window's queue.
 * The end of the turn: a tick queued from a microtask runs once the microtasks are all done (Node runs its ticks
 * after each drain of the microtask queue), and a tool call runs as one chain of microtasks from the model's answer
 * to its `tool_done` and on into the next round's request. A tick costs the call a few microseconds where the
 * `setImmediate` used before cost it 18 on a loaded machine after an idle (the immediate's native reference; docs/
 * performance.md "What keeps the waited-on paths fast").
 */
class Outgoing {
  private queue: (string | EventFrame)[] = [];
  private readonly atTurnEnd = () => process.nextTick(this.flush);
  private readonly flush = () => {
    const frames = this.queue;
    this.queue = [];
    if (this.ws.readyState !== this.ws.OPEN) return;
    this.tcp.cork();
    for (const frame of frames) this.ws.send(typeof frame === 'string' ? frame : frame.data, { binary: false });
    this.tcp.uncork();
  };

  constructor(
    private readonly ws: WebSocket,
    private readonly tcp: Duplex,
  ) {}

  /** A text frame: a call's result, serialized, or an event's frame, shared by every window. */
  send(data: string | EventFrame): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    if (this.queue.push(data) === 1) void settled.then(this.atTurnEnd);
  }
}
