/**
 * The scheduler against the real core: real SQLite in a temp folder, the real gate and Inbox, real timers, and the
 * scripted LLM over HTTP. A run's scripted turns are picked by a token in the job's prompt (the run session's
 * first message); the home chat's by a token in the person's message.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';
import type { JobRow } from './job-store';

let h: Harness;
afterEach(async () => {
  await h?.close();
  cleanupTempDirs();
});

const cronTask = (prompt: string, cron: string, extra: Record<string, unknown> = {}) => ({
  name: 'execute_task',
  arguments: { mode: 'cron', agent_id: 'researcher', prompt, title: `job ${prompt.slice(0, 12)}`, cron, ...extra },
});
const toolResult = (name: string) =>
  h.core.db.prepare('SELECT status, result FROM chat_llm_tools WHERE name = ? ORDER BY id DESC LIMIT 1').get(name) as
    | { status: string; result: string }
    | undefined;
const jobsOf = () => h.core.db.prepare('SELECT * FROM scheduled_jobs ORDER BY id').all() as JobRow[];
const runsOf = (jobId: number) =>
  h.core.db.prepare('SELECT * FROM job_runs WHERE job_id = ? ORDER BY id').all(jobId) as {
    id: number;
    status: string;
    trigger: string;
    session_id: number | null;
    error: string | null;
    final_response: string | null;
  }[];

/** Makes a job through the model's own call, as a person's chat would. */
async function createJobViaChat(sessionId: number, prompt: string, cron: string): Promise<JobRow> {
  h.llm.script([
    { match: `schedule ${prompt.toLowerCase()}`, toolCalls: [cronTask(prompt, cron)] },
    { match: `schedule ${prompt.toLowerCase()}`, text: 'Saved; enable it on the Schedules page.' },
  ]);
  // Lower case: the run's scripted turns match the prompt's upper-case token, never this chat message.
  await h.sendAndSettle(sessionId, `schedule ${prompt.toLowerCase()}`);
  return jobsOf().at(-1)!;
}

describe('execute_task mode cron', () => {
  it('saves the job disabled with its pattern, agent and the chat’s run context; bad input is a result the model reads', async () => {
    h = await startHarness({
      turns: [
        {
          match: 'bad ones',
          toolCalls: [
            cronTask('P1', 'every day at nine'),
            cronTask('P2', '61 * * * * *'),
            cronTask('P3', '0 0 9 * * *', { agent_id: 'nobody' }),
            cronTask('P4', '0 0 9 * * *', { agent_id: 'main' }),
            cronTask('P5', '2001-01-01T09:00:00'),
          ],
        },
        { match: 'bad ones', text: 'none were saved' },
      ],
    });
    const sessionId = await h.newSession();
    const events = await h.sendAndSettle(sessionId, 'bad ones');
    const errors = events.filter((e) => e.type === 'tool_error').map((e) => (e as { error: string }).error);
    expect(errors).toHaveLength(5);
    expect(errors[0]).toMatch(/is not a cron pattern.*6 fields with seconds/);
    expect(errors[1]).toMatch(/second/);
    expect(errors[2]).toMatch(/nobody/);
    expect(errors[3]).toMatch(/main agent cannot be started/);
    expect(errors[4]).toMatch(/in the past/);
    expect(jobsOf()).toHaveLength(0);

    const job = await createJobViaChat(sessionId, 'GOOD-1', '0 0 9 * * 1-5');
    expect(job).toMatchObject({
      kind: 'cron',
      agent_id: 'researcher',
      cron: '0 0 9 * * 1-5',
      enabled: 0,
      next_run_at: null,
      single_run: 0,
      parent_session_id: sessionId,
    });
    const result = JSON.parse(toolResult('execute_task')!.result) as { job_id: number; enabled: boolean; note: string };
    expect(result).toMatchObject({ job_id: job.id, enabled: false });
    expect(result.note).toMatch(/Saved disabled/);
    // Disabled: it never comes due.
    h.core.scheduler.scheduler.tick();
    expect(runsOf(job.id)).toHaveLength(0);
  });
});

describe('running scheduled jobs', () => {
  it('an enabled job fires at its time (real timer, a seconds pattern) in a fresh background session, and its result reaches the home chat', async () => {
    h = await startHarness();
    const home = await h.newSession();
    const job = await createJobViaChat(home, 'TICK-A', '*/1 * * * * *');
    h.llm.script([
      { match: 'TICK-A', text: 'tick report: all quiet' },
      { match: 'schedule tick-a', text: 'The job says all is quiet.' }, // the home chat, resumed by the notification
    ]);
    const enabled = h.core.scheduler.schedules.setEnabled(job.id, true);
    expect(enabled).toMatchObject({ enabled: true });
    expect((enabled as { next_run_at: number }).next_run_at).toBeGreaterThan(Date.now() - 1);
    await expect.poll(() => runsOf(job.id).some((r) => r.status === 'success'), { timeout: 10_000 }).toBe(true);
    h.core.scheduler.schedules.setEnabled(job.id, false);
    const run = runsOf(job.id).find((r) => r.status === 'success')!;
    expect(run).toMatchObject({ trigger: 'schedule', final_response: 'tick report: all quiet' });
    const session = h.core.db
      .prepare('SELECT source, agent_id, is_interactive, is_ephemeral, title FROM chat_sessions WHERE id = ?')
      .get(run.session_id);
    expect(session).toEqual({
      source: 'cron',
      agent_id: 'researcher',
      is_interactive: 0,
      is_ephemeral: 1,
      title: job.title,
    });
    // The run's session is not among the chats.
    expect((await h.call('chat:listSessions', {})).sessions.map((s) => s.id)).toEqual([home]);
    // The home chat got one read_notification result with the run's outcome, and its agent answered.
    await expect.poll(() => toolResult('read_notification')?.status, { timeout: 5_000 }).toBe('done');
    const batch = JSON.parse(toolResult('read_notification')!.result) as {
      event_type: string;
      summary: string;
      refs: string[];
    }[];
    expect(batch[0]).toMatchObject({ event_type: 'job_succeeded', summary: 'tick report: all quiet' });
    expect(batch[0]!.refs).toContain(`session:${run.session_id}`);
    await h.waitForEvent('done', (e) => e.session_id === home && e.content === 'The job says all is quiet.');
  });

  it('a job missed while the app was closed runs once at the first tick, then follows its pattern from now', async () => {
    h = await startHarness({ turns: [{ match: 'MISSED-C', text: 'caught up' }] });
    const home = await h.newSession();
    const job = await createJobViaChat(home, 'MISSED-C', '0 0 3 * * *');
    h.llm.setDefaultTurn({ text: 'noted' });
    h.core.scheduler.schedules.setEnabled(job.id, true);
    // Its 03:00 passed days ago (many times missed).
    h.core.scheduler.jobs.setNextRun(job.id, Date.now() - 3 * 24 * 3600_000);
    h.core.scheduler.scheduler.tick();
    h.core.scheduler.scheduler.tick();
    const runs = runsOf(job.id);
    expect(runs).toHaveLength(1);
    await h.core.scheduler.scheduler.settled(runs[0]!.id);
    expect(runsOf(job.id)[0]).toMatchObject({ status: 'success', final_response: 'caught up' });
    const next = h.core.scheduler.jobs.get(job.id)!.next_run_at!;
    expect(next).toBeGreaterThan(Date.now());
    expect(new Date(next).getHours()).toBe(3);
  });

  it('run now works on a disabled job; a one-shot disables itself after its run', async () => {
    h = await startHarness({ turns: [{ match: 'NOW-D', text: 'ran by hand' }] });
    const home = await h.newSession();
    const job = await createJobViaChat(home, 'NOW-D', '0 0 9 * * *');
    h.llm.setDefaultTurn({ text: 'noted' });
    const { run } = h.core.scheduler.schedules.runNow(job.id) as { run: { id: number; status: string } };
    expect(run.status).toBe('running');
    await h.core.scheduler.scheduler.settled(run.id);
    expect(runsOf(job.id)[0]).toMatchObject({ trigger: 'manual', status: 'success', final_response: 'ran by hand' });
    expect(h.core.scheduler.jobs.get(job.id)!.enabled).toBe(0);

    // Far enough ahead that the chat round that saves the job and the switch that enables it are done before it is
    // due, on a loaded machine too (1.5 s was not, with four test processes on two cores).
    const at = new Date(Date.now() + 5_000);
    const iso = `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}T${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}:${String(at.getSeconds()).padStart(2, '0')}`;
    h.llm.script([{ match: 'ONCE-E', text: 'once' }]);
    const once = await createJobViaChat(home, 'ONCE-E', iso);
    expect(once.single_run).toBe(1);
    h.core.scheduler.schedules.setEnabled(once.id, true);
    await expect.poll(() => runsOf(once.id)[0]?.status, { timeout: 20_000 }).toBe('success');
    expect(h.core.scheduler.jobs.get(once.id)).toMatchObject({ enabled: 0, next_run_at: null });
    expect(h.core.scheduler.schedules.setEnabled(once.id, true)).toMatchObject({
      error: expect.stringMatching(/no future time/),
    });
  });

  it('a run is judged by the job’s saved permission group and source: its allow runs without asking, a chat-only allow does not apply', async () => {
    h = await startHarness();
    const home = await h.newSession();
    await h.call('approval:createGroup', { id: 'nightly', name: 'Nightly' });
    await h.call('approval:createRule', {
      group_id: 'nightly',
      tool_pattern: 'execute_cmd',
      command_pattern: 'echo *',
      source: 'cron',
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
      title: 'envelope',
      agentId: 'software-engineer',
      prompt: 'GROUP-M go',
      cron: '0 0 3 * * *',
      singleRun: false,
      enabled: false,
      nextRunAt: null,
      parentSessionId: home,
      runContext: { security_group: 'nightly', working_directory: join(h.workspace, 'nightly') },
    });
    mkdirSync(join(h.workspace, 'nightly'));
    h.llm.setDefaultTurn({ text: 'noted' });
    h.llm.script([
      {
        match: 'GROUP-M',
        toolCalls: [
          { name: 'execute_cmd', arguments: { command: 'echo from-the-job' } },
          { name: 'write_file', arguments: { path: 'x.txt', content: 'x' } },
        ],
      },
    ]);
    const { run } = h.core.scheduler.schedules.runNow(id) as { run: { id: number; session_id: number } };
    await expect
      .poll(async () => (await h.call('inbox:list', {})).approvals.map((a) => a.tool_name))
      .toEqual(['write_file']);
    const shell = h.core.db
      .prepare(
        "SELECT status, result, effective_arguments FROM chat_llm_tools WHERE session_id = ? AND name = 'execute_cmd'",
      )
      .get(run.session_id) as { status: string; result: string; effective_arguments: string };
    expect(shell.status).toBe('done');
    expect(shell.result).toContain('from-the-job');
    // The saved run context's working directory: the command ran there, the write waits for a file there.
    expect(h.core.sessions.workingDir(run.session_id)).toBe(join(h.workspace, 'nightly'));
    expect(JSON.parse(shell.effective_arguments)).toMatchObject({ workdir: join(h.workspace, 'nightly') });
    expect((await h.call('inbox:list', {})).approvals[0]).toMatchObject({ context_label: 'CronJob: envelope' });
    expect(JSON.stringify((await h.call('inbox:list', {})).approvals[0])).toContain(
      join(h.workspace, 'nightly', 'x.txt'),
    );
    expect(h.core.scheduler.schedules.list()[0]!.last_run).toMatchObject({ status: 'running', waiting: 1 });
    h.core.scheduler.schedules.stopRun(run.id);
    await h.core.scheduler.scheduler.settled(run.id);
    expect((await h.call('inbox:list', {})).approvals).toEqual([]);
  });

  it('a run’s question waits in the Inbox labelled with the job, the page shows the run waiting, and the answer lets it finish', async () => {
    h = await startHarness();
    const home = await h.newSession();
    const id = h.core.scheduler.jobs.create({
      kind: 'cron',
      title: 'asker',
      agentId: 'researcher',
      prompt: 'ASK-Q go',
      cron: '0 0 3 * * *',
      singleRun: false,
      enabled: false,
      nextRunAt: null,
      parentSessionId: home,
      runContext: null,
    });
    h.llm.setDefaultTurn({ text: 'noted' });
    h.llm.script([
      {
        match: 'ASK-Q',
        toolCalls: [
          {
            name: 'ask_user_clarification',
            arguments: {
              title: 'Which log?',
              question: 'Which log should I read?',
              suggested_answers: ['app', 'system'],
            },
          },
        ],
      },
      { match: 'ASK-Q', text: 'read the app log' },
    ]);
    const { run } = h.core.scheduler.schedules.runNow(id) as { run: { id: number } };
    await expect.poll(async () => (await h.call('inbox:list', {})).clarifications.length).toBe(1);
    const [question] = (await h.call('inbox:list', {})).clarifications;
    expect(question).toMatchObject({ title: 'Which log?', context_label: 'CronJob: asker' });
    expect(h.core.scheduler.schedules.list()[0]!.last_run).toMatchObject({ status: 'running', waiting: 1 });
    await h.call('inbox:answerClarification', { requestId: question!.request_id, answer: 'app' });
    expect(await h.core.scheduler.scheduler.settled(run.id)).toMatchObject({ status: 'success' });
    expect(h.core.scheduler.jobs.getRun(run.id)).toMatchObject({ final_response: 'read the app log' });
  });
});
