/**
 * Elicitation against real servers (docs/mcp.md "Elicitation"): server-everything's form request becomes a card
 * with its schema; accept / decline / cancel reach the server; the deadline cancels; the call's own time limit
 * pauses while the person answers; sensitive fields are masked; and through a real session the value never
 * reaches the model, the database or any event.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { McpEvent } from '../../../shared/contract/mcp';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';
import { grantForSession } from '../agents/group-registry';
import { sensitiveFields } from './elicitation';
import { cleanupKitDirs, EVERYTHING, expectNoProcesses, FLAKY, node, startKit, type McpKit } from './test-kit';

let kit: McpKit | null = null;
let h: Harness | null = null;
const markers: string[] = [];
afterEach(async () => {
  await kit?.close();
  await h?.close();
  kit = null;
  h = null;
  for (const m of markers.splice(0)) await expectNoProcesses(m);
  cleanupKitDirs();
  cleanupTempDirs();
});

const text = (result: unknown) =>
  ((result as { content: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('\n');
type Asked = Extract<McpEvent, { type: 'elicitation' }>;
const nextElicitation = async (events: McpEvent[], from = 0): Promise<Asked> => {
  let found: Asked | undefined;
  await expect
    .poll(() => (found = events.slice(from).find((e): e is Asked => e.type === 'elicitation')), { timeout: 10_000 })
    .toBeTruthy();
  return found!;
};

async function everything(overrides = {}): Promise<McpKit> {
  kit = startKit(overrides);
  markers.push(kit.marker);
  await kit.mcp.save(
    { name: 'everything', transport: 'stdio', command: node, args: [EVERYTHING, 'stdio', kit.marker] },
    'user',
  );
  await kit.mcp.manager.open('everything');
  return kit;
}

describe('elicitation', () => {
  it("shows the server's schema; accepted values reach the server", async () => {
    const k = await everything();
    const call = k.mcp.manager.callTool(
      'everything',
      'mcp__everything__trigger-elicitation-request',
      {},
      { signal: new AbortController().signal },
    );
    const asked = await nextElicitation(k.events);
    expect(asked.elicitation).toMatchObject({
      server: 'everything',
      message: expect.stringContaining('Please provide'),
    });
    expect(JSON.parse(asked.elicitation.schema).properties).toHaveProperty('email');
    expect(asked.elicitation.sensitive).toEqual([]); // "do not give us your … pin" in a description is not a PIN field
    expect(k.mcp.elicitations.list()).toHaveLength(1);
    expect(k.mcp.elicitations.resolve(asked.elicitation.id, 'accept', { name: 'Ada Lovelace', check: true })).toBe(
      true,
    );
    expect(text((await call).result)).toContain('Name: Ada Lovelace');
    expect(k.mcp.elicitations.list()).toEqual([]);
    expect(k.events).toContainEqual({ type: 'elicitation_resolved', id: asked.elicitation.id, action: 'accept' });
  });

  it('decline reaches the server; the deadline cancels; an answer for a finished request is refused', async () => {
    const k = await everything({ elicitationDeadlineMs: 300 });
    const declined = k.mcp.manager.callTool(
      'everything',
      'mcp__everything__trigger-elicitation-request',
      {},
      { signal: new AbortController().signal },
    );
    const first = await nextElicitation(k.events);
    k.mcp.elicitations.resolve(first.elicitation.id, 'decline');
    expect(text((await declined).result)).toMatch(/declined/);
    const from = k.events.length;
    const expired = k.mcp.manager.callTool(
      'everything',
      'mcp__everything__trigger-elicitation-request',
      {},
      { signal: new AbortController().signal },
    );
    const second = await nextElicitation(k.events, from);
    expect(text((await expired).result)).toMatch(/cancel/i);
    expect(k.mcp.elicitations.resolve(second.elicitation.id, 'accept', { name: 'late' })).toBe(false);
  });

  it("the call's time limit pauses while the person answers", async () => {
    const k = await everything({ callTimeoutMs: 400 });
    const call = k.mcp.manager.callTool(
      'everything',
      'mcp__everything__trigger-elicitation-request',
      {},
      { signal: new AbortController().signal },
    );
    const asked = await nextElicitation(k.events);
    await new Promise((r) => setTimeout(r, 1_000));
    k.mcp.elicitations.resolve(asked.elicitation.id, 'accept', { name: 'Slow Typist' });
    expect(text((await call).result)).toContain('Slow Typist');
  });

  it('masks fields that look like secrets', () => {
    expect(
      sensitiveFields({
        properties: {
          api_token: { type: 'string' },
          region: { type: 'string' },
          pw: { type: 'string', title: 'Password' },
          n: { type: 'string', description: 'Your secret phrase' },
        },
      }),
    ).toEqual(['api_token', 'pw', 'n']);
  });

  it('through a session: the token goes to the server only (not the model, the database or an event)', async () => {
    const marker = `skald-mcp-elicit-${Math.random().toString(36).slice(2)}`;
    markers.push(marker);
    const token = 'tok-SUPER-SECRET-VALUE-4242';
    h = await startHarness({
      turns: [{ toolCalls: [{ name: 'mcp__flaky__ask_token', arguments: {} }] }, { text: 'Deployed.' }],
    });
    const mcpEvents: McpEvent[] = [];
    h.core.events.subscribe('mcp', (e) => mcpEvents.push(e));
    await h.call('mcp:save', { name: 'flaky', transport: 'stdio', command: node, args: [FLAKY, marker] });
    await h.core.mcp.manager.open('flaky');
    const sessionId = await h.newSession();
    grantForSession(h.core.db, sessionId, 'flaky');
    await h.call('chat:send', { sessionId, content: 'deploy' });
    const approval = await h.waitForEvent('approval_required');
    await h.call('inbox:resolveApproval', {
      requestId: approval.request_id,
      action: 'approve',
      note: '',
      argsHash: approval.args_hash,
    });
    const asked = await nextElicitation(mcpEvents);
    expect(asked.elicitation).toMatchObject({ sessionId, toolCallId: approval.tool_call_id, sensitive: ['api_token'] });
    expect((await h.call('mcp:listElicitations', {})).elicitations).toHaveLength(1);
    await h.call('mcp:resolveElicitation', {
      id: asked.elicitation.id,
      action: 'accept',
      content: { api_token: token, region: 'eu' },
    });
    const done = await h.waitForEvent('tool_done');
    expect(done.result).toBe(`accept: token of ${token.length} characters, region eu`);
    await h.waitForEvent('done');
    const tables = (
      h.core.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]
    ).map((t) => h!.core.db.prepare(`SELECT * FROM "${t.name}"`).all());
    const everywhere = JSON.stringify([h.events, mcpEvents, h.llm.requests, tables]);
    expect(everywhere).not.toContain(token);
  });
});
