/**
 * Which tools each agent frame is offered (docs/agents.md "Rules of a child"), read from what the scripted LLM
 * really received: the chat's own agent, a sub-agent, a background run's agent and a sub-agent of a background run,
 * each compared with the whole expected list. Also: a child's own `activate_tools` grant (its stack only), a
 * group repeating a built-in name (offered once), a child under the session's permission group, a child's question
 * labelled in the Inbox, and a round mixing sub-agents with another call (run one after the other).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TN } from '../../../shared/tool-names';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';
import type { RecordedRequest } from '../../../../test/llm-server/index';
import { defineTool } from '../tools/define-tool';

let h: Harness;
afterEach(async () => {
  await h?.close();
  cleanupTempDirs();
});

const toolNames = (r: RecordedRequest) =>
  ((r.body.tools as { function: { name: string } }[] | undefined) ?? []).map((t) => t.function.name);
const requestFor = (token: string) => {
  const found = h.llm.requests.find((r) => JSON.stringify(r.body.messages).includes(token));
  if (!found) throw new Error(`no request carried ${token}`);
  return found;
};
const keyOf = (providerId: string) =>
  (
    h.core.db.prepare('SELECT tool_call_id FROM chat_llm_tools WHERE provider_call_id = ?').get(providerId) as
      | { tool_call_id: string }
      | undefined
  )?.tool_call_id ?? `(no call ${providerId})`;
const rowOf = (providerId: string) =>
  h.core.db.prepare('SELECT status, result FROM chat_llm_tools WHERE provider_call_id = ?').get(providerId) as
    | { status: string; result: string }
    | undefined;
const sync = (agent_id: string, prompt: string) => ({
  name: TN.EXECUTE_TASK,
  arguments: { mode: 'sync', agent_id, prompt, title: prompt.slice(0, 20) },
});
const sorted = (names: Iterable<string>) => [...names].sort();

/** A registry tool that only the root (or only sub-agents) may be offered. */
function probe(name: string, flag: { rootAgentOnly?: boolean; subAgentsOnly?: boolean }) {
  return defineTool({
    name,
    description: `probe ${name}`,
    input: z.object({}),
    category: 'introspection',
    kind: 'read',
    ...flag,
    execute: () => 'ok',
  });
}

/** The always-on built-ins: the registry's tools but the lazy config group (image_generate stays on). */
function builtins(): string[] {
  return h.core.tools
    .openaiDefinitions()
    .map((d) => d.function.name)
    .filter((n) => h.core.tools.categoryOf(n) !== 'config' || n === TN.IMAGE_GENERATE);
}

const COMMON = [TN.WRITE_TODOS, TN.UPDATE_SCRATCHPAD, TN.ACTIVATE_TOOLS, TN.ASK_USER_CLARIFICATION];

describe('the tool list of each frame', () => {
  it('chat root, sub-agent, background root and its sub-agent: exactly the issue’s lists, no name twice', async () => {
    h = await startHarness({
      turns: [
        { match: 'list them', toolCalls: [sync('software-engineer', 'LIST-CHILD look')] },
        { match: 'LIST-CHILD', text: 'child done' },
        { match: 'list them', text: 'done' },
        {
          match: 'LIST-BG',
          toolCalls: [
            {
              name: TN.EXECUTE_SUBTASK,
              arguments: { agent_id: 'reviewer', prompt: 'LIST-BGCHILD look', title: 'look' },
            },
          ],
        },
        { match: 'LIST-BGCHILD', text: 'bg child done' },
        { match: 'LIST-BG', text: 'bg done' },
      ],
    });
    h.core.tools.register(probe('probe_root_only', { rootAgentOnly: true }));
    h.core.tools.register(probe('probe_sub_only', { subAgentsOnly: true }));
    const home = await h.newSession();
    await h.sendAndSettle(home, 'list them');
    h.llm.setDefaultTurn({ text: 'noted' }); // the home chat, resumed by the job's notification
    const job = h.core.scheduler.jobs.create({
      kind: 'cron',
      title: 'lists',
      agentId: 'software-engineer',
      prompt: 'LIST-BG go',
      cron: '0 0 3 * * *',
      singleRun: false,
      enabled: false,
      nextRunAt: null,
      parentSessionId: home,
      runContext: null,
    });
    const { run } = h.core.scheduler.schedules.runNow(job) as { run: { id: number } };
    expect(await h.core.scheduler.scheduler.settled(run.id)).toMatchObject({ status: 'success' });

    const base = builtins().filter((n) => n !== 'probe_root_only');
    expect(base).toEqual(
      expect.arrayContaining(['read_file', 'write_file', 'execute_cmd', 'list_items', TN.IMAGE_GENERATE]),
    );
    expect(base).not.toContain('list_secrets'); // lazy: only after activate_tools(["config"])

    const chatRoot = toolNames(h.llm.requests[0]!);
    const child = toolNames(requestFor('LIST-CHILD'));
    const bgRoot = toolNames(requestFor('LIST-BG go'));
    const bgChild = toolNames(requestFor('LIST-BGCHILD'));
    for (const list of [chatRoot, child, bgRoot, bgChild]) expect(new Set(list).size).toBe(list.length);

    expect(sorted(chatRoot)).toEqual(
      sorted([
        ...base,
        'probe_root_only',
        TN.SHOW_FILE_TO_USER,
        TN.EXECUTE_TASK,
        TN.READ_AGENT_RESULT,
        TN.READ_NOTIFICATION,
        ...COMMON,
      ]),
    );
    // A sub-agent: the parent's minus root-only, plus sub-agents-only and execute_subtask; never execute_task.
    expect(sorted(child)).toEqual(sorted([...base, 'probe_sub_only', TN.EXECUTE_SUBTASK, ...COMMON]));
    // A background run's own agent: execute_subtask instead of execute_task, and notify; no chat-only tools.
    expect(sorted(bgRoot)).toEqual(sorted([...base, 'probe_root_only', TN.EXECUTE_SUBTASK, TN.NOTIFY, ...COMMON]));
    // Its sub-agent (the reviewer narrows the built-ins to its meta.json list): no notify.
    expect(sorted(bgChild)).toEqual(
      sorted([
        'list_files',
        'read_file',
        'search_file',
        'grep_files',
        'get_ast_outline',
        'execute_cmd',
        TN.EXECUTE_SUBTASK,
        ...COMMON,
      ]),
    );
  });

  it("a child's activate_tools grants its own stack only, from its next round, and the grant ends with it", async () => {
    h = await startHarness({
      turns: [
        { match: 'grant test', toolCalls: [sync('software-engineer', 'GRANT-1 configure')] },
        {
          match: 'GRANT-1',
          toolCalls: [{ id: 'child_act', name: TN.ACTIVATE_TOOLS, arguments: { groups: ['config'] } }],
        },
        { match: 'GRANT-1', text: 'configured' },
        { match: 'grant test', text: 'done' },
      ],
    });
    const sessionId = await h.newSession();
    await h.sendAndSettle(sessionId, 'grant test');
    expect(rowOf('child_act')!.result).toMatch(/for the rest of this sub-agent task/);
    const childRequests = h.llm.requests.filter(
      (r) => JSON.stringify(r.body.messages).includes('GRANT-1 configure') && toolNames(r).includes(TN.EXECUTE_SUBTASK),
    );
    expect(childRequests).toHaveLength(2);
    expect(toolNames(childRequests[0]!)).not.toContain('list_secrets');
    expect(toolNames(childRequests[1]!)).toContain('list_secrets');
    // The parent's next round (after the child) was not given the child's group.
    expect(toolNames(h.llm.requests.at(-1)!)).not.toContain('list_secrets');
    expect(
      h.core.db
        .prepare(
          'SELECT (SELECT count(*) FROM stack_mcp_grants) AS stack, (SELECT count(*) FROM session_mcp_grants) AS session',
        )
        .get(),
    ).toEqual({ stack: 0, session: 0 });
  });

  it('a group whose tools repeat a built-in name: each name is offered once', async () => {
    h = await startHarness({
      turns: [
        { match: 'dup', toolCalls: [{ name: TN.ACTIVATE_TOOLS, arguments: { groups: ['dup'] } }] },
        { match: 'dup', text: 'ok' },
      ],
    });
    const spec = (name: string) => ({
      name,
      description: `group ${name}`,
      parameters: { type: 'object', properties: {} },
    });
    h.core.toolGroups.register({
      list: () => [{ name: 'dup', summary: 'test group' }],
      has: (n) => n === 'dup',
      specs: () => [spec('read_file'), spec('dup_extra'), spec('dup_extra')],
    });
    await h.sendAndSettle(await h.newSession(), 'dup');
    const names = toolNames(h.llm.requests[1]!);
    expect(names.filter((n) => n === 'read_file')).toHaveLength(1);
    expect(names.filter((n) => n === 'dup_extra')).toHaveLength(1);
    expect(new Set(names).size).toBe(names.length);
    // The built-in kept its own definition (the first occurrence wins).
    const readFile = (h.llm.requests[1]!.body.tools as { function: { name: string; description: string } }[]).find(
      (t) => t.function.name === 'read_file',
    )!;
    expect(readFile.function.description).not.toBe('group read_file');
  });
});

describe('a child under the session', () => {
  it("follows the session's permission group: a denied tool is not offered to it, an allowed command runs without asking", async () => {
    h = await startHarness({
      turns: [
        { match: 'group test', toolCalls: [sync('software-engineer', 'GROUP-1 run it')] },
        {
          match: 'GROUP-1',
          toolCalls: [
            { id: 'echo', name: 'execute_cmd', arguments: { command: 'echo child-ran' } },
            { id: 'w', name: 'write_file', arguments: { path: 'x.txt', content: 'x' } },
          ],
        },
        { match: 'GROUP-1', text: 'ran' },
        { match: 'group test', text: 'done' },
      ],
    });
    await h.call('approval:createGroup', { id: 'locked', name: 'Locked' });
    await h.call('approval:createRule', {
      group_id: 'locked',
      tool_pattern: 'write_file',
      action: 'deny',
      priority: 1,
    });
    await h.call('approval:createRule', {
      group_id: 'locked',
      tool_pattern: 'execute_cmd',
      command_pattern: 'echo *',
      action: 'allow',
      priority: 1,
    });
    const sessionId = await h.newSession();
    await h.call('approval:setSessionGroup', { sessionId, groupId: 'locked' });
    await h.sendAndSettle(sessionId, 'group test');
    const child = toolNames(requestFor('GROUP-1'));
    expect(child).toContain('execute_cmd');
    expect(child).not.toContain('write_file');
    expect(rowOf('echo')).toMatchObject({ status: 'done', result: expect.stringContaining('child-ran') });
    // Called anyway, the hidden tool is refused (it was not offered), and nothing waits in the Inbox.
    expect(rowOf('w')).toMatchObject({ status: 'failed', result: expect.stringMatching(/not available to you here/) });
    expect((await h.call('inbox:list', {})).approvals).toEqual([]);
  });

  it("a child's question waits in the Inbox labelled with its name and depth; the answer reaches the child", async () => {
    h = await startHarness({
      turns: [
        { match: 'ask via child', toolCalls: [{ id: 'rev', ...sync('reviewer', 'ASK-1 review') }] },
        {
          match: 'ASK-1',
          toolCalls: [
            {
              id: 'q',
              name: TN.ASK_USER_CLARIFICATION,
              arguments: { title: 'Scope', question: 'Which folder?', suggested_answers: ['src', 'test'] },
            },
          ],
        },
        { match: 'ASK-1', text: 'reviewed src' },
        { match: 'ask via child', text: 'done' },
      ],
    });
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: 'ask via child' });
    await h.waitForEvent('agent_question', (e) => e.tool_call_id === keyOf('q'));
    // The call is the child's (its card shows the question, routed there by the call's id).
    const start = h.events.find((e) => e.type === 'agent_start')!;
    expect(h.events.find((e) => e.type === 'tool_start' && e.tool_call_id === keyOf('q'))?.stack_id).toBe(
      (start as { stack_id: number }).stack_id,
    );
    const [question] = (await h.call('inbox:list', {})).clarifications;
    expect(question).toMatchObject({
      tool_call_id: keyOf('q'),
      context_label: 'Sub-agent Reviewer (reviewer, depth 1)',
    });
    await h.call('inbox:answerClarification', { requestId: question!.request_id, answer: 'src' });
    await h.waitForEvent('turn_running', (e) => e.session_id === sessionId && !e.running);
    expect(rowOf('q')).toMatchObject({ status: 'done', result: expect.stringContaining('src') });
    // The child's next request carried the answer.
    const childSecond = h.llm.requests.filter(
      (r) => JSON.stringify(r.body.messages).includes('ASK-1') && toolNames(r).includes(TN.EXECUTE_SUBTASK),
    )[1]!;
    const toolMessage = (childSecond.body.messages as { role: string; content: string }[]).find(
      (m) => m.role === 'tool',
    )!;
    expect(toolMessage.content).toContain('src');
    expect(rowOf('rev')).toMatchObject({ status: 'done', result: 'reviewed src' });
  });

  it('a round mixing sync sub-agents with another call runs its calls one after the other, in order', async () => {
    h = await startHarness({
      turns: [
        {
          match: 'mixed',
          toolCalls: [
            { id: 'm1', ...sync('code-explorer', 'MIX-1 a') },
            { id: 'm2', ...sync('reviewer', 'MIX-2 b') },
            { id: 'm3', name: 'list_files', arguments: { path: '.' } },
          ],
        },
        { match: 'MIX-1', text: 'a done', delayMs: 150 },
        { match: 'MIX-2', text: 'b done', delayMs: 50 },
        { match: 'mixed', text: 'done' },
      ],
    });
    const events = await h.sendAndSettle(await h.newSession(), 'mixed');
    const sequence = events.filter((e) => e.type === 'agent_start' || e.type === 'agent_done').map((e) => e.type);
    expect(sequence).toEqual(['agent_start', 'agent_done', 'agent_start', 'agent_done']);
    const done = events.filter((e) => e.type === 'tool_done').map((e) => (e as { tool_call_id: string }).tool_call_id);
    expect(done.filter((id) => ['m1', 'm2', 'm3'].map(keyOf).includes(id))).toEqual(['m1', 'm2', 'm3'].map(keyOf));
  });
});
