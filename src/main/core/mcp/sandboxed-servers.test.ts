/**
 * MCP stdio servers in the sandbox (docs/sandbox.md "MCP servers"), through the real core's wiring: a server the
 * model registered starts confined (the data folder hidden, writes only in the workspace; network allowed), the
 * person's own server with the same command starts as it is. The real filesystem server from npm, pointed at the
 * data folder, shows the difference. Its process is bubblewrap's, and closing it leaves nothing behind.
 */
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';

const require = createRequire(import.meta.url);
const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const signal = new AbortController().signal;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  cleanupTempDirs();
});

/** Live processes whose command line holds the filesystem server, by their program's name. */
function serverProcesses(): string[] {
  const out: string[] = [];
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      const state = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.[0];
      if (argv.includes(FILESYSTEM) && state !== 'Z') out.push(argv[0]!.split('/').at(-1)!);
    } catch {
      /* exited meanwhile */
    }
  }
  return out.sort();
}

const text = (result: unknown) =>
  ((result as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('\n');

async function listAndWrite(harness: Harness, name: string, by: 'user' | 'model') {
  const data = harness.dataDir;
  await harness.core.mcp.save(
    { name, transport: 'stdio', command: process.execPath, args: [FILESYSTEM, data, harness.workspace] },
    by,
  );
  if (by === 'model') await harness.core.mcp.trust(name);
  const call = async (tool: string, args: Record<string, unknown>) => {
    try {
      return text((await harness.core.mcp.manager.callTool(name, `mcp__${name}__${tool}`, args, { signal })).result);
    } catch (error) {
      return String(error);
    }
  };
  return {
    listing: await call('list_directory', { path: data }),
    wroteData: await call('write_file', { path: join(data, `${name}.txt`), content: 'x' }),
    wroteWorkspace: await call('write_file', { path: join(harness.workspace, `${name}.txt`), content: 'x' }),
  };
}

describe('stdio servers and the sandbox', () => {
  it("the model's server is confined: the data folder is empty to it and read-only; the workspace is writable", async () => {
    h = await startHarness();
    const confined = await listAndWrite(h, 'modelfs', 'model');
    expect(confined.listing).not.toContain('skald.db');
    expect(confined.wroteData).toMatch(/EACCES|permission denied/i);
    expect(existsSync(join(h.dataDir, 'modelfs.txt'))).toBe(false);
    expect(confined.wroteWorkspace).toMatch(/Successfully wrote/);
    expect(existsSync(join(h.workspace, 'modelfs.txt'))).toBe(true);

    // The person's server, the same command: as it is (the test can fail).
    const own = await listAndWrite(h, 'userfs', 'user');
    expect(own.listing).toContain('skald.db');
    expect(existsSync(join(h.dataDir, 'userfs.txt'))).toBe(true);

    // bubblewrap (outside and as the namespace's first process) around the model's server, the person's bare.
    expect(serverProcesses()).toEqual(['bwrap', 'bwrap', 'node', 'node']);
    await h.close();
    h = undefined;
    expect(serverProcesses()).toEqual([]);
  }, 120_000);

  it("the person's switch: their own server confined when on, the model's bare when off; the model registering it again turns it on", async () => {
    h = await startHarness();
    const harness = h;
    const views = async () => (await harness.call('mcp:list', {})).servers.map((v) => [v.name, v.sandboxed]);
    await harness.core.mcp.save(
      { name: 'ownfs', transport: 'stdio', command: process.execPath, args: [FILESYSTEM, h.dataDir] },
      'user',
    );
    await harness.core.mcp.save(
      { name: 'agentfs', transport: 'stdio', command: process.execPath, args: [FILESYSTEM, h.dataDir] },
      'model',
    );
    expect(await views()).toEqual([
      ['agentfs', true],
      ['ownfs', false],
    ]);
    // The person turns the sandbox on for their own server: it restarts confined.
    expect((await h.call('mcp:setSandboxed', { name: 'ownfs', sandboxed: true })).server.sandboxed).toBe(true);
    const own = await listAndWrite(h, 'ownfs2', 'user');
    expect(own.listing).toContain('skald.db'); // a new server of the person's: bare until switched
    await h.call('mcp:setSandboxed', { name: 'ownfs2', sandboxed: true });
    await h.core.mcp.manager.restart('ownfs2');
    const listing = text(
      (await h.core.mcp.manager.callTool('ownfs2', 'mcp__ownfs2__list_directory', { path: h.dataDir }, { signal }))
        .result,
    );
    expect(listing).not.toContain('skald.db');
    // Saving the person's server again keeps their switch.
    await harness.core.mcp.save(
      { name: 'ownfs2', transport: 'stdio', command: process.execPath, args: [FILESYSTEM, h.dataDir, h.workspace] },
      'user',
    );
    expect((await h.call('mcp:list', {})).servers.find((v) => v.name === 'ownfs2')?.sandboxed).toBe(true);
    // The model's server switched off by the person; the model registering it anew turns the sandbox back on.
    await h.call('mcp:setSandboxed', { name: 'agentfs', sandboxed: false });
    expect((await h.call('mcp:list', {})).servers.find((v) => v.name === 'agentfs')?.sandboxed).toBe(false);
    await harness.core.mcp.save(
      { name: 'agentfs', transport: 'stdio', command: process.execPath, args: [FILESYSTEM, h.workspace] },
      'model',
    );
    expect((await h.call('mcp:list', {})).servers.find((v) => v.name === 'agentfs')?.sandboxed).toBe(true);
    await expect(h.call('mcp:setSandboxed', { name: 'nope', sandboxed: true })).rejects.toThrow();
  }, 120_000);
});
