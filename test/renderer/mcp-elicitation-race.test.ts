/**
 * The MCP store against a real core and a real MCP server: a server that starts while another's call asks the person
 * something sends `server_changed` (the store re-reads) and `elicitation` at about the same time. The re-read's list
 * is a snapshot from before the question: landing after the event, it must not wipe the form out (an e2e run once
 * waited 20 s for a form that had come and gone).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSkaldApi } from '../../src/shared/contract/api';
import type { McpEvent } from '../../src/shared/contract/mcp';
import { dispatchCall } from '../../src/main/core/bridge/dispatch';
import { FLAKY, node } from '../../src/main/core/mcp/test-kit';
import { startHarness, type Harness } from '../helpers/core-harness';
import { cleanupTempDirs } from '../helpers/temp';

let h: Harness;
/** While set, `mcp:listElicitations` answers only once it resolves (read at once, delivered late). */
let listGate: Promise<void> | null = null;

const g = globalThis as unknown as { window: { skaldBridge: unknown; location: unknown } };
g.window = {
  location: { search: '' },
  skaldBridge: buildSkaldApi({
    invoke: async (channel, request) => {
      const outcome = structuredClone(await dispatchCall(h.core.handlers, channel, request));
      if (channel === 'mcp:listElicitations' && listGate) await listGate;
      return outcome;
    },
    subscribe: (family, listener) => h.core.events.subscribe(family as 'mcp', listener as never),
  }),
};
const { createMcpStore } = await import('../../src/renderer/src/stores/mcp-store');

beforeAll(async () => {
  h = await startHarness({ turns: [] });
  await h.core.mcp.save({ name: 'flaky', transport: 'stdio', command: node, args: [FLAKY] }, 'user');
  await h.core.mcp.manager.open('flaky');
});
afterAll(async () => {
  await h.close();
  cleanupTempDirs();
});

describe('MCP store: an elicitation arriving while the store re-reads', () => {
  it('keeps the question the older read did not know of', async () => {
    const mcp = createMcpStore();
    const stop = mcp.watch();
    await expect.poll(() => mcp.store.getState().loaded).toBe(true);
    const asked: McpEvent[] = [];
    const off = h.core.events.subscribe('mcp', (e) => asked.push(e));

    let release!: () => void;
    listGate = new Promise<void>((r) => (release = r));
    const reading = mcp.refresh(); // a `server_changed` re-read: its list is read now (empty), delivered late
    const call = h.core.mcp.manager.callTool(
      'flaky',
      'mcp__flaky__ask_token',
      {},
      { signal: new AbortController().signal },
    );
    await expect.poll(() => asked.some((e) => e.type === 'elicitation'), { timeout: 10_000 }).toBe(true);
    expect(mcp.store.getState().elicitations).toHaveLength(1);
    listGate = null;
    release();
    await reading;
    const [waiting] = mcp.store.getState().elicitations;
    expect(waiting).toMatchObject({ server: 'flaky', message: 'Paste your deploy token' });

    h.core.mcp.elicitations.resolve(waiting!.id, 'accept', { api_token: 'abc', region: 'eu' });
    await call;
    await expect.poll(() => mcp.store.getState().elicitations).toEqual([]);
    off();
    stop();
  });
});
