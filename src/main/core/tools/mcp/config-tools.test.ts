/**
 * `register_mcp`, `delete_mcp` and `toggle_item(kind=mcp)` through the real session (scripted LLM, real gate,
 * real servers): a command the model registers is shown in full on the approval card and never runs before the
 * person trusts it in Settings; deleting and disabling stop the server's process group; bad input is a result
 * the model can read; the model cannot set an MCP credential through `set_secret`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../../test/helpers/core-harness';
import { expectNoProcesses, FLAKY, node, processesWith } from '../../mcp/test-kit';
import { endHarnessTest } from '../../../../../test/helpers/mcp-harness';

let h: Harness | null = null;
let marker = '';
afterEach(async () => {
  await endHarnessTest(h, marker);
  h = null;
});

async function approveNext(harness: Harness, seen: Set<number>) {
  const asked = await harness.waitForEvent('approval_required', (e) => !seen.has(e.request_id));
  seen.add(asked.request_id);
  await harness.call('inbox:resolveApproval', {
    requestId: asked.request_id,
    action: 'approve',
    note: '',
    argsHash: asked.args_hash,
  });
  return asked;
}

describe('MCP config tools', () => {
  it('register_mcp shows the full command, stores the server untrusted and starts nothing until the person trusts it', async () => {
    marker = `skald-mcp-reg-${Math.random().toString(36).slice(2)}`;
    h = await startHarness({
      turns: [
        { toolCalls: [{ name: 'activate_tools', arguments: { groups: ['config'] } }] },
        {
          toolCalls: [
            {
              name: 'register_mcp',
              arguments: { name: 'flaky', command: node, args: [FLAKY, marker, '--and-this-flag'] },
            },
          ],
        },
        { text: 'Registered.' },
      ],
    });
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: 'add the flaky server' });
    const asked = await approveNext(h, new Set());
    expect(asked.tool_name).toBe('register_mcp');
    expect(asked.arguments).toContain('--and-this-flag');
    expect(asked.arguments).toContain(FLAKY);
    const done = await h.waitForEvent('tool_done', (e) => e.tool_call_id === asked.tool_call_id);
    expect(done.result).toMatch(/not trusted yet/);
    await h.waitForEvent('done');
    const [server] = (await h.call('mcp:list', {})).servers;
    expect(server).toMatchObject({
      name: 'flaky',
      state: 'untrusted',
      createdBy: 'model',
      args: [FLAKY, marker, '--and-this-flag'],
    });
    expect(processesWith(marker)).toEqual([]);
    await h.call('mcp:trust', { name: 'flaky' });
    await h.core.mcp.manager.open('flaky');
    expect(processesWith(marker).length).toBeGreaterThan(0);
  });

  it('toggle_item disables (the group dies) and delete_mcp removes a server; unknown names are readable errors', async () => {
    marker = `skald-mcp-del-${Math.random().toString(36).slice(2)}`;
    h = await startHarness({
      turns: [
        // Config tools are a lazy group (docs/agents.md "activate_tools"): activated first, offered from the next round.
        { toolCalls: [{ name: 'activate_tools', arguments: { groups: ['config'] } }] },
        { toolCalls: [{ name: 'toggle_item', arguments: { kind: 'mcp', name: 'flaky', enabled: false } }] },
        { toolCalls: [{ name: 'delete_mcp', arguments: { name: 'nope' } }] },
        { toolCalls: [{ name: 'delete_mcp', arguments: { name: 'flaky' } }] },
        { text: 'Done.' },
      ],
    });
    await h.call('mcp:save', { name: 'flaky', transport: 'stdio', command: node, args: [FLAKY, marker] });
    await h.core.mcp.manager.open('flaky');
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: 'disable then delete' });
    const seen = new Set<number>();
    await approveNext(h, seen);
    await h.waitForEvent('tool_done', (e) => e.result.includes('Disabled MCP server "flaky"'));
    await expectNoProcesses(marker);
    await approveNext(h, seen);
    const missing = await h.waitForEvent('tool_error');
    expect(missing.error).toMatch(/There is no MCP server named "nope". Servers: flaky/);
    await approveNext(h, seen);
    await h.waitForEvent('done');
    expect((await h.call('mcp:list', {})).servers).toEqual([]);
  });

  it('the model cannot write an MCP credential with set_secret', async () => {
    h = await startHarness({
      turns: [
        { toolCalls: [{ name: 'activate_tools', arguments: { groups: ['config'] } }] },
        { toolCalls: [{ name: 'set_secret', arguments: { key: 'mcp.github.credential', value: 'attacker' } }] },
        { text: 'ok' },
      ],
    });
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: 'set it' });
    // Refused by the arguments' check, before any approval card.
    const failed = await h.waitForEvent('tool_error');
    expect(failed.error).toMatch(/MCP server credentials/);
    expect(h.events.some((e) => e.type === 'approval_required')).toBe(false);
    expect(h.core.secrets.has('mcp.github.credential')).toBe(false);
  });
});
