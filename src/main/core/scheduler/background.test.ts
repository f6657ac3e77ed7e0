/**
 * Async tasks, notifications and the cron tools against the real core and the scripted LLM over HTTP: an async
 * task returns its handle at once and completes into its parent; `notify` batches into the home chat; the cron
 * kind of `toggle_item`, `delete_cron_job` and `list_items(type=cron)` act on real rows, and bad input is a result
 * the model reads.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';

let h: Harness;
afterEach(async () => {
  await h?.close();
  cleanupTempDirs();
});

const rowsOf = (name: string) =>
  h.core.db.prepare('SELECT session_id, status, result FROM chat_llm_tools WHERE name = ? ORDER BY id').all(name) as {
    session_id: number;
    status: string;
    result: string;
  }[];
const allow = (tool: string) =>
  h.call('approval:createRule', { tool_pattern: tool, action: 'allow', priority: 1, note: 'test' });

describe('execute_task mode async', () => {
  it('returns a task id at once, runs in the background sharing the scratchpad, and its result resumes the parent as task_completed', async () => {
    h = await startHarness({
      turns: [
        {
          match: 'in the background',
          toolCalls: [
            {
              id: 'async_1',
              name: 'execute_task',
              arguments: {
                mode: 'async',
                agent_id: 'researcher',
                prompt: 'ASYNC-I count the files',
                title: 'count files',
              },
            },
          ],
        },
        { match: 'in the background', text: 'Started; I will tell you.' },
        {
          match: 'ASYNC-I',
          delayMs: 300,
          toolCalls: [{ name: 'update_scratchpad', arguments: { key: 'count', value: '3 files' } }],
        },
        { match: 'ASYNC-I', text: 'There are 3 files.' },
        { match: 'in the background', text: 'The task says there are 3 files.' },
      ],
    });
    const parent = await h.newSession();
    const events = await h.sendAndSettle(parent, 'count them in the background');
    // The parent's turn ended before the task did: the call's result is the handle.
    const handle = JSON.parse(rowsOf('execute_task')[0]!.result) as { task_id: number; status: string };
    expect(handle).toMatchObject({ status: 'started' });
    expect(events.filter((e) => e.type === 'done').at(-1)).toMatchObject({ content: 'Started; I will tell you.' });

    await h.waitForEvent('done', (e) => e.session_id === parent && e.content === 'The task says there are 3 files.');
    const [delivered] = rowsOf('read_agent_result');
    expect(delivered!.session_id).toBe(parent);
    expect(JSON.parse(delivered!.result)).toMatchObject({
      type: 'task_completed',
      task_id: handle.task_id,
      title: 'count files',
      status: 'success',
      result: 'There are 3 files.',
    });
    // The task wrote the parent's scratchpad; the resumed parent request carried the delivered result.
    expect(h.core.sessions.scratchpad(parent)).toEqual([expect.objectContaining({ key: 'count', value: '3 files' })]);
    expect(JSON.stringify(h.llm.requests.at(-1)!.body.messages)).toContain('task_completed');
    // The task is a background job of kind async, ended, disabled; it is not listed as a cron job.
    expect(h.core.scheduler.schedules.list('async')[0]).toMatchObject({
      id: handle.task_id,
      enabled: false,
      last_run: { status: 'success', trigger: 'async' },
    });
    expect(h.core.scheduler.schedules.list('cron')).toEqual([]);
    // Its session is a background one, titled so its Inbox items say whose they are; not among the chats.
    const taskRun = h.core.scheduler.schedules.list('async')[0]!.last_run!;
    expect(
      h.core.db
        .prepare('SELECT title, source, is_interactive, parent_session_id FROM chat_sessions WHERE id = ?')
        .get(taskRun.session_id),
    ).toEqual({ title: 'Task: count files', source: 'task', is_interactive: 0, parent_session_id: parent });
    expect((await h.call('chat:listSessions', {})).sessions.map((s) => s.id)).toEqual([parent]);
  });

  it('read_agent_result while the task still runs answers not_ready; the result comes by itself once the task ends', async () => {
    h = await startHarness({
      turns: [
        {
          match: 'poll it',
          toolCalls: [
            {
              id: 'start',
              name: 'execute_task',
              arguments: {
                mode: 'async',
                agent_id: 'software-engineer',
                prompt: 'POLL-P write the file',
                title: 'write file',
              },
            },
          ],
        },
        { match: 'poll it', toolCalls: [{ id: 'poll', name: 'read_agent_result', arguments: { task_id: 1 } }] },
        { match: 'poll it', text: 'Not ready yet; it will come.' },
        {
          match: 'POLL-P',
          toolCalls: [{ name: 'write_file', arguments: { path: 'task.txt', content: 'from the task' } }],
        },
        { match: 'POLL-P', text: 'file written' },
        { match: 'poll it', text: 'The task wrote the file.' },
      ],
    });
    const parent = await h.newSession();
    await h.sendAndSettle(parent, 'poll it');
    // The task waits for its write's approval, so it cannot have ended when the parent asked.
    expect(JSON.parse(rowsOf('read_agent_result')[0]!.result)).toMatchObject({ status: 'not_ready' });
    const pending = await h.waitForEvent('pending_write');
    expect((await h.call('inbox:list', {})).approvals[0]).toMatchObject({ context_label: 'Task: write file' });
    await h.call('inbox:resolveApproval', {
      requestId: pending.request_id,
      action: 'approve',
      note: '',
      argsHash: pending.args_hash,
    });
    await h.waitForEvent('done', (e) => e.session_id === parent && e.content === 'The task wrote the file.');
    const delivered = rowsOf('read_agent_result').filter((r) => r.session_id === parent);
    expect(delivered).toHaveLength(2);
    expect(JSON.parse(delivered[1]!.result)).toMatchObject({
      type: 'task_completed',
      status: 'success',
      result: 'file written',
    });
  });

  it('is stoppable: the parent’s /stop leaves it running; Stop ends it, and the parent is told it was stopped', async () => {
    h = await startHarness({
      turns: [
        {
          match: 'long one',
          toolCalls: [
            {
              name: 'execute_task',
              arguments: { mode: 'async', agent_id: 'researcher', prompt: 'LONG-L keep looking', title: 'long look' },
            },
          ],
        },
        { match: 'long one', text: 'Started.' },
        { match: 'LONG-L', hangUntilAborted: true, text: 'still looking' },
        { match: 'long one', text: 'It was stopped.' },
      ],
    });
    const parent = await h.newSession();
    await h.sendAndSettle(parent, 'start the long one');
    await expect.poll(() => h.llm.requests.some((r) => JSON.stringify(r.body.messages).includes('LONG-L'))).toBe(true);
    const [task] = h.core.scheduler.schedules.list('async');
    await h.sendAndSettle(parent, '/stop');
    expect(h.core.scheduler.jobs.runningRunOf(task!.id)).toBeDefined();
    expect(h.core.scheduler.schedules.stopRun(task!.last_run!.id)).toEqual({ stopped: true });
    await h.core.scheduler.scheduler.settled(task!.last_run!.id);
    expect(h.core.scheduler.jobs.getRun(task!.last_run!.id)).toMatchObject({ status: 'cancelled' });
    await h.waitForEvent('done', (e) => e.session_id === parent && e.content === 'It was stopped.');
    expect(JSON.parse(rowsOf('read_agent_result')[0]!.result)).toMatchObject({
      type: 'task_completed',
      status: 'cancelled',
      title: 'long look',
    });
  });

  it('refuses what sync refuses, with a result the model reads, and starts nothing', async () => {
    h = await startHarness({
      turns: [
        {
          match: 'bad async',
          toolCalls: [
            { name: 'execute_task', arguments: { mode: 'async', agent_id: 'main', prompt: 'x', title: 'x' } },
            { name: 'execute_task', arguments: { mode: 'async', agent_id: 'ghost', prompt: 'x', title: 'x' } },
            {
              name: 'execute_task',
              arguments: { mode: 'async', agent_id: 'researcher', prompt: 'x', title: 'x', cron: '* * * * * *' },
            },
          ],
        },
        { match: 'bad async', text: 'ok' },
      ],
    });
    const events = await h.sendAndSettle(await h.newSession(), 'bad async');
    const errors = events.filter((e) => e.type === 'tool_error').map((e) => (e as { error: string }).error);
    expect(errors[0]).toMatch(/main agent cannot be started/);
    expect(errors[1]).toMatch(/ghost/);
    expect(errors[2]).toMatch(/only for mode "cron"/);
    expect(h.core.db.prepare('SELECT count(*) AS n FROM scheduled_jobs').get()).toEqual({ n: 0 });
  });
});

describe('notify', () => {
  it('batches a background run’s notifications into one read_notification result in the home chat, which resumes it', async () => {
    h = await startHarness({
      turns: [
        {
          match: 'NOTE-J',
          toolCalls: [1, 2, 3].map((n) => ({
            name: 'notify',
            arguments: { source: 'watcher', event_type: 'found', summary: `item ${n}` },
          })),
        },
        { match: 'NOTE-J', text: 'reported' },
        { match: 'home chat', text: 'Three items were found.' },
      ],
    });
    const home = await h.newSession();
    await h.call('chat:send', { sessionId: home, content: 'this is the home chat' }).catch(() => undefined);
    await h.waitForEvent('turn_running', (e) => e.session_id === home && !e.running);
    h.llm.script([{ match: 'home chat', text: 'Three items were found.' }]);
    const id = h.core.scheduler.jobs.create({
      kind: 'cron',
      title: 'watch',
      agentId: 'researcher',
      prompt: 'NOTE-J watch',
      cron: '0 0 3 * * *',
      singleRun: false,
      enabled: false,
      nextRunAt: null,
      parentSessionId: home,
      runContext: null,
    });
    h.llm.setDefaultTurn({ text: 'noted' });
    const { run } = h.core.scheduler.schedules.runNow(id) as { run: { id: number; session_id: number } };
    await h.core.scheduler.scheduler.settled(run.id);
    // notify is offered to the run's own agent; a chat's agent is not offered it.
    const runRequest = h.llm.requests.find((r) => JSON.stringify(r.body.messages).includes('NOTE-J'))!;
    expect((runRequest.body.tools as { function: { name: string } }[]).map((t) => t.function.name)).toContain('notify');
    expect(
      (h.llm.requests[0]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name),
    ).not.toContain('notify');

    await expect.poll(() => rowsOf('read_notification').length, { timeout: 5_000 }).toBeGreaterThanOrEqual(1);
    const [batch] = rowsOf('read_notification');
    expect(batch!.session_id).toBe(home);
    const items = JSON.parse(batch!.result) as { source: string; summary: string; event_time: string }[];
    expect(items.map((i) => i.summary).slice(0, 3)).toEqual(['item 1', 'item 2', 'item 3']);
    expect(Number.isNaN(Date.parse(items[0]!.event_time))).toBe(false);
    await h.waitForEvent('done', (e) => e.session_id === home && e.content === 'Three items were found.');
  });

  it('read_notification called by the model returns [] and delivers nothing', async () => {
    h = await startHarness({
      turns: [
        { match: 'read it', toolCalls: [{ name: 'read_notification', arguments: {} }] },
        { match: 'read it', text: 'nothing' },
      ],
    });
    await h.sendAndSettle(await h.newSession(), 'read it');
    expect(rowsOf('read_notification')).toEqual([expect.objectContaining({ status: 'done', result: '[]' })]);
  });
});

describe('the cron tools', () => {
  it('list_items(cron), toggle_item(kind=cron) and delete_cron_job act on real jobs; unknown jobs are results the model reads', async () => {
    h = await startHarness();
    const home = await h.newSession();
    await allow('toggle_item');
    await allow('delete_cron_job');
    const id = h.core.scheduler.jobs.create({
      kind: 'cron',
      title: 'digest',
      agentId: 'researcher',
      prompt: 'p',
      cron: '0 30 8 * * *',
      singleRun: false,
      enabled: false,
      nextRunAt: null,
      parentSessionId: home,
      runContext: { security_group: 'default' },
    });
    h.llm.script([
      {
        match: 'manage',
        toolCalls: [
          { name: 'activate_tools', arguments: { groups: ['config'] } },
          { name: 'list_items', arguments: { type: 'cron' } },
        ],
      },
      {
        match: 'manage',
        toolCalls: [
          { name: 'toggle_item', arguments: { kind: 'cron', name: 'digest', enabled: true } },
          { name: 'toggle_item', arguments: { kind: 'cron', name: 'nope', enabled: true } },
          { name: 'toggle_item', arguments: { kind: 'cron', name: '999', enabled: false } },
        ],
      },
      {
        match: 'manage',
        toolCalls: [
          { name: 'delete_cron_job', arguments: { job: 999 } },
          { name: 'delete_cron_job', arguments: { job: id } },
        ],
      },
      { match: 'manage', text: 'done' },
    ]);
    const events = await h.sendAndSettle(home, 'manage my jobs');
    const listed = JSON.parse(rowsOf('list_items')[0]!.result) as {
      items: { id: number; title: string; enabled: boolean; next_run: string | null }[];
    };
    expect(listed.items).toEqual([
      expect.objectContaining({ id, title: 'digest', enabled: false, next_run: null, cron: '0 30 8 * * *' }),
    ]);
    const toggles = rowsOf('toggle_item');
    expect(toggles[0], toggles[0]!.result).toMatchObject({ status: 'done' });
    expect(toggles[0]!.result).toMatch(/Enabled scheduled job .*next run/);
    expect(toggles[1]).toMatchObject({ status: 'failed' });
    expect(toggles[1]!.result).toMatch(/no scheduled job titled "nope"/);
    expect(toggles[2]).toMatchObject({
      status: 'failed',
      result: expect.stringMatching(/no scheduled job with id 999/),
    });
    const deletes = rowsOf('delete_cron_job');
    expect(deletes[0]).toMatchObject({ status: 'failed' });
    expect(deletes[0]!.result).toMatch(/no scheduled job with id 999/);
    expect(deletes[1]!.result).toMatch(/Deleted scheduled job/);
    expect(h.core.db.prepare('SELECT count(*) AS n FROM scheduled_jobs').get()).toEqual({ n: 0 });
    expect(events.some((e) => e.type === 'error')).toBe(false);
  });
});
