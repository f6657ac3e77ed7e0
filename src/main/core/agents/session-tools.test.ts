/**
 * The session tools through the real turn loop: list_items (agents read from disk, a broken one named and skipped,
 * honest answers for kinds the app does not have), write_todos, activate_tools refusals, read_notification and
 * read_agent_result called directly, and a call of a tool this frame was not offered.
 */
import { cpSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../../shared/contract/chat';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';

let h: Harness;
afterEach(async () => {
  await h?.close();
  cleanupTempDirs();
});

const keyOf = (providerId: string) =>
  (
    h.core.db.prepare('SELECT tool_call_id FROM chat_llm_tools WHERE provider_call_id = ?').get(providerId) as
      | { tool_call_id: string }
      | undefined
  )?.tool_call_id;
const outcome = (events: ChatEvent[], id: string) =>
  events.find((e) => (e.type === 'tool_done' || e.type === 'tool_error') && e.tool_call_id === keyOf(id)) as {
    type: string;
    result?: string;
    error?: string;
  };

describe('session tools', () => {
  it('list_items(agents) lists the task agents; a broken agent is named and skipped; the others still load', async () => {
    const dir = join(tempDir(), 'agents');
    cpSync(join(__dirname, '../../../../agents'), dir, { recursive: true });
    mkdirSync(join(dir, 'broken'));
    writeFileSync(join(dir, 'broken/meta.json'), '{ "name": "Broken", ');
    writeFileSync(join(dir, 'broken/AGENT.md'), 'x');
    h = await startHarness({
      agentsDir: dir,
      turns: [
        {
          toolCalls: [
            { id: 'la', name: 'list_items', arguments: { type: 'agents' } },
            { id: 'lp', name: 'list_items', arguments: { type: 'plugins' } },
            { id: 'lm', name: 'list_items', arguments: { type: 'mcp' } },
            { id: 'lx', name: 'list_items', arguments: { type: 'nope' } },
          ],
        },
        { text: 'listed' },
      ],
    });
    const sessionId = await h.newSession();
    const events = await h.sendAndSettle(sessionId, 'list');
    const agents = JSON.parse(outcome(events, 'la').result!);
    expect(agents.items.map((a: { id: string }) => a.id)).toEqual([
      'code-explorer',
      'researcher',
      'reviewer',
      'software-engineer',
    ]);
    expect(agents.items[0]).toMatchObject({
      name: 'Code explorer',
      instructions: expect.stringContaining('precise question'),
    });
    expect(agents.items[0]).not.toHaveProperty('client');
    expect(agents.skipped).toEqual([
      { id: 'broken', problem: expect.stringContaining('broken/meta.json is not valid JSON') },
    ]);
    const plugins = JSON.parse(outcome(events, 'lp').result!);
    expect(plugins.items.length).toBeGreaterThan(0);
    expect(plugins.items[0]).toEqual({
      name: expect.any(String),
      title: expect.any(String),
      description: expect.any(String),
      enabled: false,
      ready: expect.any(Boolean),
      problem: null,
      config_keys: expect.arrayContaining(['base_url', 'api_key']),
      secrets_set: [],
    });
    expect(JSON.parse(outcome(events, 'lm').result!)).toEqual({ type: 'mcp', items: [] });
    expect(outcome(events, 'lx').error).toMatch(/type/);
  });

  it('write_todos answers with the checklist; read_notification and read_agent_result called directly; unknown groups refused', async () => {
    h = await startHarness({
      turns: [
        {
          toolCalls: [
            {
              id: 'td',
              name: 'write_todos',
              arguments: {
                todos: [
                  { content: 'read', status: 'completed' },
                  { content: 'edit', status: 'in_progress' },
                  { content: 'test', status: 'pending' },
                ],
              },
            },
            { id: 'bad', name: 'write_todos', arguments: { todos: [{ content: 'x', status: 'maybe' }] } },
            { id: 'rn', name: 'read_notification', arguments: {} },
            { id: 'ra', name: 'read_agent_result', arguments: { task_id: 3 } },
            { id: 'rab', name: 'read_agent_result', arguments: { task_id: { id: 3 } } },
            { id: 'ag', name: 'activate_tools', arguments: { groups: ['config', 'nonsense'] } },
          ],
        },
        { text: 'ok' },
      ],
    });
    const sessionId = await h.newSession();
    const events = await h.sendAndSettle(sessionId, 'go');
    expect(outcome(events, 'td').result).toBe('[x] read\n[~] edit\n[ ] test');
    expect(outcome(events, 'bad').error).toMatch(/Invalid arguments for write_todos/);
    expect(outcome(events, 'rn').result).toBe('[]');
    expect(JSON.parse(outcome(events, 'ra').result!)).toMatchObject({ status: 'not_ready' });
    expect(outcome(events, 'rab').error).toMatch(/Invalid arguments for read_agent_result/);
    expect(outcome(events, 'ag').error).toMatch(
      /Unknown tool group\(s\): nonsense\. Known groups: config\. Nothing was activated\./,
    );
    expect(h.core.db.prepare('SELECT count(*) AS n FROM session_mcp_grants').get()).toEqual({ n: 0 });
  });

  it('a tool that exists but was not offered to this agent is refused (root calling execute_subtask)', async () => {
    h = await startHarness({
      turns: [
        {
          toolCalls: [
            { id: 'es', name: 'execute_subtask', arguments: { agent_id: 'reviewer', prompt: 'x', title: 'x' } },
          ],
        },
        { text: 'ok' },
      ],
    });
    const sessionId = await h.newSession();
    const events = await h.sendAndSettle(sessionId, 'go');
    expect(outcome(events, 'es').error).toMatch(/"execute_subtask" is not available to you here/);
    expect(events.some((e) => e.type === 'agent_start')).toBe(false);
  });

  it('activate_tools(["config"]) offers the config tools from the next round only; a Deny rule still hides one; /resettools drops them', async () => {
    h = await startHarness({
      turns: [
        {
          toolCalls: [
            { id: 'act', name: 'activate_tools', arguments: { groups: ['config'] } },
            { id: 'early', name: 'list_secrets', arguments: {} },
          ],
        },
        { toolCalls: [{ id: 'late', name: 'list_secrets', arguments: {} }] },
        { text: 'ok' },
        { text: 'after reset' },
      ],
    });
    h.core.approval.rules.createRule({ tool_pattern: 'set_secret', action: 'deny', priority: 1 });
    h.core.approval.rules.createRule({ tool_pattern: 'list_secrets', action: 'allow', priority: 1 });
    const sessionId = await h.newSession();
    const events = await h.sendAndSettle(sessionId, 'configure');
    const names = (i: number) =>
      ((h.llm.requests[i]!.body.tools as { function: { name: string } }[]) ?? []).map((t) => t.function.name);
    expect(names(0)).not.toContain('list_secrets');
    expect(names(0)).toEqual(expect.arrayContaining(['image_generate', 'image_generate_providers_list'])); // always on
    for (const lazy of ['set_secret', 'configure_plugin', 'toggle_item']) expect(names(0)).not.toContain(lazy);
    expect(outcome(events, 'act').result).toMatch(/Activated config for the rest of this session/);
    expect(outcome(events, 'early').error).toMatch(/"list_secrets" is not available to you here/);
    expect(names(1)).toEqual(expect.arrayContaining(['list_secrets', 'configure_plugin']));
    expect(names(1)).not.toContain('set_secret');
    expect(new Set(names(1)).size).toBe(names(1).length);
    expect(outcome(events, 'late').type).toBe('tool_done');
    await h.sendAndSettle(sessionId, '/resettools');
    await h.sendAndSettle(sessionId, 'again');
    expect(names(3)).not.toContain('list_secrets');
  });

  it("an edit of an agent's AGENT.md or meta.json applies at its next request, without a restart (a running sub-agent too)", async () => {
    const dir = join(tempDir(), 'agents');
    cpSync(join(__dirname, '../../../../agents'), dir, { recursive: true });
    h = await startHarness({
      agentsDir: dir,
      turns: [
        {
          match: 'edit live',
          toolCalls: [
            {
              id: 'eng',
              name: 'execute_task',
              arguments: { mode: 'sync', agent_id: 'software-engineer', prompt: 'LIVE-1 write it', title: 'write' },
            },
          ],
        },
        {
          match: 'LIVE-1',
          toolCalls: [{ id: 'w', name: 'write_file', arguments: { path: 'live.txt', content: 'x' } }],
        },
        { match: 'LIVE-1', text: 'written' },
        { match: 'edit live', text: 'done' },
        { match: 'second turn', text: 'ok' },
      ],
    });
    const sessionId = await h.newSession();
    const system = (i: number) => String((h.llm.requests[i]!.body.messages as { content: string }[])[0]!.content);
    const names = (i: number) =>
      ((h.llm.requests[i]!.body.tools as { function: { name: string } }[]) ?? []).map((t) => t.function.name);
    await h.call('chat:send', { sessionId, content: 'edit live' });
    const pending = await h.waitForEvent('pending_write', (e) => e.tool_call_id === keyOf('w'));
    expect(names(1)).toContain('execute_cmd');
    // While the child waits for approval, the person edits its instructions and narrows its tools.
    writeFileSync(join(dir, 'software-engineer/AGENT.md'), 'EDITED-ENGINEER: you now only read.');
    const meta = join(dir, 'software-engineer/meta.json');
    writeFileSync(
      meta,
      JSON.stringify({ ...JSON.parse(readFileSync(meta, 'utf8')), tools: ['read_file', 'write_file'] }),
    );
    writeFileSync(join(dir, 'main/AGENT.md'), 'EDITED-MAIN: you are the edited chat agent.');
    await h.call('inbox:resolveApproval', {
      requestId: pending.request_id,
      action: 'approve',
      note: '',
      argsHash: pending.args_hash,
    });
    await h.waitForEvent('turn_running', (e) => !e.running);
    expect(system(1)).not.toContain('EDITED-ENGINEER');
    expect(system(2)).toContain('EDITED-ENGINEER'); // the child's next round
    expect(names(2)).not.toContain('execute_cmd');
    expect(names(2)).toContain('read_file');
    expect(system(3)).toContain('EDITED-MAIN'); // the chat agent's next round, same turn
    await h.sendAndSettle(sessionId, 'second turn');
    expect(system(4)).toContain('EDITED-MAIN');
  });
});
