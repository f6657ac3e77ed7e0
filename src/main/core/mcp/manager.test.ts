/**
 * The MCP client against real servers from npm over stdio and Streamable HTTP: start, list, call (text,
 * structured content, images), progress, a long call stopped midway (the server is told), server-filesystem and
 * server-memory; and against small fixture servers: a crash mid-call, a tool that changes between runs, a server
 * that never answers initialize. After each, `ps` shows no server process left.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeKit,
  EVERYTHING,
  expectNoProcesses,
  FILESYSTEM,
  FLAKY,
  isLive,
  kitDir,
  MEMORY,
  node,
  processesWith,
  SILENT,
  startKit,
  type McpKit,
} from './test-kit';

let kit: McpKit | null = null;
afterEach(async () => {
  await closeKit(kit);
  kit = null;
});

const signal = () => new AbortController().signal;
const text = (result: unknown) =>
  ((result as { content: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('\n');

describe('MCP manager over stdio', () => {
  it('starts server-everything in the background, lists its tools as mcp__<server>__<tool>, calls echo', async () => {
    kit = startKit();
    await kit.mcp.save(
      { name: 'everything', transport: 'stdio', command: node, args: [EVERYTHING, 'stdio', kit.marker] },
      'user',
    );
    expect(kit.mcp.view('everything').state).toBe('starting');
    await kit.mcp.manager.open('everything');
    const view = kit.mcp.view('everything');
    expect(view.state).toBe('ready');
    expect(view.tools.map((t) => t.exposedName)).toContain('mcp__everything__echo');
    expect(
      kit.mcp.manager.toolSpecs('everything').find((t) => t.name === 'mcp__everything__get-sum')?.parameters,
    ).toMatchObject({ type: 'object' });
    const { result } = await kit.mcp.manager.callTool(
      'everything',
      'mcp__everything__echo',
      { message: 'hi there' },
      { signal: signal() },
    );
    expect(text(result)).toContain('hi there');
    expect(processesWith(kit.marker).length).toBeGreaterThan(0);
  });

  it('server-filesystem and server-memory work through the same client', async () => {
    kit = startKit();
    writeFileSync(join(kit.dir, 'note.txt'), 'filesystem says hello\n');
    await kit.mcp.save(
      { name: 'fs', transport: 'stdio', command: node, args: [FILESYSTEM, kit.dir, kit.marker] },
      'user',
    );
    await kit.mcp.save(
      {
        name: 'memory',
        transport: 'stdio',
        command: node,
        args: [MEMORY, kit.marker],
        env: { MEMORY_FILE_PATH: join(kit.dir, 'memory.jsonl') },
      },
      'user',
    );
    await Promise.all([kit.mcp.manager.open('fs'), kit.mcp.manager.open('memory')]);
    const read = await kit.mcp.manager.callTool(
      'fs',
      'mcp__fs__read_text_file',
      { path: join(kit.dir, 'note.txt') },
      { signal: signal() },
    );
    expect(JSON.stringify(read.result)).toContain('filesystem says hello');
    await kit.mcp.manager.callTool(
      'memory',
      'mcp__memory__create_entities',
      { entities: [{ name: 'Skald', entityType: 'app', observations: ['speaks MCP'] }] },
      { signal: signal() },
    );
    const graph = await kit.mcp.manager.callTool('memory', 'mcp__memory__read_graph', {}, { signal: signal() });
    expect(JSON.stringify(graph.result)).toContain('speaks MCP');
  });

  it('reports progress, and a long call stopped midway sends notifications/cancelled and fails nothing else', async () => {
    kit = startKit();
    const cancelFile = join(kit.dir, 'cancelled.jsonl');
    await kit.mcp.save(
      { name: 'everything', transport: 'stdio', command: node, args: [EVERYTHING, 'stdio', kit.marker] },
      'user',
    );
    await kit.mcp.save(
      { name: 'flaky', transport: 'stdio', command: node, args: [FLAKY, kit.marker], env: { CANCEL_FILE: cancelFile } },
      'user',
    );
    await Promise.all([kit.mcp.manager.open('everything'), kit.mcp.manager.open('flaky')]);
    const progress: number[] = [];
    await kit.mcp.manager.callTool(
      'everything',
      'mcp__everything__trigger-long-running-operation',
      { duration: 0.6, steps: 3 },
      { signal: signal(), onProgress: (p) => progress.push(p.progress) },
    );
    expect(progress.slice(0, 2)).toEqual([1, 2]); // the last one may race the result: the SDK drops a token once answered

    const stop = new AbortController();
    const call = kit.mcp.manager.callTool('flaky', 'mcp__flaky__sleep', { ms: 30_000 }, { signal: stop.signal });
    setTimeout(() => stop.abort(), 300);
    await expect(call).rejects.toThrow();
    await expect
      .poll(() => (existsSync(cancelFile) ? readFileSync(cancelFile, 'utf8') : ''), { timeout: 5_000 })
      .toMatch(/"requestId"/);
    // The server is still fine for the next call.
    const again = await kit.mcp.manager.callTool(
      'flaky',
      'mcp__flaky__describe_me',
      { text: 'after' },
      { signal: signal() },
    );
    expect(text(again.result)).toBe('described: after');
  });

  it('a server that crashes mid-call fails that call with its exit and stderr; the next use reconnects', async () => {
    kit = startKit();
    await kit.mcp.save({ name: 'flaky', transport: 'stdio', command: node, args: [FLAKY, kit.marker] }, 'user');
    await kit.mcp.manager.open('flaky');
    const error = await kit.mcp.manager
      .callTool('flaky', 'mcp__flaky__crash', {}, { signal: signal() })
      .catch((e: Error) => e);
    expect(String(error)).toMatch(/exited with code 3/);
    expect(String(error)).toMatch(/about to crash: simulated failure/);
    expect(kit.mcp.view('flaky')).toMatchObject({
      state: 'failed',
      lastError: expect.stringContaining('exited with code 3'),
    });
    const { result } = await kit.mcp.manager.callTool(
      'flaky',
      'mcp__flaky__describe_me',
      { text: 'back' },
      { signal: signal() },
    );
    expect(text(result)).toBe('described: back');
    expect(kit.mcp.view('flaky').state).toBe('ready');
  });

  it('a server that never answers initialize fails after the start timeout, and its process group is killed', async () => {
    kit = startKit({ startTimeoutMs: 1_500 });
    await kit.mcp.save({ name: 'silent', transport: 'stdio', command: node, args: [SILENT, kit.marker] }, 'user');
    await expect(kit.mcp.manager.open('silent')).rejects.toThrow(/did not answer within 2 s|did not answer within 1 s/);
    expect(kit.mcp.view('silent')).toMatchObject({
      state: 'failed',
      lastError: expect.stringContaining('never answering'),
    });
    await expectNoProcesses(kit.marker);
  });

  it('a call over the time limit is cancelled with that said', async () => {
    kit = startKit({ callTimeoutMs: 400 });
    await kit.mcp.save({ name: 'flaky', transport: 'stdio', command: node, args: [FLAKY, kit.marker] }, 'user');
    await kit.mcp.manager.open('flaky');
    await expect(
      kit.mcp.manager.callTool('flaky', 'mcp__flaky__sleep', { ms: 5_000 }, { signal: signal() }),
    ).rejects.toThrow(/did not finish within 0 s|within 0\.4|and was cancelled/);
  });

  it('delete and disable kill the whole process group, grandchildren included', async () => {
    kit = startKit();
    await kit.mcp.save({ name: 'flaky', transport: 'stdio', command: node, args: [FLAKY, kit.marker] }, 'user');
    await kit.mcp.manager.open('flaky');
    const { result } = await kit.mcp.manager.callTool('flaky', 'mcp__flaky__spawn_child', {}, { signal: signal() });
    const childPid = Number(/child (\d+)/.exec(text(result))![1]);
    expect(isLive(childPid)).toBe(true);
    await kit.mcp.setEnabled('flaky', false);
    expect(kit.mcp.view('flaky').state).toBe('disabled');
    await expectNoProcesses(kit.marker);
    await expect.poll(() => isLive(childPid)).toBe(false);
    await kit.mcp.setEnabled('flaky', true);
    await kit.mcp.manager.open('flaky');
    expect(await kit.mcp.remove('flaky')).toBe(true);
    await expectNoProcesses(kit.marker);
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

describe('MCP manager over Streamable HTTP', () => {
  it('connects to server-everything over HTTP: tools, structured content, an image kept as JSON/paths', async () => {
    kit = startKit();
    const port = await freePort();
    const server = spawn(node, [EVERYTHING, 'streamableHttp', kit.marker], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    try {
      await new Promise<void>((resolve) =>
        server.stderr!.on('data', (d: Buffer) => d.toString().includes('listening') && resolve()),
      );
      await kit.mcp.save({ name: 'remote', transport: 'http', url: `http://127.0.0.1:${port}/mcp` }, 'user');
      await kit.mcp.manager.open('remote');
      expect(kit.mcp.view('remote').tools.map((t) => t.name)).toContain('get-structured-content');
      const { result } = await kit.mcp.manager.callTool(
        'remote',
        'mcp__remote__get-structured-content',
        { location: 'New York' },
        { signal: signal() },
      );
      expect((result as { structuredContent: object }).structuredContent).toMatchObject({
        temperature: expect.any(Number),
      });
    } finally {
      process.kill(-server.pid!, 'SIGKILL');
    }
  });
});
