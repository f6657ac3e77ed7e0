/**
 * The app's launch with MCP servers configured (docs/mcp.md "Lifecycle"): `core.start()` shows every enabled, trusted
 * server as `starting` at once, spawns none (nor sends an event) before the first screen's data (its session list) is answered, then
 * starts them all (one that never answers stays `starting`); with no window asking, they start after the warm-up's
 * delay; a server stopped before its turn is not started.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchCall } from '../bridge/dispatch';
import { createCore, type Core } from '../index';
import { cleanupKitDirs, expectNoProcesses, FLAKY, kitDir, node, processesWith, SILENT } from './test-kit';

let core: Core | undefined;
let marker = '';
afterEach(async () => {
  await core?.dispose();
  core = undefined;
  await expectNoProcesses(marker);
  cleanupKitDirs();
});

/** A core whose data folder has two trusted servers (one answers, one never does), not started yet. */
async function coreWithServers(warmUpDelayMs = 60_000): Promise<Core> {
  const dir = kitDir();
  marker = `skald-launch-${Math.random().toString(36).slice(2)}`;
  const setup = await createCore({
    dataDir: join(dir, 'data'),
    workspaceDir: join(dir, 'ws'),
    shape: 'web',
    version: 'test',
  });
  await setup.mcp.save({ name: 'answers', transport: 'stdio', command: node, args: [FLAKY, marker] }, 'user');
  await setup.mcp.save({ name: 'hangs', transport: 'stdio', command: node, args: [SILENT, marker] }, 'user');
  await setup.mcp.save({ name: 'off', transport: 'stdio', command: node, args: [FLAKY, marker, 'off'] }, 'user');
  await setup.mcp.setEnabled('off', false);
  await setup.dispose();
  await expectNoProcesses(marker);
  return createCore(
    { dataDir: join(dir, 'data'), workspaceDir: join(dir, 'ws'), shape: 'web', version: 'test' },
    { warmUpDelayMs },
  );
}

const states = async (c: Core) => {
  const listed = await dispatchCall(c.handlers, 'mcp:list', {});
  if (!listed.ok) throw new Error(listed.error.message);
  return Object.fromEntries(
    (listed.result as { servers: { name: string; state: string }[] }).servers.map((s) => [s.name, s.state]),
  );
};

describe('MCP servers at launch', () => {
  it('list as starting at once, spawn only after the first screen is answered, then all start', async () => {
    core = await coreWithServers();
    const changed: string[] = [];
    core.events.subscribe('mcp', (e) => void (e.type === 'server_changed' && changed.push(e.name)));
    core.start();
    expect(await states(core)).toEqual({ answers: 'starting', hangs: 'starting', off: 'disabled' });
    // Turns of the event loop pass (the spawns used to begin on the first): nothing runs before the first screen,
    // nor is anything sent (the states are set, and told, only after its answer).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(processesWith(marker)).toEqual([]);
    expect(await states(core)).toEqual({ answers: 'starting', hangs: 'starting', off: 'disabled' });
    expect(changed).toEqual([]);

    expect((await dispatchCall(core.handlers, 'chat:listSessions', {})).ok).toBe(true);
    expect(changed).toEqual([]); // the answer leaves first
    await expect.poll(() => changed.slice(0, 2).sort(), { timeout: 5_000 }).toEqual(['answers', 'hangs']);
    await expect.poll(async () => (await states(core!)).answers, { timeout: 20_000 }).toBe('ready');
    expect(await states(core)).toEqual({ answers: 'ready', hangs: 'starting', off: 'disabled' });
    await expect.poll(() => processesWith(marker).length, { timeout: 10_000 }).toBe(2); // the disabled one never
  });

  it('start after the warm-up delay when no window asks', async () => {
    core = await coreWithServers(200);
    core.start();
    await expect.poll(async () => (await states(core!)).answers, { timeout: 20_000 }).toBe('ready');
    expect((await states(core)).hangs).toBe('starting');
  });

  it('a call that needs a server before then starts it at once; one stopped meanwhile is not started', async () => {
    core = await coreWithServers();
    core.start();
    await core.mcp.manager.stop('hangs');
    expect((await states(core)).hangs).toBe('stopped');
    await core.mcp.manager.open('answers'); // as a tool call does
    expect((await states(core)).answers).toBe('ready');
    expect((await dispatchCall(core.handlers, 'chat:listSessions', {})).ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await states(core)).hangs).toBe('stopped');
    expect(processesWith(marker).filter((line) => line.includes('silent-server'))).toEqual([]);
  });
});
