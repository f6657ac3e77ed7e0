/**
 * Scripted image servers over real HTTP on 127.0.0.1 (a random port), for the image plugins' tests:
 * - `startOpenAiImagesServer()`: `POST /v1/images/generations`, answering b64_json (or a URL to `/files/<n>.png` on
 *   itself), a scripted error status, or a delay; records each request's body and headers.
 * - `startComfyUiServer()`: `POST /prompt`, `GET /history/<id>` (empty until the job is done), `GET /view`,
 *   `POST /interrupt`, `POST /queue`; jobs finish after `finishAfterPolls` history polls, or never (`hang`).
 * Both serve a real 1×1 PNG.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A valid 1×1 transparent PNG. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export interface Recorded {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

interface Base {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse, body: unknown) => void | Promise<void>,
  requests: Recorded[],
): Promise<Base> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      await handler(req, res, body);
    })();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

export interface OpenAiImagesServer extends Base {
  /** `b64` (default), `url`, an HTTP status to fail with, or `garbage` (200 with no images). */
  mode: 'b64' | 'url' | 'garbage' | number;
  delayMs: number;
}

export async function startOpenAiImagesServer(): Promise<OpenAiImagesServer> {
  const requests: Recorded[] = [];
  const state = { mode: 'b64' as OpenAiImagesServer['mode'], delayMs: 0 };
  const base = await listen(async (req, res, body) => {
    if (req.method === 'GET' && req.url?.startsWith('/files/')) {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG_1X1);
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/images/generations')
      return json(res, 404, { error: { message: 'not found' } });
    if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
    if (typeof state.mode === 'number')
      return json(res, state.mode, { error: { message: 'scripted failure', type: 'server_error' } });
    if (state.mode === 'garbage') return json(res, 200, { created: 1 });
    const n = Math.max(1, Number((body as { n?: unknown } | null)?.n ?? 1));
    const data = Array.from({ length: n }, (_, i) =>
      state.mode === 'url' ? { url: `${base.url}/files/${i}.png` } : { b64_json: PNG_1X1.toString('base64') },
    );
    json(res, 200, { created: 1, data });
  }, requests);
  return Object.defineProperties(base as unknown as OpenAiImagesServer, {
    mode: { get: () => state.mode, set: (v: OpenAiImagesServer['mode']) => (state.mode = v) },
    delayMs: { get: () => state.delayMs, set: (v: number) => (state.delayMs = v) },
  });
}

export interface ComfyUiServer extends Base {
  /** History polls before a job is done; `Infinity` = never (a job to interrupt). */
  finishAfterPolls: number;
  /** Finish jobs with ComfyUI's error status instead of images. */
  failJobs: boolean;
  /** Workflows received by `/prompt`, parsed. */
  readonly workflows: unknown[];
  readonly interrupts: number;
  readonly queueDeletes: string[];
}

export async function startComfyUiServer(): Promise<ComfyUiServer> {
  const requests: Recorded[] = [];
  const jobs = new Map<string, number>();
  const workflows: unknown[] = [];
  const queueDeletes: string[] = [];
  const state = { finishAfterPolls: 1, failJobs: false, interrupts: 0 };
  let next = 0;
  const base = await listen((req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'POST' && url.pathname === '/prompt') {
      const id = `job-${++next}`;
      workflows.push((body as { prompt?: unknown } | null)?.prompt);
      jobs.set(id, 0);
      return json(res, 200, { prompt_id: id, number: next, node_errors: {} });
    }
    if (req.method === 'GET' && url.pathname.startsWith('/history/')) {
      const id = decodeURIComponent(url.pathname.slice('/history/'.length));
      const polls = (jobs.get(id) ?? 0) + 1;
      jobs.set(id, polls);
      if (polls <= state.finishAfterPolls) return json(res, 200, {});
      if (state.failJobs) {
        return json(res, 200, {
          [id]: {
            outputs: {},
            status: {
              status_str: 'error',
              completed: false,
              messages: [['execution_error', { node_type: 'KSampler', exception_message: 'out of memory' }]],
            },
          },
        });
      }
      return json(res, 200, {
        [id]: {
          outputs: { '9': { images: [{ filename: `${id}.png`, subfolder: '', type: 'output' }] } },
          status: { status_str: 'success', completed: true, messages: [] },
        },
      });
    }
    if (req.method === 'GET' && url.pathname === '/view') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG_1X1);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/interrupt') {
      state.interrupts++;
      return json(res, 200, {});
    }
    if (req.method === 'POST' && url.pathname === '/queue') {
      queueDeletes.push(...((body as { delete?: string[] } | null)?.delete ?? []));
      return json(res, 200, {});
    }
    json(res, 404, { error: 'not found' });
  }, requests);
  return Object.defineProperties(base as unknown as ComfyUiServer, {
    finishAfterPolls: { get: () => state.finishAfterPolls, set: (v: number) => (state.finishAfterPolls = v) },
    failJobs: { get: () => state.failJobs, set: (v: boolean) => (state.failJobs = v) },
    workflows: { get: () => workflows },
    interrupts: { get: () => state.interrupts },
    queueDeletes: { get: () => queueDeletes },
  });
}
