/**
 * The web shape's early socket (bridge/early-socket.ts, docs/ui.md "What the first page loads"): the entry sends the
 * first screen's call before the app has loaded; the web client adopts that socket and answers the app's own
 * first-screen ask with the early answer, never sending the call twice, whether the answer came before or after the
 * ask; an early socket that closed before it was adopted costs nothing (the ask goes out on a new one). Against the
 * real web server and core, over real sockets (the `ws` client stands in for the browser's WebSocket).
 */
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { cleanupTempDirs, tempDir } from '../helpers/temp';
import { createCore, type Core } from '../../src/main/core/index';
import { SessionStore } from '../../src/main/core/session/session-store';
import { startWebServer, type WebServer } from '../../src/main/web/server';
import { FIRST_SCREEN_CALL, openEarlySocket, takeEarlySocket } from '../../src/renderer/src/bridge/early-socket';
import { createWebClient } from '../../src/renderer/src/bridge/web-client';

let core: Core;
let server: WebServer;
let location: Location;
/** Every call frame the page's sockets sent, in order. */
const sent: { channel: string; id: number }[] = [];

beforeAll(async () => {
  const dir = tempDir('skald-early-');
  mkdirSync(join(dir, 'renderer'));
  core = await createCore({ dataDir: join(dir, 'data'), workspaceDir: join(dir, 'ws'), shape: 'web', version: 'test' });
  const store = new SessionStore(core.db);
  const id = store.createSession('first');
  store.appendMessage({ sessionId: id, role: 'user', content: 'hello there' });
  server = await startWebServer({ core, rendererDir: join(dir, 'renderer'), log: () => {} });
  location = { protocol: 'http:', host: `127.0.0.1:${server.port}`, search: `?token=${server.token}` } as Location;
  (globalThis as { window?: unknown }).window = { location };
  (globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (this: WebSocket, data: unknown, ...rest: unknown[]) {
    const frame = JSON.parse(String(data)) as { channel: string; id: number };
    sent.push({ channel: frame.channel, id: frame.id });
    return (send as (...a: unknown[]) => void).call(this, data, ...rest);
  } as typeof send;
});

afterAll(async () => {
  await server.close();
  await core.dispose();
  cleanupTempDirs();
});

beforeEach(() => {
  sent.length = 0;
});

const firstScreenCalls = () => sent.filter((f) => f.channel === FIRST_SCREEN_CALL.channel);

describe('the early socket', () => {
  it('answers the app’s first-screen ask that came before the answer, with one call on the wire', async () => {
    openEarlySocket();
    const client = createWebClient(location, takeEarlySocket());
    const answer = await client.chat.listSessions(FIRST_SCREEN_CALL.request);
    expect(answer.sessions.map((s) => s.title)).toContain('first');
    expect(answer.newestHistory?.messages.map((m) => m.content)).toEqual(['hello there']);
    expect(firstScreenCalls()).toEqual([{ channel: FIRST_SCREEN_CALL.channel, id: 0 }]);
    // Only the first ask is the early one: the next goes out as a call of its own.
    await client.chat.listSessions(FIRST_SCREEN_CALL.request);
    expect(firstScreenCalls().map((f) => f.id)).toEqual([0, 1]);
  });

  it('keeps an answer that came before the ask for it', async () => {
    openEarlySocket();
    const client = createWebClient(location, takeEarlySocket());
    // The server answers in order: once this later call is answered, the early answer has arrived and waits.
    await client.app.info({});
    const answer = await client.chat.listSessions(FIRST_SCREEN_CALL.request);
    expect(answer.newestHistory?.messages.map((m) => m.content)).toEqual(['hello there']);
    expect(firstScreenCalls()).toHaveLength(1);
  });

  it('a different ask is not taken for the early call', async () => {
    openEarlySocket();
    const client = createWebClient(location, takeEarlySocket());
    const plain = await client.chat.listSessions({});
    expect(plain.newestHistory).toBeUndefined();
    expect(firstScreenCalls().map((f) => f.id)).toEqual([0, 1]);
  });

  it('an early socket that closed before the app adopted it is replaced, and the ask goes out on the new one', async () => {
    openEarlySocket();
    const early = takeEarlySocket()!;
    await new Promise((resolve) => early.socket.addEventListener('open', resolve, { once: true }));
    const closed = new Promise((resolve) => early.socket.addEventListener('close', resolve, { once: true }));
    early.socket.close();
    await closed;
    const client = createWebClient(location, early);
    const answer = await client.chat.listSessions(FIRST_SCREEN_CALL.request);
    expect(answer.newestHistory?.messages.map((m) => m.content)).toEqual(['hello there']);
    expect(firstScreenCalls().map((f) => f.id)).toEqual([0, 1]);
  });

  it('opens nothing on desktop (the preload bridge is there)', () => {
    (globalThis as { window?: unknown }).window = { location, skaldBridge: {} };
    openEarlySocket();
    expect(takeEarlySocket()).toBeNull();
    (globalThis as { window?: unknown }).window = { location };
  });
});
