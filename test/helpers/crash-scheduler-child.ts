/**
 * Crash-harness child for the scheduler: a whole core in its own process, talking to the parent's scripted LLM.
 * It creates an enabled cron job (prompt = argv[4]) and starts a run now; the run's write waits for approval in
 * the Inbox, and the child prints `pending <tool_call_id> <run_id>`. The parent SIGKILLs it there, then starts a
 * core on the same data folder.
 */
import { dispatchCall } from '../../src/main/core/bridge/dispatch';
import { createCore } from '../../src/main/core/index';

const [dataDir, workspaceDir, baseUrl, prompt, agentsDir] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const core = await createCore({ dataDir, workspaceDir, shape: 'web', version: 'crash-test', agentsDir });
const call = async (channel: string, request: unknown) => {
  const outcome = await dispatchCall(core.handlers, channel, request);
  if (!outcome.ok) throw new Error(`${channel}: ${outcome.error.message}`);
  return outcome.result as Record<string, unknown>;
};
const { provider } = (await call('providers:create', {
  kind: 'openai_compatible',
  name: 'scripted',
  baseUrl,
  apiKey: 'k',
})) as { provider: { id: number } };
await call('models:create', { providerId: provider.id, modelId: 'scripted-1', displayName: 'Scripted' });
const home = (await call('chat:createSession', {})) as { id: number };
core.start();
const { jobs, schedules } = core.scheduler;
const id = jobs.create({
  kind: 'cron',
  title: 'nightly notes',
  agentId: 'software-engineer',
  prompt,
  cron: '0 0 3 * * *',
  singleRun: false,
  enabled: false,
  nextRunAt: null,
  parentSessionId: home.id,
  runContext: null,
});
schedules.setEnabled(id, true);
core.events.subscribe('chat', (event) => {
  if (event.type === 'approval_required' || event.type === 'pending_write') {
    const run = jobs.runOfSession(event.session_id);
    process.stdout.write(`pending ${event.tool_call_id} ${run?.id ?? 0}\n`);
  }
});
process.stdout.write(`started ${JSON.stringify(schedules.runNow(id))}\n`);
setInterval(() => {}, 1_000); // the parent kills this process; until then it stays up like the app would
