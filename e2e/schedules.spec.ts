/**
 * The Schedules page as a person uses it (docs/scheduler.md): the agent saves a job from the chat (off), the page
 * shows it with its pattern and what it may do without asking, the person turns it on (next run in local time),
 * runs it now, the run's write waits in the Inbox and the page says so, the person approves it there, opens the
 * run's session, and finally deletes the job. Scripted LLM over HTTP; screenshots in both themes.
 */
import { expect, startWebApp, stopWebApp, test, type WebApp } from './fixtures';
import { configureModel, startLlmProcess, type LlmProcess } from './scripted-llm';
import { shots } from './screens';

let llm: LlmProcess | undefined;
let app: WebApp;

test.beforeEach(async () => {
  app = await startWebApp();
});

test.afterEach(async () => {
  llm?.stop();
  await stopWebApp(app);
});

test('a scheduled job: saved off, envelope, turn on, run now waiting in the Inbox, approve, open the run, delete', async ({
  page,
}) => {
  llm = await startLlmProcess(app.dataDir, [
    {
      match: 'every weekday',
      toolCalls: [
        {
          name: 'execute_task',
          arguments: {
            mode: 'cron',
            agent_id: 'software-engineer',
            title: 'Morning notes',
            prompt: 'SCHED-1: write the morning notes to notes.md',
            cron: '0 30 8 * * 1-5',
          },
        },
      ],
    },
    {
      match: 'every weekday',
      text: 'Saved **Morning notes** (weekdays 08:30). Turn it on in Schedules when you are ready.',
    },
    {
      match: 'SCHED-1',
      toolCalls: [{ name: 'write_file', arguments: { path: 'notes.md', content: '# Morning notes\n\nAll quiet.\n' } }],
    },
    { match: 'SCHED-1', text: 'Wrote notes.md.' },
    // The home chat is resumed by the run's notification.
    { match: 'every weekday', text: 'The morning notes job ran and wrote notes.md.' },
  ]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  await page.reload();

  await page.getByTestId('composer').fill('Write morning notes every weekday at 8:30');
  await page.getByTestId('send').click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Saved Morning notes');

  await page.getByTestId('open-schedules').click();
  const job = page.locator('[data-testid^="job-"].job-card');
  await expect(job).toHaveCount(1);
  await expect(job.getByTestId('job-state')).toHaveText('Off');
  await expect(job).toContainText('0 30 8 * * 1-5');
  await expect(job.getByTestId('job-next-run')).toContainText('off');
  await expect(job.getByTestId('job-last-run')).toContainText('never ran');
  await shots(page, 'schedules-saved-off');

  // Turning it on shows first what it may do without asking.
  await job.getByTestId('job-enable').click();
  const envelope = job.getByTestId('envelope');
  await expect(envelope).toContainText('Software engineer');
  await expect(envelope.getByTestId('envelope-files')).toContainText(`read files in ${app.workspaceDir}`);
  await expect(envelope.getByTestId('envelope-denied')).toContainText('@fs_any on secrets/*');
  await expect(envelope).toContainText('Everything else waits for you in the Inbox');
  await shots(page, 'schedules-envelope');
  await envelope.getByTestId('envelope-confirm').click();
  await expect(job.getByTestId('job-state')).toHaveText('On');
  await expect(job.getByTestId('job-next-run')).not.toContainText('off');
  await expect(job.getByTestId('job-next-run')).toContainText(/08:30/);
  await expect(page.getByTestId('schedules-error')).toHaveCount(0);

  // Run now: its write needs approval, so it waits in the Inbox and the page says so.
  await job.getByTestId('job-run-now').click();
  await expect(job.getByTestId('job-waiting')).toContainText('1 request in the Inbox');
  await expect(job.getByTestId('run-status')).toHaveText('waiting for you');
  await expect(page.getByTestId('open-inbox')).toContainText('(1)');
  await expect(page.getByTestId('schedules-error')).toHaveCount(0);
  await shots(page, 'schedules-waiting');

  await page.getByTestId('open-inbox').click();
  const item = page.getByTestId('inbox-item');
  await expect(item).toContainText('CronJob: Morning notes');
  await expect(item).toContainText('notes.md');
  await item.getByRole('button', { name: 'Approve once' }).click();
  await page.getByTestId('inbox').getByRole('button', { name: 'Close' }).click();
  await expect(job.getByTestId('run-status')).toHaveText('succeeded');
  await expect(job.getByTestId('job-waiting')).toHaveCount(0);

  // The run history, then the run's own session in the chat.
  await job.getByTestId('job-runs').click();
  await expect(job.getByTestId('run-history')).toContainText('run now');
  await shots(page, 'schedules-ran');
  await job.getByTestId('job-open-run').click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Wrote notes.md.');
  await expect(page.locator('[data-testid="tool-card"][data-tool="write_file"]')).toBeVisible();
  await expect(page.getByTestId('background-run-banner')).toContainText('A run of the scheduled job Morning notes');
  await shots(page, 'schedules-run-session');

  // The home chat got the run's outcome as a notification (shown as one, not as JSON) and its agent answered.
  await page.getByTestId('session-item').first().click();
  await expect(page.getByTestId('background-run-banner')).toHaveCount(0);
  const delivered = page.getByTestId('delivered-notifications');
  await expect(delivered).toContainText('Scheduled job: Morning notes');
  await expect(delivered).toContainText('Wrote notes.md.');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('The morning notes job ran and wrote notes.md.');
  await shots(page, 'schedules-home-notified');
  await delivered.getByTestId('delivered-open').click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Wrote notes.md.');

  // Delete (with a confirmation step).
  await page.getByTestId('open-schedules').click();
  await job.getByTestId('job-delete').click();
  await job.getByTestId('job-delete-confirm').click();
  await expect(page.getByTestId('schedules-empty')).toBeVisible();
});
