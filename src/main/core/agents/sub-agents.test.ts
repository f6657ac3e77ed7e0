/**
 * Sync sub-agents end to end: the real core (SQLite, gate, Inbox, tools) and the scripted LLM over HTTP. Each
 * child's scripted turn is picked by a token in its prompt (the child's first message), the parent's by a token in
 * the person's message.
 */
import { execSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../../shared/contract/chat';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import type { RecordedRequest } from '../../../../test/llm-server/index';

let h: Harness;
afterEach(async () => {
  await h?.close();
  cleanupTempDirs();
});

const toolNames = (r: RecordedRequest) =>
  ((r.body.tools as { function: { name: string } }[] | undefined) ?? []).map((t) => t.function.name);
const systemOf = (r: RecordedRequest) => String((r.body.messages as { role: string; content: string }[])[0]!.content);
const requestFor = (token: string) => h.llm.requests.find((r) => JSON.stringify(r.body.messages).includes(token))!;
const task = (agent_id: string, prompt: string, extra: Record<string, unknown> = {}) => ({
  name: 'execute_task',
  arguments: { mode: 'sync', agent_id, prompt, title: prompt.slice(0, 30), ...extra },
});
/** The app's key of a call the script gave this provider id (the row keeps the model's id beside its own key). */
const keyOf = (providerId: string) =>
  (
    h.core.db.prepare('SELECT tool_call_id FROM chat_llm_tools WHERE provider_call_id = ?').get(providerId) as
      | { tool_call_id: string }
      | undefined
  )?.tool_call_id ?? `(no call ${providerId})`;
const resultOf = (events: ChatEvent[], id: string) =>
  events.find((e) => (e.type === 'tool_done' || e.type === 'tool_error') && e.tool_call_id === keyOf(id)) as
    | { result?: string; error?: string }
    | undefined;

function agentsCopy(): string {
  const dir = join(tempDir(), 'agents');
  cpSync(join(__dirname, '../../../../agents'), dir, { recursive: true });
  return dir;
}

describe('execute_task sync', () => {
  it('runs the child inline: its answer is the result, its rows are its own stack, agent_start/agent_done frame it', async () => {
    h = await startHarness({
      turns: [
        {
          match: 'explore please',
          toolCalls: [{ id: 'call_parent', ...task('code-explorer', 'TOKEN-A where is main?') }],
        },
        { match: 'TOKEN-A', toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] },
        { match: 'TOKEN-A', text: 'main is in src/main.ts' },
        { match: 'explore please', text: 'The explorer says src/main.ts.' },
      ],
    });
    const sessionId = await h.newSession();
    const events = await h.sendAndSettle(sessionId, 'explore please');
    const start = events.find((e) => e.type === 'agent_start')!;
    expect(start).toMatchObject({
      parent_tool_call_id: keyOf('call_parent'),
      agent_id: 'code-explorer',
      agent_name: 'Code explorer',
      depth: 1,
    });
    const stackId = (start as { stack_id: number }).stack_id;
    // The child's own steps stream under its stack id.
    expect(events.some((e) => e.type === 'tool_start' && e.name === 'list_files' && e.stack_id === stackId)).toBe(true);
    expect(events.some((e) => e.type === 'text_delta' && e.stack_id === stackId)).toBe(true);
    expect(events.find((e) => e.type === 'agent_done')).toMatchObject({ stack_id: stackId, status: 'done' });
    expect(resultOf(events, 'call_parent')?.result).toBe('main is in src/main.ts');
    expect(events.filter((e) => e.type === 'done' && e.stack_id === undefined).at(-1)).toMatchObject({
      content: 'The explorer says src/main.ts.',
    });

    // The parent's context holds the result, never the child's own rows.
    const last = JSON.stringify((h.llm.requests.at(-1)!.body.messages as unknown[]).slice(1));
    expect(last).toContain('main is in src/main.ts');
    expect(last).not.toContain('"name":"list_files"');
    // The child saw its prompt, its AGENT.md, and a read-only tool list without root-only tools or duplicates.
    const child = requestFor('TOKEN-A');
    expect(systemOf(child)).toContain('You are the code explorer');
    const names = toolNames(child);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([
        'read_file',
        'grep_files',
        'execute_subtask',
        'ask_user_clarification',
        'activate_tools',
        'update_scratchpad',
        'write_todos',
      ]),
    );
    for (const absent of [
      'execute_task',
      'show_file_to_user',
      'read_notification',
      'execute_cmd',
      'write_file',
      'edit_file',
    ])
      expect(names).not.toContain(absent);
    const parentNames = toolNames(h.llm.requests[0]!);
    expect(new Set(parentNames).size).toBe(parentNames.length);
    expect(parentNames).toEqual(expect.arrayContaining(['execute_task', 'list_items', 'show_file_to_user']));
    expect(parentNames).not.toContain('execute_subtask');

    // History: the root shows one execute_task card; the card's content comes from chat:subAgent.
    const history = await h.call('chat:history', { sessionId });
    expect(history.messages.flatMap((m) => m.tools.map((t) => t.name))).toEqual(['execute_task']);
    const sub = await h.call('chat:subAgent', { sessionId, parentToolCallId: keyOf('call_parent') });
    expect(sub.stack).toMatchObject({ agent_id: 'code-explorer', depth: 1, running: false });
    expect(sub.stack!.output_tokens).toBeGreaterThan(0);
    expect(sub.messages.map((m) => m.role)).toEqual(['agent', 'assistant', 'assistant']);
    expect(sub.messages[1]!.tools[0]).toMatchObject({ name: 'list_files', status: 'done' });
  });

  it('refuses an unknown agent, main, a chat agent and an unknown model, each with a clear result', async () => {
    const dir = agentsCopy();
    mkdirSync(join(dir, 'chatty'));
    writeFileSync(
      join(dir, 'chatty/meta.json'),
      JSON.stringify({ name: 'Chatty', description: 'a chat agent', type: 'chat' }),
    );
    writeFileSync(join(dir, 'chatty/AGENT.md'), 'chat');
    h = await startHarness({
      agentsDir: dir,
      turns: [
        {
          match: 'refusals',
          toolCalls: [
            { id: 'c_unknown', ...task('nobody', 'x') },
            { id: 'c_main', ...task('main', 'x') },
            { id: 'c_chat', ...task('chatty', 'x') },
            { id: 'c_model', ...task('reviewer', 'x', { client: 'no-such-model' }) },
          ],
        },
        { match: 'refusals', text: 'ok' },
      ],
    });
    const sessionId = await h.newSession();
    const events = await h.sendAndSettle(sessionId, 'refusals');
    expect(resultOf(events, 'c_unknown')?.error).toMatch(/no agent "nobody".*list_items/s);
    expect(resultOf(events, 'c_main')?.error).toMatch(/main agent cannot be started/);
    expect(resultOf(events, 'c_chat')?.error).toMatch(/"chatty" is a chat agent; only task agents/);
    expect(resultOf(events, 'c_model')?.error).toMatch(/Cannot run reviewer on model "no-such-model"/);
    expect(events.some((e) => e.type === 'agent_start')).toBe(false);
  });

  it('a sub-agent cannot start itself, and nesting stops at depth 5 with a result that says why', async () => {
    const chain = ['code-explorer', 'reviewer', 'researcher', 'software-engineer', 'code-explorer'];
    const turns = chain.flatMap((agent, i) => [
      {
        match: `LEVEL-${i + 1}`,
        toolCalls: [
          {
            id: `sub_${i + 1}`,
            name: 'execute_subtask',
            arguments: { agent_id: chain[i + 1] ?? 'reviewer', prompt: `LEVEL-${i + 2} go`, title: `level ${i + 2}` },
          },
        ],
      },
      { match: `LEVEL-${i + 1}`, text: `level ${i + 1} done` },
    ]);
    h = await startHarness({
      turns: [
        { match: 'nest', toolCalls: [{ id: 'self_call', ...task('reviewer', 'SELF-1 start') }] },
        {
          match: 'SELF-1',
          toolCalls: [
            {
              id: 'self_inner',
              name: 'execute_subtask',
              arguments: { agent_id: 'reviewer', prompt: 'again', title: 'me' },
            },
          ],
        },
        { match: 'SELF-1', text: 'could not start myself' },
        { match: 'nest', toolCalls: [{ id: 'top', ...task('code-explorer', 'LEVEL-1 go') }] },
        ...turns,
        { match: 'nest', text: 'nested' },
      ],
    });
    const sessionId = await h.newSession();
    const events = await h.sendAndSettle(sessionId, 'nest');
    expect(resultOf(events, 'self_inner')?.error).toMatch(/cannot start itself/);
    const depths = events.filter((e) => e.type === 'agent_start').map((e) => (e as { depth: number }).depth);
    expect(Math.max(...depths)).toBe(5);
    // The depth-5 agent was not offered execute_subtask; calling it anyway is refused with the reason.
    expect(toolNames(requestFor('LEVEL-5'))).not.toContain('execute_subtask');
    expect(toolNames(requestFor('LEVEL-4'))).toContain('execute_subtask');
    expect(resultOf(events, 'sub_5')?.error).toMatch(/at most 5 deep/);
    expect(resultOf(events, 'top')?.result).toBe('level 1 done');
  });

  it('runs sync calls of one round in parallel, at most 4 at once, recorded in call order', async () => {
    const n = 6;
    // Later calls answer sooner, so completion order is the reverse of call order.
    const children = Array.from({ length: n }, (_, i) => ({
      match: `PAR-${i}`,
      text: `answer ${i}`,
      delayMs: 150 + (n - i) * 60,
    }));
    h = await startHarness({
      turns: [
        {
          match: 'fan out',
          toolCalls: Array.from({ length: n }, (_, i) => ({
            id: `par_${i}`,
            ...task(i % 2 ? 'reviewer' : 'code-explorer', `PAR-${i} job`),
          })),
        },
        ...children,
        { match: 'fan out', text: 'all back' },
      ],
    });
    const sessionId = await h.newSession();
    const events = await h.sendAndSettle(sessionId, 'fan out');
    let running = 0;
    let peak = 0;
    for (const e of events) {
      if (e.type === 'agent_start') peak = Math.max(peak, ++running);
      if (e.type === 'agent_done') running--;
    }
    expect(peak).toBe(4);
    const keys = Array.from({ length: n }, (_, i) => keyOf(`par_${i}`));
    const done = events
      .filter((e) => e.type === 'tool_done' && keys.includes(e.tool_call_id))
      .map((e) => (e as { tool_call_id: string }).tool_call_id);
    expect(done).toEqual(keys);
    const toolMessages = (
      h.llm.requests.at(-1)!.body.messages as { role: string; tool_call_id?: string; content: string }[]
    ).filter((m) => m.role === 'tool');
    expect(toolMessages.map((m) => m.content)).toEqual(Array.from({ length: n }, (_, i) => `answer ${i}`));
  });

  it('/stop during a grandchild shell command ends every level and leaves no process', async () => {
    h = await startHarness({
      turns: [
        { match: 'deep stop', toolCalls: [{ id: 'lvl1', ...task('reviewer', 'GRAND-1 start') }] },
        {
          match: 'GRAND-1',
          toolCalls: [
            {
              id: 'lvl2',
              name: 'execute_subtask',
              arguments: { agent_id: 'researcher', prompt: 'GRAND-2 run it', title: 'run' },
            },
          ],
        },
        {
          match: 'GRAND-2',
          toolCalls: [{ id: 'shell', name: 'execute_cmd', arguments: { command: 'sleep 41 & sleep 41' } }],
        },
        { match: 'after', text: 'fresh turn' },
      ],
    });
    h.core.approval.rules.createRule({ tool_pattern: 'execute_cmd', action: 'allow', priority: 1 });
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: 'deep stop' });
    await h.waitForEvent('tool_start', (e) => e.name === 'execute_cmd');
    await expect
      .poll(
        () =>
          execSync('ps -eo args')
            .toString()
            .split('\n')
            .filter((l) => l.trim() === 'sleep 41').length,
        { timeout: 15_000 },
      )
      .toBeGreaterThan(0);
    expect((await h.call('chat:stop', { sessionId })).stopped).toBe(true);
    await h.waitForEvent('turn_running', (e) => !e.running);
    await expect
      .poll(
        () =>
          execSync('ps -eo args')
            .toString()
            .split('\n')
            .filter((l) => l.trim() === 'sleep 41').length,
        { timeout: 15_000 },
      )
      .toBe(0);
    for (const id of ['shell', 'lvl2', 'lvl1'])
      expect(h.events.find((e) => e.type === 'tool_cancelled' && e.tool_call_id === keyOf(id))).toBeTruthy();
    expect(h.events.filter((e) => e.type === 'agent_done').map((e) => (e as { status: string }).status)).toEqual([
      'cancelled',
      'cancelled',
    ]);
    const events = await h.sendAndSettle(sessionId, 'after');
    expect(events.find((e) => e.type === 'done')).toMatchObject({ content: 'fresh turn' });
  });

  it("a child's approval waits in the Inbox labelled with its name and depth; answered there, the child goes on", async () => {
    h = await startHarness({
      turns: [
        { match: 'edit via child', toolCalls: [{ id: 'eng', ...task('software-engineer', 'ENG-1 write the file') }] },
        {
          match: 'ENG-1',
          toolCalls: [{ id: 'w', name: 'write_file', arguments: { path: 'child.txt', content: 'from the child\n' } }],
        },
        { match: 'ENG-1', text: 'wrote child.txt' },
        { match: 'edit via child', text: 'done' },
      ],
    });
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: 'edit via child' });
    const pending = await h.waitForEvent('pending_write', (e) => e.tool_call_id === keyOf('w'));
    const inbox = await h.call('inbox:list', {});
    expect(inbox.approvals.find((a) => a.tool_call_id === keyOf('w'))).toMatchObject({
      agent_id: 'software-engineer',
      context_label: 'Sub-agent Software engineer (software-engineer, depth 1)',
    });
    await h.call('inbox:resolveApproval', {
      requestId: pending.request_id,
      action: 'approve',
      note: '',
      argsHash: pending.args_hash,
    });
    await h.waitForEvent('turn_running', (e) => !e.running);
    expect(resultOf(h.events, 'eng')?.result).toBe('wrote child.txt');
  });

  it('the scratchpad is shared: a child sees what the parent wrote, the parent sees what the child wrote', async () => {
    h = await startHarness({
      turns: [
        { match: 'pad', toolCalls: [{ name: 'update_scratchpad', arguments: { key: 'plan', value: 'use sqlite' } }] },
        { match: 'pad', toolCalls: [{ id: 'kid', ...task('code-explorer', 'PAD-1 read the plan') }] },
        {
          match: 'PAD-1',
          toolCalls: [{ name: 'update_scratchpad', arguments: { key: 'found', value: 'db.ts line 3' } }],
        },
        { match: 'PAD-1', text: 'noted' },
        { match: 'pad', text: 'ok' },
      ],
    });
    const sessionId = await h.newSession();
    const events = await h.sendAndSettle(sessionId, 'pad');
    expect(systemOf(requestFor('PAD-1'))).toContain('<scratchpad><note key="plan">use sqlite</note></scratchpad>');
    expect(systemOf(h.llm.requests.at(-1)!)).toContain('<note key="found">db.ts line 3</note>');
    expect(events.filter((e) => e.type === 'scratchpad_changed').length).toBe(2);
    expect((await h.call('chat:scratchpad', { sessionId })).notes).toEqual([
      { key: 'found', value: 'db.ts line 3' },
      { key: 'plan', value: 'use sqlite' },
    ]);
  });

  it("the child's model: the call's, else its meta.json's, else the default (never the parent's)", async () => {
    const dir = agentsCopy();
    const meta = join(dir, 'reviewer/meta.json');
    writeFileSync(meta, JSON.stringify({ ...JSON.parse(readFileSync(meta, 'utf8')), client: 'scripted-3' }));
    h = await startHarness({
      agentsDir: dir,
      models: 3,
      turns: [
        {
          match: 'models',
          toolCalls: [
            task('code-explorer', 'MODEL-call x', { client: 'scripted-2' }),
            task('reviewer', 'MODEL-meta x'),
            task('researcher', 'MODEL-default x'),
          ],
        },
        { match: 'MODEL-call', text: 'a' },
        { match: 'MODEL-meta', text: 'b' },
        { match: 'MODEL-default', text: 'c' },
        { match: 'models', text: 'ok' },
      ],
    });
    const sessionId = await h.newSession();
    await h.call('chat:setModel', { sessionId, model: 'scripted-2' });
    await h.sendAndSettle(sessionId, 'models');
    expect(requestFor('MODEL-call').body.model).toBe('scripted-2');
    expect(requestFor('MODEL-meta').body.model).toBe('scripted-3');
    expect(requestFor('MODEL-default').body.model).toBe('scripted-1');
  });
});
