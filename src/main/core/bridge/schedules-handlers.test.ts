/**
 * The `schedules:*` calls through the parsed bridge boundary of a real core: list, envelope (the rules that apply
 * to the job's runs, the run context's folders), enable, run now (and `busy` while it runs), stop, delete, and
 * `not_found` for an unknown job; each change emits a `schedules` event.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';

let h: Harness;
afterEach(async () => {
  await h?.close();
  cleanupTempDirs();
});

describe('schedules calls', () => {
  it('list, envelope, enable, run now, busy, stop, delete, not_found', async () => {
    h = await startHarness({ turns: [{ match: 'CALLS-K', hangUntilAborted: true, text: 'working' }] });
    const home = await h.newSession();
    let changes = 0;
    h.core.events.subscribe('schedules', () => void changes++);
    await h.call('approval:createGroup', { id: 'nightly', name: 'Nightly' });
    await h.call('approval:createRule', {
      group_id: 'nightly',
      tool_pattern: 'execute_cmd',
      command_pattern: 'git status',
      action: 'allow',
      priority: 5,
    });
    await h.call('approval:createRule', {
      group_id: 'nightly',
      tool_pattern: 'write_file',
      source: 'web',
      action: 'allow',
      priority: 5,
    });
    const id = h.core.scheduler.jobs.create({
      kind: 'cron',
      title: 'calls',
      agentId: 'researcher',
      prompt: 'CALLS-K go',
      cron: '0 0 3 * * *',
      singleRun: false,
      enabled: false,
      nextRunAt: null,
      parentSessionId: home,
      runContext: { security_group: 'nightly', allow_fs_reads: ['/srv/logs'] },
    });

    const listed = await h.call('schedules:list', {});
    expect(listed.jobs).toEqual([
      expect.objectContaining({ id, title: 'calls', enabled: false, permission_group: 'nightly', last_run: null }),
    ]);
    expect(listed.tasks).toEqual([]);

    const envelope = await h.call('schedules:envelope', { jobId: id });
    expect(envelope).toMatchObject({
      permission_group: 'nightly',
      group_name: 'Nightly',
      agent_name: 'Researcher',
      working_directory: h.workspace,
    });
    expect(envelope.agent_tools).toContain('execute_cmd');
    expect(envelope.allowed).toContainEqual(
      expect.objectContaining({ tool_pattern: 'execute_cmd', command_pattern: 'git status' }),
    );
    // A rule for another source does not apply to a scheduled run; the default group's rules do.
    expect(envelope.allowed.map((r) => r.tool_pattern)).not.toContain('write_file');
    // Only session tools a run's agent is offered: notify and execute_subtask, never the chat's own.
    const allowedTools = envelope.allowed.map((r) => r.tool_pattern);
    expect(allowedTools).toEqual(expect.arrayContaining(['notify', 'execute_subtask', 'write_todos']));
    for (const chatOnly of ['execute_task', 'show_file_to_user', 'read_notification', 'read_agent_result'])
      expect(allowedTools).not.toContain(chatOnly);
    expect(envelope.denied).toContainEqual(
      expect.objectContaining({ tool_pattern: '@fs_any', path_pattern: 'secrets/*' }),
    );
    expect(envelope.reads_in).toEqual(expect.arrayContaining([h.workspace, '/srv/logs']));

    const on = await h.call('schedules:setEnabled', { jobId: id, enabled: true });
    expect(on.job.enabled).toBe(true);
    expect(on.job.next_run_at).toBeGreaterThan(Date.now());
    const { run } = await h.call('schedules:runNow', { jobId: id });
    expect(run).toMatchObject({ status: 'running', trigger: 'manual', error: null });
    await expect(h.call('schedules:runNow', { jobId: id })).rejects.toThrow(/\[busy\].*already running/);
    await expect.poll(() => h.llm.requests.length).toBe(1);
    expect((await h.call('schedules:stopRun', { runId: run.id })).stopped).toBe(true);
    await h.core.scheduler.scheduler.settled(run.id);
    expect((await h.call('schedules:runs', { jobId: id })).runs[0]).toMatchObject({ id: run.id, status: 'cancelled' });

    await expect(h.call('schedules:envelope', { jobId: 999 })).rejects.toThrow(/\[not_found\]/);
    await expect(h.call('schedules:delete', { jobId: 999 })).rejects.toThrow(/\[not_found\]/);
    expect(await h.call('schedules:delete', { jobId: id })).toEqual({ ok: true });
    expect((await h.call('schedules:list', {})).jobs).toEqual([]);
    // The run's session went with the job.
    expect(h.core.db.prepare('SELECT count(*) AS n FROM chat_sessions WHERE is_interactive = 0').get()).toEqual({
      n: 0,
    });
    expect(changes).toBeGreaterThanOrEqual(4);
  });
});
