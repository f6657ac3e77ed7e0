/**
 * Messages too large or too deep (docs/mcp.md "Messages too large or too deep"), from a real server process over
 * our stdio transport: an answer past the SDK's old 10 MB cap is read; one past ours fails its call at once, saying
 * why, and the same connection answers the next call; a result nesting past the bound fails at once too; a tool list
 * that deep stops the server from starting, with the reason; a message without end is skipped, memory bounded, until
 * the call's time limit. Before, any answer over 10 MB was dropped without a word, and its call waited two minutes
 * for its timeout.
 */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES, MAX_MESSAGE_DEPTH } from './stdio-framing';
import { closeKit, node, OVERSIZED, startKit, type McpKit } from './test-kit';

let kit: McpKit | null = null;
afterEach(async () => {
  await closeKit(kit);
  kit = null;
});

const signal = () => new AbortController().signal;
const MB = 1024 * 1024;
const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

async function open(env: Record<string, string> = {}, overrides: Parameters<typeof startKit>[0] = {}): Promise<McpKit> {
  kit = startKit(overrides);
  await kit.mcp.save({ name: 'big', transport: 'stdio', command: node, args: [OVERSIZED, kit.marker], env }, 'user');
  return kit;
}

describe.each([
  ['id last (TypeScript SDK)', {}],
  ['id first (Python SDK)', { ID_FIRST: '1' }],
] as const)('answers too large, %s', (_label, env) => {
  it('12 MB is read; past the limit the call fails at once with the reason, and the connection goes on', async () => {
    const k = await open(env);
    await k.mcp.manager.open('big');
    const { result } = await k.mcp.manager.callTool(
      'big',
      'mcp__big__big_text',
      { megabytes: 12 },
      { signal: signal() },
    );
    expect(text(result)).toHaveLength(12 * MB);

    const started = performance.now();
    await expect(
      k.mcp.manager.callTool(
        'big',
        'mcp__big__big_text',
        { megabytes: MAX_MESSAGE_BYTES / MB + 1 },
        { signal: signal() },
      ),
    ).rejects.toThrow(
      /The server's message was 33\.0 MB, more than the 32\.0 MB the app reads; the answer was skipped\./,
    );
    expect(performance.now() - started).toBeLessThan(60_000); // not the two-minute call timeout
    const { result: after } = await k.mcp.manager.callTool(
      'big',
      'mcp__big__echo',
      { text: 'still here' },
      { signal: signal() },
    );
    expect(text(after)).toBe('echo: still here');
  }, 90_000);
});

describe('answers too deep', () => {
  it('a result nesting past the bound fails its call with the reason; one within it is read', async () => {
    const k = await open();
    await k.mcp.manager.open('big');
    await expect(
      k.mcp.manager.callTool('big', 'mcp__big__deep_result', { levels: 10_000 }, { signal: signal() }),
    ).rejects.toThrow(new RegExp(`nests objects or arrays more than ${MAX_MESSAGE_DEPTH} levels deep`));
    const { result } = await k.mcp.manager.callTool(
      'big',
      'mcp__big__deep_result',
      { levels: 100 },
      { signal: signal() },
    );
    expect(JSON.stringify(result)).toContain('[[[[');
  }, 30_000);

  it('a tool list that deep: the server does not start, and says why', async () => {
    const k = await open({ DEEP_TOOLS_LIST: '5000' });
    await expect(k.mcp.manager.open('big')).rejects.toThrow(/levels deep, more than the app reads/);
    expect(k.mcp.view('big')).toMatchObject({ state: 'failed', lastError: expect.stringContaining('levels deep') });
  }, 30_000);
});

it("a message without end is skipped, its memory bounded, until the call's time limit", async () => {
  const k = await open({}, { callTimeoutMs: 3_000 });
  await k.mcp.manager.open('big');
  const before = process.memoryUsage().rss;
  await expect(k.mcp.manager.callTool('big', 'mcp__big__endless', {}, { signal: signal() })).rejects.toThrow(
    /did not finish within|cancelled/,
  );
  // Hundreds of MB went by in those 3 s; what is held of them is one message's worth at most.
  expect(process.memoryUsage().rss - before).toBeLessThan(MAX_MESSAGE_BYTES * 3);
}, 30_000);

describe('over Streamable HTTP', () => {
  /** A minimal Streamable HTTP server: each POST answered as JSON; `big_text` answers with `megabytes` of text. */
  async function httpServer(): Promise<{ url: string; server: Server }> {
    const server = createServer((req, res) => {
      // No event stream (GET) and no session to end (DELETE): a server may answer both so.
      if (req.method !== 'POST') return void res.writeHead(405).end();
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const m = JSON.parse(body) as {
          id?: number;
          method: string;
          params?: { protocolVersion?: string; arguments?: { megabytes?: number } };
        };
        if (m.id === undefined) return void res.writeHead(202).end();
        const result =
          m.method === 'initialize'
            ? {
                protocolVersion: m.params!.protocolVersion,
                capabilities: { tools: {} },
                serverInfo: { name: 'big-http', version: '1' },
              }
            : m.method === 'tools/list'
              ? {
                  tools: [
                    {
                      name: 'big_text',
                      inputSchema: { type: 'object', properties: { megabytes: { type: 'number' } } },
                    },
                  ],
                }
              : {
                  content: [{ type: 'text', text: 'y'.repeat(Math.round((m.params?.arguments?.megabytes ?? 0) * MB)) }],
                };
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ result, jsonrpc: '2.0', id: m.id }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`, server };
  }

  it('an answer past the bound fails its call at once, saying why; the next is answered', async () => {
    const { url, server } = await httpServer();
    try {
      kit = startKit();
      await kit.mcp.save({ name: 'remote', transport: 'http', url }, 'user');
      await kit.mcp.manager.open('remote');
      const started = performance.now();
      await expect(
        kit.mcp.manager.callTool(
          'remote',
          'mcp__remote__big_text',
          { megabytes: MAX_MESSAGE_BYTES / MB + 1 },
          { signal: signal() },
        ),
      ).rejects.toThrow(/more than the 32\.0 MB the app reads; it was cut off/);
      expect(performance.now() - started).toBeLessThan(60_000);
      const { result } = await kit.mcp.manager.callTool(
        'remote',
        'mcp__remote__big_text',
        { megabytes: 1 },
        { signal: signal() },
      );
      expect(text(result)).toHaveLength(MB);
    } finally {
      server.close();
    }
  }, 60_000);
});
