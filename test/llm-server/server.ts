/**
 * A scripted LLM over real HTTP (tests talk to a real server, not a mock of our client: docs/architecture.md "Tests"):
 * node:http on 127.0.0.1, a random port by default. It speaks the OpenAI Chat Completions and Anthropic Messages
 * streaming wire formats, answers each request with the next scripted turn, and records every request body so a test
 * can assert what the model was sent.
 *
 *   const llm = await startScriptedLlm();
 *   llm.script([{ text: 'Hello there' }, { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }]);
 *   // point a provider at llm.baseUrl (…/v1) — both APIs live under it
 *   llm.requests[0].body.messages; await llm.close();
 *
 * `GET …/v1/models` lists one model, `scripted-1` (OpenAI's and Anthropic's list shape); those requests are
 * recorded apart, at `GET /__model_requests`.
 * Control endpoints for a standalone process (cli.ts): `POST /__script` (body: turns array or {turns, defaultTurn}),
 * `GET /__requests`, `POST /__reset`. Limits: streaming only (a `stream: false` request gets a 400); no auth check
 * (the received headers are recorded instead); bodies over 16 MB are refused.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { anthropicErrorBody, writeAnthropicStream } from './anthropic-stream';
import { openAiErrorBody, writeOpenAiStream, type StreamIds } from './openai-stream';
import { SseWriter } from './sse';
import { TurnQueue, type RecordedRequest, type ScriptedTurn } from './turns';

export type { RecordedRequest, ScriptedToolCall, ScriptedTurn } from './turns';

export interface ScriptedLlm {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** `http://127.0.0.1:<port>/v1`: the base URL to configure for any provider kind. */
  readonly baseUrl: string;
  readonly port: number;
  /** Every request received, in order (including ones answered with a scripted error). */
  readonly requests: RecordedRequest[];
  /** Appends turns to the queue. */
  script(turns: readonly ScriptedTurn[]): void;
  /** The turn used when the queue has nothing for a request (null: answer 400). */
  setDefaultTurn(turn: ScriptedTurn | null): void;
  /** Turns not yet used. */
  remaining(): number;
  reset(): void;
  close(): Promise<void>;
}

export interface StartOptions {
  port?: number;
  turns?: readonly ScriptedTurn[];
  defaultTurn?: ScriptedTurn;
  /**
   * Keep every request body in `requests` (default true). The benches run this server in the process they time:
   * kept bodies (the whole context and every tool's schema, about 23 KB each parsed) grew that process's heap by
   * about 60 MB over the session-overhead suite, and the collections the app's path pays grew with it.
   */
  keepRequests?: boolean;
}

const MAX_BODY = 16 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('request body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function parseScriptBody(value: unknown): { turns: ScriptedTurn[]; defaultTurn?: ScriptedTurn | null } {
  if (Array.isArray(value)) return { turns: value as ScriptedTurn[] };
  const obj = (value ?? {}) as { turns?: unknown; defaultTurn?: unknown };
  return {
    turns: Array.isArray(obj.turns) ? (obj.turns as ScriptedTurn[]) : [],
    ...(obj.defaultTurn !== undefined ? { defaultTurn: obj.defaultTurn as ScriptedTurn | null } : {}),
  };
}

export async function startScriptedLlm(options: StartOptions = {}): Promise<ScriptedLlm> {
  const queue = new TurnQueue();
  queue.push(options.turns ?? []);
  queue.defaultTurn = options.defaultTurn ?? null;
  const requests: RecordedRequest[] = [];
  /** Model-list requests (GET …/v1/models), kept apart so `requests` stays the chat requests only. */
  const modelRequests: { path: string; headers: Record<string, string> }[] = [];
  const sockets = new Set<Socket>();
  const writers = new Set<SseWriter>();
  let counter = 0;
  const ids: StreamIds = { next: (prefix) => `${prefix}${++counter}` };

  async function answer(
    api: 'openai' | 'anthropic',
    req: IncomingMessage,
    res: ServerResponse,
    body: Record<string, unknown>,
  ): Promise<void> {
    const turn = queue.take(body);
    if (options.keepRequests !== false)
      requests.push({ api, path: req.url ?? '', headers: flatHeaders(req), body, turn });
    const errorBody = api === 'openai' ? openAiErrorBody : anthropicErrorBody;
    if (!turn) return sendJson(res, 400, errorBody(400, 'scripted LLM: no scripted turn left for this request'));
    if (body.stream !== true)
      return sendJson(res, 400, errorBody(400, 'scripted LLM: only streaming requests are supported'));

    const w = new SseWriter(res, turn.chunkDelayMs ?? 0, turn.dropAfterChunks);
    writers.add(w);
    res.on('close', () => writers.delete(w));
    await w.pause(turn.delayMs ?? 0);
    if (w.isGone) return;
    if (turn.dropConnection) {
      req.socket.destroy();
      return;
    }
    if (turn.status !== undefined && turn.status >= 400) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (turn.status === 429) headers['retry-after'] = '0';
      res.writeHead(turn.status, headers);
      res.end(JSON.stringify(errorBody(turn.status, turn.errorMessage ?? `scripted error ${turn.status}`)));
      return;
    }
    if (api === 'openai') await writeOpenAiStream(w, turn, body, ids);
    else await writeAnthropicStream(w, turn, body, ids);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method === 'GET' && path === '/__requests') return sendJson(res, 200, requests);
    // The model list both APIs serve: what Settings' "test connection" asks for.
    if (req.method === 'GET' && path === '/__model_requests') return sendJson(res, 200, modelRequests);
    if (req.method === 'GET' && path.endsWith('/v1/models')) {
      modelRequests.push({ path, headers: flatHeaders(req) });
      return sendJson(res, 200, {
        object: 'list',
        data: [{ id: 'scripted-1', object: 'model', owned_by: 'scripted-llm' }],
      });
    }
    if (req.method !== 'POST') return sendJson(res, 404, { error: { message: `no route ${req.method} ${path}` } });
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      return sendJson(res, 400, { error: { message: 'request body is not JSON' } });
    }
    if (path === '/__script') {
      const parsed = parseScriptBody(body);
      queue.push(parsed.turns);
      if (parsed.defaultTurn !== undefined) queue.defaultTurn = parsed.defaultTurn;
      return sendJson(res, 200, { remaining: queue.remaining });
    }
    if (path === '/__reset') {
      queue.clear();
      requests.length = 0;
      return sendJson(res, 200, { ok: true });
    }
    const record = (body ?? {}) as Record<string, unknown>;
    if (path.endsWith('/chat/completions')) return answer('openai', req, res, record);
    if (path.endsWith('/messages')) return answer('anthropic', req, res, record);
    return sendJson(res, 404, { error: { message: `no route POST ${path}` } });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, { error: { message: `scripted LLM failed: ${(error as Error).message}` } });
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    baseUrl: `${url}/v1`,
    port,
    requests,
    script: (turns) => queue.push(turns),
    setDefaultTurn: (turn) => {
      queue.defaultTurn = turn;
    },
    remaining: () => queue.remaining,
    reset: () => {
      queue.clear();
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const w of writers) w.markGone();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
