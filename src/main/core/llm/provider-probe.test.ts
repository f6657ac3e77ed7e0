/**
 * "Test connection" against real HTTP servers on 127.0.0.1: a model list, a refused key with the provider's own
 * message, a wrong address, a closed port, an answer that is not a model list, a server that never answers; and
 * local discovery finding only the servers that answer.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverLocalProviders, probeProvider } from './provider-probe';

const servers: Server[] = [];
const seen: IncomingMessage[] = [];
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    seen.push(req);
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}
async function closedPort(): Promise<string> {
  const url = await serve(() => {});
  const server = servers.pop()!;
  await new Promise((r) => server.close(r));
  return url;
}
const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
afterEach(async () => {
  seen.length = 0;
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
});

describe('probeProvider', () => {
  it('lists the models with a Bearer key (OpenAI shape) and an x-api-key (Anthropic)', async () => {
    const url = await serve((req, res) => (req.url === '/v1/models' ? json(res, 200, { data: [{ id: 'gpt-x' }, { id: 'gpt-y' }, { nope: 1 }] }) : json(res, 404, {})));
    expect(await probeProvider({ kind: 'open_ai', baseUrl: url, apiKey: 'sk-1' })).toMatchObject({ ok: true, models: ['gpt-x', 'gpt-y'] });
    expect(seen[0]!.headers.authorization).toBe('Bearer sk-1');
    await probeProvider({ kind: 'anthropic', baseUrl: `${url}/`, apiKey: 'ak-2' });
    expect(seen[1]!.headers['x-api-key']).toBe('ak-2');
    expect(seen[1]!.headers.authorization).toBeUndefined();
    expect(seen[1]!.url).toBe('/v1/models');
  });

  it('explains a refused key with the provider\'s own words, and a wrong address', async () => {
    const url = await serve((req, res) => (req.url === '/v1/models' ? json(res, 401, { error: { message: 'Incorrect API key provided' } }) : json(res, 404, { error: 'no' })));
    expect(await probeProvider({ kind: 'openrouter', baseUrl: url, apiKey: 'bad' })).toMatchObject({ ok: false, status: 401, message: expect.stringMatching(/refused the key.*Incorrect API key/) });
    expect(await probeProvider({ kind: 'openai_compatible', baseUrl: url.replace('/v1', '/wrong'), apiKey: null })).toMatchObject({ ok: false, status: 404, message: expect.stringMatching(/usually ends in \/v1/) });
  });

  it('says when nothing listens, when the answer is no model list, and when no answer comes', async () => {
    expect(await probeProvider({ kind: 'ollama', baseUrl: await closedPort(), apiKey: null })).toMatchObject({ ok: false, status: null, message: expect.stringMatching(/connection refused/) });
    const html = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>'));
    expect(await probeProvider({ kind: 'openai_compatible', baseUrl: html, apiKey: null })).toMatchObject({ ok: false, message: expect.stringMatching(/not with a list of models/) });
    const silent = await serve(() => {});
    expect(await probeProvider({ kind: 'openai_compatible', baseUrl: silent, apiKey: null }, { timeoutMs: 300 })).toMatchObject({ ok: false, message: expect.stringMatching(/No answer/) });
  });
});

describe('discoverLocalProviders', () => {
  it('offers only the local servers that answer with their models', async () => {
    const ollama = await serve((_req, res) => json(res, 200, { object: 'list', data: [{ id: 'llama3.2:3b' }] }));
    const found = await discoverLocalProviders({ baseUrls: { ollama, lm_studio: await closedPort() } });
    expect(found).toEqual([{ kind: 'ollama', name: 'Ollama (this computer)', baseUrl: ollama, models: ['llama3.2:3b'] }]);
  });
});
