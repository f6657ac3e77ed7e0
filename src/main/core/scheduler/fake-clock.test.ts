/**
 * The scheduler under a fake clock (test/helpers/fake-clock.ts) against the real core, SQLite and the scripted LLM:
 * a job fires at its second and not before, a day passing while its run still goes never starts a second one, a
 * one-shot disables itself and the tick purges it 7 days later, and notifications of one chat within 200 ms arrive
 * as one batch. Time moves only when the test says so; the runs' turns are real.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TN } from '../../../shared/tool-names';
import { FakeClock } from '../../../../test/helpers/fake-clock';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';
import { TICK_MS } from './scheduler';

let h: Harness;
afterEach(async () => {
  await h?.close();
  cleanupTempDirs();
});

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const runsOf = (jobId: number) =>
  h.core.db
    .prepare('SELECT id, status, trigger, session_id, final_response FROM job_runs WHERE job_id = ? ORDER BY id')
    .all(jobId) as { id: number; status: string; trigger: string; session_id: number; final_response: string | null }[];
const notificationRows = (sessionId: number) =>
  h.core.db
    .prepare('SELECT result FROM chat_llm_tools WHERE session_id = ? AND name = ? ORDER BY id')
    .all(sessionId, TN.READ_NOTIFICATION) as { result: string }[];
const local = (y: number, mo: number, d: number, hh: number, mm = 0, ss = 0) =>
  new Date(y, mo - 1, d, hh, mm, ss).getTime();

function job(home: number, prompt: string, cron: string, singleRun = false): number {
  return h.core.scheduler.jobs.create({
    kind: 'cron',
    title: prompt.slice(0, 12),
    agentId: 'researcher',
    prompt,
    cron,
    singleRun,
    enabled: false,
    nextRunAt: null,
    parentSessionId: home,
    runContext: null,
  });
}

describe('the tick under a fake clock', () => {
  it('fires at its time and not before; a day passing while the run goes starts no second run; stopped, it runs at its next time', async () => {
    const clock = new FakeClock(local(2031, 5, 12, 8, 59, 58));
    h = await startHarness({
      schedulerClock: clock,
      turns: [
        { match: 'FAKE-1', hangUntilAborted: true, text: 'never' },
        { match: 'FAKE-1', text: 'second run done' },
      ],
    });
    h.llm.setDefaultTurn({ text: 'noted' });
    const home = await h.newSession();
    const { jobs, schedules, scheduler } = h.core.scheduler;
    const id = job(home, 'FAKE-1 look around', '0 0 9 * * *');
    schedules.setEnabled(id, true);
    expect(jobs.get(id)!.next_run_at).toBe(local(2031, 5, 12, 9));
    expect(clock.nextIn()).toBe(2_000); // armed for the job's time, not the next 30 s look

    clock.advance(1_999);
    expect(runsOf(id)).toEqual([]);
    clock.advance(1);
    expect(runsOf(id)).toMatchObject([{ status: 'running', trigger: 'schedule' }]);
    await expect.poll(() => h.llm.requests.some((r) => JSON.stringify(r.body.messages).includes('FAKE-1'))).toBe(true);

    // A whole day of ticks while the first run still goes: its 09:00 on the 13th is skipped.
    clock.advance(DAY + 60_000);
    expect(runsOf(id)).toMatchObject([{ status: 'running' }]);
    expect(jobs.get(id)!.next_run_at).toBe(local(2031, 5, 14, 9));
    expect(clock.nextIn()).toBeLessThanOrEqual(TICK_MS); // never sleeps longer than one look
    expect(jobs.startRun(id, null, 'manual')).toBeNull(); // the database refuses a second running run too
    expect(schedules.runNow(id)).toMatchObject({ error: expect.stringMatching(/already running/) });
    expect(h.llm.requests.filter((r) => JSON.stringify(r.body.messages).includes('FAKE-1'))).toHaveLength(1);

    const [first] = runsOf(id);
    schedules.stopRun(first!.id);
    expect(await scheduler.settled(first!.id)).toMatchObject({ status: 'cancelled' });
    clock.advanceTo(local(2031, 5, 14, 9) - 1);
    expect(runsOf(id)).toHaveLength(1);
    clock.advance(1);
    const second = runsOf(id)[1]!;
    expect(second).toMatchObject({ status: 'running', trigger: 'schedule' });
    expect(second.session_id).not.toBe(first!.session_id); // a fresh session for each run
    expect(await scheduler.settled(second.id)).toMatchObject({ status: 'success' });
    expect(runsOf(id)[1]).toMatchObject({ final_response: 'second run done' });
  });

  it('a one-shot runs once, disables itself, and the tick purges it with its run and session after 7 days', async () => {
    const clock = new FakeClock(local(2031, 5, 12, 8, 59, 58));
    h = await startHarness({ schedulerClock: clock, turns: [{ match: 'ONCE-2', text: 'ran once' }] });
    h.llm.setDefaultTurn({ text: 'noted' });
    const home = await h.newSession();
    const { jobs, schedules, scheduler } = h.core.scheduler;
    const id = job(home, 'ONCE-2 report', '2031-05-12T09:00:00', true);
    schedules.setEnabled(id, true);
    clock.advance(2_000);
    const [run] = runsOf(id);
    expect(await scheduler.settled(run!.id)).toMatchObject({ status: 'success' });
    expect(jobs.get(id)).toMatchObject({ enabled: 0, next_run_at: null });
    const session = () => h.core.db.prepare('SELECT id FROM chat_sessions WHERE id = ?').get(run!.session_id);
    expect(session()).toBeDefined();

    clock.advance(7 * DAY - HOUR); // not yet 7 days idle
    expect(jobs.get(id)).toBeDefined();
    expect(runsOf(id)).toHaveLength(1);
    clock.advance(2 * HOUR); // the hourly purge after the 7 days
    expect(jobs.get(id)).toBeUndefined();
    expect(h.core.db.prepare('SELECT count(*) AS n FROM job_runs').get()).toEqual({ n: 0 });
    expect(session()).toBeUndefined();
    expect(h.core.db.prepare('SELECT id FROM chat_sessions WHERE id = ?').get(home)).toEqual({ id: home }); // the chat stays
  });

  it('notifications of one chat within 200 ms arrive as one read_notification result; a later one as the next', async () => {
    const clock = new FakeClock(local(2031, 5, 12, 12));
    h = await startHarness({ schedulerClock: clock, turns: [{ match: 'home', text: 'ok' }] });
    h.llm.setDefaultTurn({ text: 'read them' });
    const home = await h.newSession();
    await h.sendAndSettle(home, 'this is home');
    const { notifications } = h.core.scheduler;
    const note = (summary: string) => ({
      source: 'test',
      event_type: 'found',
      summary,
      event_time: new Date(clock.now()).toISOString(),
      refs: [],
    });

    notifications.push(home, note('a'));
    clock.advance(100);
    notifications.push(home, note('b'));
    clock.advance(99);
    expect(notifications.waiting(home)).toBe(2);
    expect(notificationRows(home)).toEqual([]);
    clock.advance(1);
    await expect.poll(() => notificationRows(home).length).toBe(1);
    expect((JSON.parse(notificationRows(home)[0]!.result) as { summary: string }[]).map((n) => n.summary)).toEqual([
      'a',
      'b',
    ]);
    // The delivery resumed the chat: its agent read the batch and answered.
    await h.waitForEvent('done', (e) => e.session_id === home && e.content === 'read them');

    notifications.push(home, note('c'));
    clock.advance(200);
    await expect.poll(() => notificationRows(home).length).toBe(2);
    expect((JSON.parse(notificationRows(home)[1]!.result) as { summary: string }[]).map((n) => n.summary)).toEqual([
      'c',
    ]);
  });
});
