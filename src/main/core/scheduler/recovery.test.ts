/**
 * The scheduler across stops: a real core in a child process SIGKILLed while a run waits for approval, an app
 * quit during a run, and the 7-day retention, all on real SQLite files in temp folders.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundleChild } from '../../../../test/helpers/bundle-child';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { startScriptedLlm, type ScriptedLlm } from '../../../../test/llm-server/index';
import { openDatabase } from '../db/database';
import { SessionStore } from '../session/session-store';
import { JobStore, RUN_RETENTION_MS } from './job-store';
import { INTERRUPTED_AGAIN, INTERRUPTED_RUN, recoverInterruptedRuns } from './scheduler';

const root = join(__dirname, '../../../..');
const agentsDir = join(root, 'agents');
let h: Harness | undefined;
let llm: ScriptedLlm | undefined;
// The crash child, bundled once: each start is then plain Node, not a whole core through tsx (test/helpers/bundle-child.ts).
let crashChild = '';
beforeAll(async () => {
  crashChild = await bundleChild('crash-scheduler-child');
});
afterAll(() => rmSync(crashChild, { force: true }));
afterEach(async () => {
  await h?.close();
  await llm?.close();
  h = undefined;
  llm = undefined;
  cleanupTempDirs();
});

function runChildUntilPending(
  dataDir: string,
  workspace: string,
  baseUrl: string,
  prompt: string,
): Promise<{ toolCallId: string; runId: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [crashChild, dataDir, workspace, baseUrl, prompt, agentsDir], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let found: { toolCallId: string; runId: number } | null = null;
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /pending (\S+) (\d+)/.exec(out);
      if (m && !found) {
        found = { toolCallId: m[1]!, runId: Number(m[2]) };
        child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL' && found ? resolve(found) : reject(new Error(`child ended early: ${out}`)),
    );
  });
}

const write = (path: string, content: string) => ({ name: 'write_file', arguments: { path, content } });

describe('a crash while a job runs', () => {
  it('the interrupted run is marked, its waiting approval leaves the Inbox, and the job re-runs once in a fresh session', async () => {
    llm = await startScriptedLlm({
      turns: [{ match: 'CRASH-G', toolCalls: [write('notes.txt', 'from the first run')] }],
    });
    const base = tempDir();
    const dataDir = join(base, 'data');
    const workspace = join(base, 'ws');
    const crashed = await runChildUntilPending(dataDir, workspace, llm.baseUrl, 'CRASH-G write the notes');
    await llm.close();
    llm = undefined;

    h = await startHarness({
      dataDir,
      agentsDir,
      turns: [
        { match: 'CRASH-G', toolCalls: [write('notes.txt', 'from the re-run')] },
        { match: 'CRASH-G', text: 'notes written' },
      ],
    });
    const runs = () =>
      h!.core.db.prepare('SELECT id, status, trigger, session_id, error FROM job_runs ORDER BY id').all() as {
        id: number;
        status: string;
        trigger: string;
        session_id: number;
        error: string | null;
      }[];
    await expect.poll(() => runs().length).toBe(2);
    const [old, rerun] = runs();
    expect(old).toMatchObject({ id: crashed.runId, status: 'interrupted', error: INTERRUPTED_RUN });
    expect(rerun).toMatchObject({ status: 'running', trigger: 'rerun' });
    expect(rerun!.session_id).not.toBe(old!.session_id);
    // The crashed run's call ended failed; it is not asked again.
    expect(
      h.core.db.prepare('SELECT status FROM chat_llm_tools WHERE tool_call_id = ?').get(crashed.toolCallId),
    ).toEqual({ status: 'failed' });
    // The re-run asks again, in the Inbox, labelled as the job's; the page's view says the run waits on a person.
    await expect.poll(async () => (await h!.call('inbox:list', {})).approvals.length).toBe(1);
    const [item] = (await h.call('inbox:list', {})).approvals;
    expect(item).toMatchObject({
      session_id: rerun!.session_id,
      tool_name: 'write_file',
      context_label: 'CronJob: nightly notes',
    });
    const job = h.core.scheduler.schedules.list()[0]!;
    expect(job.last_run).toMatchObject({ id: rerun!.id, status: 'running', waiting: 1 });
    expect(existsSync(join(h.workspace, 'notes.txt'))).toBe(false);

    await h.call('inbox:resolveApproval', {
      requestId: item!.request_id,
      action: 'approve',
      argsHash: item!.args_hash,
    });
    await h.core.scheduler.scheduler.settled(rerun!.id);
    expect(runs()[1]).toMatchObject({ status: 'success' });
    expect(readFileSync(join(h.workspace, 'notes.txt'), 'utf8')).toBe('from the re-run');
  });
});

describe('a quit while a job runs', () => {
  it('counts as an interruption: re-run once at the next start; a re-run interrupted again is only marked', async () => {
    const dataDir = join(tempDir(), 'data');
    h = await startHarness({
      dataDir,
      agentsDir,
      turns: [{ match: 'QUIT-H', hangUntilAborted: true, text: 'thinking' }],
    });
    const home = await h.newSession();
    const { jobs, schedules } = h.core.scheduler;
    const id = jobs.create({
      kind: 'cron',
      title: 'quit job',
      agentId: 'researcher',
      prompt: 'QUIT-H look around',
      cron: '0 0 3 * * *',
      singleRun: false,
      enabled: false,
      nextRunAt: null,
      parentSessionId: home,
      runContext: null,
    });
    schedules.runNow(id);
    await expect.poll(() => h!.llm.requests.length).toBe(1);
    await h.close();

    h = await startHarness({
      dataDir,
      agentsDir,
      turns: [{ match: 'QUIT-H', hangUntilAborted: true, text: 'thinking again' }],
    });
    const runs = () => h!.core.db.prepare('SELECT status, trigger, error FROM job_runs ORDER BY id').all();
    expect(runs()).toEqual([
      { status: 'interrupted', trigger: 'manual', error: INTERRUPTED_RUN },
      { status: 'running', trigger: 'rerun', error: null },
    ]);
    await expect.poll(() => h!.llm.requests.length).toBe(1);
    await h.close();

    h = await startHarness({ dataDir, agentsDir });
    expect(runs()).toEqual([
      { status: 'interrupted', trigger: 'manual', error: INTERRUPTED_RUN },
      { status: 'interrupted', trigger: 'rerun', error: INTERRUPTED_AGAIN },
    ]);
  });
});

describe('retention', () => {
  it('deletes runs (and their sessions) finished more than 7 days ago and idle one-shot jobs; keeps the rest', async () => {
    const dir = tempDir();
    const db = openDatabase({ file: join(dir, 'skald.db') });
    const now = Date.now();
    let clock = now - RUN_RETENTION_MS - 60_000;
    const jobs = new JobStore(db, () => clock);
    const sessions = new SessionStore(db);
    const bg = () =>
      sessions.createBackgroundSession({
        title: 't',
        source: 'cron',
        agentId: 'researcher',
        runContext: null,
        model: null,
        parentSessionId: null,
      });
    const repeating = jobs.create({
      kind: 'cron',
      title: 'daily',
      agentId: 'researcher',
      prompt: 'p',
      cron: '0 0 3 * * *',
      singleRun: false,
      enabled: true,
      nextRunAt: now + 1000,
      parentSessionId: null,
      runContext: null,
    });
    const oneShot = jobs.create({
      kind: 'async',
      title: 'task',
      agentId: 'researcher',
      prompt: 'p',
      singleRun: true,
      enabled: false,
      nextRunAt: null,
      parentSessionId: null,
      runContext: null,
    });
    const oldSession = bg();
    const oldRun = jobs.startRun(repeating, oldSession, 'schedule')!;
    jobs.finishRun(oldRun, 'success', 'old', null);
    const taskSession = bg();
    jobs.finishRun(jobs.startRun(oneShot, taskSession, 'async')!, 'success', 'task done', null);
    clock = now - 3600_000; // recent
    const newSession = bg();
    const newRun = jobs.startRun(repeating, newSession, 'schedule')!;
    jobs.finishRun(newRun, 'failed', null, 'x');
    const chat = sessions.createSession('a chat');

    const result = jobs.purge(now);
    expect(result).toMatchObject({ runs: 2, jobs: 1 });
    expect(sessions.deleteBackgroundSessions([...result.sessions, chat])).toBe(2); // a chat is never deleted here
    expect(db.prepare('SELECT id FROM job_runs').all()).toEqual([{ id: newRun }]);
    expect(db.prepare('SELECT id FROM scheduled_jobs').all()).toEqual([{ id: repeating }]);
    expect((db.prepare('SELECT id FROM chat_sessions ORDER BY id').all() as { id: number }[]).map((r) => r.id)).toEqual(
      [newSession, chat],
    );
    db.close();
  });

  it('recovery on a bare database: running runs become interrupted and are listed for a re-run unless they were one', () => {
    const db = openDatabase({ file: join(tempDir(), 'skald.db') });
    const jobs = new JobStore(db);
    const sessions = new SessionStore(db);
    const a = jobs.create({
      kind: 'cron',
      title: 'a',
      agentId: 'researcher',
      prompt: 'p',
      cron: '* * * * * *',
      singleRun: false,
      enabled: true,
      nextRunAt: 1,
      parentSessionId: null,
      runContext: null,
    });
    const b = jobs.create({
      kind: 'cron',
      title: 'b',
      agentId: 'researcher',
      prompt: 'p',
      cron: '* * * * * *',
      singleRun: false,
      enabled: true,
      nextRunAt: 1,
      parentSessionId: null,
      runContext: null,
    });
    jobs.startRun(a, null, 'schedule');
    jobs.startRun(b, null, 'rerun');
    expect(recoverInterruptedRuns(jobs, sessions).map((j) => j.id)).toEqual([a]);
    expect(jobs.runningRuns()).toEqual([]);
    const raw = new Database(join(db.name), { readonly: true });
    expect(raw.prepare('SELECT status FROM job_runs ORDER BY id').all()).toEqual([
      { status: 'interrupted' },
      { status: 'interrupted' },
    ]);
    raw.close();
    db.close();
  });
});
