/**
 * "Test connection" against real HTTP servers on 127.0.0.1: a model list, a refused key with the provider's own
 * message, a wrong address, a closed port, an answer that is not a model list, a server that never answers; each
 * model's context window where the list says it (each field a server uses, nonsense ignored); and local discovery
 * finding only the servers that answer.
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
const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
afterEach(async () => {
  seen.length = 0;
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
});

describe('probeProvider', () => {
  it('lists the models with a Bearer key (OpenAI shape) and an x-api-key (Anthropic)', async () => {
    const url = await serve((req, res) =>
      req.url === '/v1/models'
        ? json(res, 200, { data: [{ id: 'gpt-x' }, { id: 'gpt-y' }, { nope: 1 }] })
        : json(res, 404, {}),
    );
    expect(await probeProvider({ kind: 'open_ai', baseUrl: url, apiKey: 'sk-1' })).toMatchObject({
      ok: true,
      models: ['gpt-x', 'gpt-y'],
      contextWindows: {},
    });
    expect(seen[0]!.headers.authorization).toBe('Bearer sk-1');
    await probeProvider({ kind: 'anthropic', baseUrl: `${url}/`, apiKey: 'ak-2' });
    expect(seen[1]!.headers['x-api-key']).toBe('ak-2');
    expect(seen[1]!.headers.authorization).toBeUndefined();
    expect(seen[1]!.url).toBe('/v1/models');
  });

  it("explains a refused key with the provider's own words, and a wrong address", async () => {
    const url = await serve((req, res) =>
      req.url === '/v1/models'
        ? json(res, 401, { error: { message: 'Incorrect API key provided' } })
        : json(res, 404, { error: 'no' }),
    );
    expect(await probeProvider({ kind: 'openrouter', baseUrl: url, apiKey: 'bad' })).toMatchObject({
      ok: false,
      status: 401,
      message: expect.stringMatching(/refused the key.*Incorrect API key/),
    });
    expect(
      await probeProvider({ kind: 'openai_compatible', baseUrl: url.replace('/v1', '/wrong'), apiKey: null }),
    ).toMatchObject({ ok: false, status: 404, message: expect.stringMatching(/usually ends in \/v1/) });
  });

  it('says when nothing listens, when the answer is no model list, and when no answer comes', async () => {
    expect(await probeProvider({ kind: 'ollama', baseUrl: await closedPort(), apiKey: null })).toMatchObject({
      ok: false,
      status: null,
      message: expect.stringMatching(/connection refused/),
    });
    const html = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>'));
    expect(await probeProvider({ kind: 'openai_compatible', baseUrl: html, apiKey: null })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not with a list of models/),
    });
    const silent = await serve(() => {});
    expect(
      await probeProvider({ kind: 'openai_compatible', baseUrl: silent, apiKey: null }, { timeoutMs: 300 }),
    ).toMatchObject({ ok: false, message: expect.stringMatching(/No answer/) });
  });
});

describe('probeProvider: context windows from the list', () => {
  it('reads each field a server names the window in', async () => {
    const url = await serve((_req, res) =>
      json(res, 200, {
        data: [
          { id: 'openrouter/model', context_length: 200_000, top_provider: { context_length: 100_000 } }, // OpenRouter, Together
          { id: 'openrouter/top-only', top_provider: { context_length: 65_536 } },
          { id: 'llama-3.1-8b-instant', context_window: 131_072 }, // Groq
          { id: 'Qwen/Qwen3-8B', max_model_len: 8_192 }, // vLLM
          { id: 'mistral-large-latest', max_context_length: 131_072 }, // Mistral
          { id: 'gemini-1m', context_length: 1_048_576 },
          { id: 'plain' },
        ],
      }),
    );
    const result = await probeProvider({ kind: 'openai_compatible', baseUrl: url, apiKey: null });
    expect(result).toMatchObject({
      ok: true,
      models: [
        'openrouter/model',
        'openrouter/top-only',
        'llama-3.1-8b-instant',
        'Qwen/Qwen3-8B',
        'mistral-large-latest',
        'gemini-1m',
        'plain',
      ],
    });
    expect(result.ok && result.contextWindows).toEqual({
      'openrouter/model': 200_000,
      'openrouter/top-only': 65_536,
      'llama-3.1-8b-instant': 131_072,
      'Qwen/Qwen3-8B': 8_192,
      'mistral-large-latest': 131_072,
      'gemini-1m': 1_048_576,
    });
  });

  it('ignores a window that is not a whole number from 1,000 to 10,000,000, and ids on the prototype stay plain', async () => {
    const url = await serve((_req, res) =>
      json(res, 200, {
        data: [
          { id: 'string', context_length: '131072' },
          { id: 'fraction', context_length: 8192.5 },
          { id: 'tiny', context_length: 512 },
          { id: 'huge', context_length: 20_000_000 },
          { id: 'negative', context_window: -8192 },
          { id: 'null', max_model_len: null },
          { id: 'nested-bad', top_provider: { context_length: 'lots' } },
          { id: 'edge-low', context_length: 1_000 },
          { id: 'edge-high', context_length: 10_000_000 },
          { id: 'constructor', context_length: 4_096 },
        ],
      }),
    );
    const result = await probeProvider({ kind: 'openrouter', baseUrl: url, apiKey: 'k' });
    expect(result.ok && result.models).toHaveLength(10);
    expect(result.ok && result.contextWindows).toEqual({
      'edge-low': 1_000,
      'edge-high': 10_000_000,
      constructor: 4_096,
    });
    expect(result.ok && Object.hasOwn(result.contextWindows, 'string')).toBe(false);
  });

  it('a list without windows (OpenAI, Anthropic, Ollama) is unchanged: the same ids, no windows', async () => {
    const url = await serve((_req, res) =>
      json(res, 200, {
        data: [
          { id: 'claude-x', type: 'model', display_name: 'Claude X' },
          { id: 'gpt-z', object: 'model', owned_by: 'openai' },
        ],
      }),
    );
    expect(await probeProvider({ kind: 'anthropic', baseUrl: url, apiKey: 'ak' })).toEqual({
      ok: true,
      models: ['claude-x', 'gpt-z'],
      contextWindows: {},
      latencyMs: expect.any(Number),
    });
  });

  it('LM Studio: the windows come from its own /api/v0/models on the same server; its absence changes nothing', async () => {
    const lm = await serve((req, res) => {
      if (req.url === '/v1/models')
        return json(res, 200, {
          object: 'list',
          data: [
            { id: 'qwen2.5-7b-instruct', object: 'model' },
            { id: 'nomic-embed', object: 'model' },
          ],
        });
      if (req.url === '/api/v0/models')
        return json(res, 200, {
          object: 'list',
          data: [
            { id: 'qwen2.5-7b-instruct', max_context_length: 32_768 },
            { id: 'not-listed', max_context_length: 8_192 },
            { id: 'nomic-embed', max_context_length: 512 },
          ],
        });
      return json(res, 404, {});
    });
    expect(await probeProvider({ kind: 'lm_studio', baseUrl: lm, apiKey: null })).toMatchObject({
      ok: true,
      models: ['qwen2.5-7b-instruct', 'nomic-embed'],
      contextWindows: { 'qwen2.5-7b-instruct': 32_768 },
    });
    expect(seen.map((r) => r.url)).toEqual(['/v1/models', '/api/v0/models']);
    const old = await serve((req, res) =>
      req.url === '/v1/models' ? json(res, 200, { data: [{ id: 'm' }] }) : json(res, 404, { error: 'no' }),
    );
    expect(await probeProvider({ kind: 'lm_studio', baseUrl: old, apiKey: null })).toMatchObject({
      ok: true,
      models: ['m'],
      contextWindows: {},
    });
    seen.length = 0;
    await probeProvider({ kind: 'openai_compatible', baseUrl: lm, apiKey: null });
    expect(seen.map((r) => r.url)).toEqual(['/v1/models']); // only LM Studio is asked twice
  });
});

describe('discoverLocalProviders', () => {
  it('offers only the local servers that answer with their models', async () => {
    const ollama = await serve((_req, res) => json(res, 200, { object: 'list', data: [{ id: 'llama3.2:3b' }] }));
    const found = await discoverLocalProviders({ baseUrls: { ollama, lm_studio: await closedPort() } });
    expect(found).toEqual([
      { kind: 'ollama', name: 'Ollama (this computer)', baseUrl: ollama, models: ['llama3.2:3b'], contextWindows: {} },
    ]);
  });

  it('offers LM Studio with the windows its own list gives', async () => {
    const lm = await serve((req, res) =>
      req.url === '/v1/models'
        ? json(res, 200, { data: [{ id: 'llama-3.2-3b' }] })
        : json(res, 200, { data: [{ id: 'llama-3.2-3b', max_context_length: 131_072 }] }),
    );
    const found = await discoverLocalProviders({ baseUrls: { ollama: await closedPort(), lm_studio: lm } });
    expect(found).toEqual([
      {
        kind: 'lm_studio',
        name: 'LM Studio (this computer)',
        baseUrl: lm,
        models: ['llama-3.2-3b'],
        contextWindows: { 'llama-3.2-3b': 131_072 },
      },
    ]);
  });
});
