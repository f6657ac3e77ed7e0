/**
 * Crash-harness child (R1–R5): a whole core in its own process, talking to the parent's scripted LLM. It sets up
 * a model and an allow rule for shell commands, sends one message, and prints `tool-running <id>` once the
 * command's process runs. The parent SIGKILLs it there, then restarts a core on the same data folder. With `read-kill`
 * it kills itself as an allowed read_file call is decided instead.
 * Check ids (R1, R2, R3, R4, R5) are listed in docs/security-checks.md.
 */
import { writeSync } from 'node:fs';
import { dispatchCall } from '../../src/main/core/bridge/dispatch';
import { createCore } from '../../src/main/core/index';

const [dataDir, workspaceDir, baseUrl, mode] = process.argv.slice(2) as [string, string, string, string | undefined];
const core = await createCore({ dataDir, workspaceDir, shape: 'web', version: 'crash-test' });
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
await call('approval:createRule', {
  tool_pattern: 'execute_cmd',
  command_pattern: '*',
  action: 'allow',
  priority: 1,
  note: 'crash test',
});
// `read-kill`: the process kills itself as an allowed read_file call's decision is committed, the commit written
// without an fsync (docs/performance.md "Durability follows consequence"), before the read runs.
if (mode === 'read-kill') {
  await call('approval:createRule', { tool_pattern: 'read_file', action: 'allow', priority: 1, note: 'crash test' });
  core.events.subscribe('chat', (event) => {
    if (event.type !== 'tool_decision' || event.decision.action !== 'allow') return;
    // Synchronously, inside the event: nothing of the call after its decision's commit can run first.
    writeSync(1, `tool-running ${event.tool_call_id}\n`);
    process.kill(process.pid, 'SIGKILL');
  });
}
core.events.subscribe('chat', (event) => {
  if (mode === 'read-kill' || event.type !== 'tool_decision' || event.decision.action !== 'allow') return;
  // Told once the command's process runs (the registry records it as it spawns), so the kill lands mid-command.
  const running = core.db.prepare('SELECT count(*) AS n FROM child_processes');
  const poll = setInterval(() => {
    if ((running.get() as { n: number }).n === 0) return;
    clearInterval(poll);
    setTimeout(() => process.stdout.write(`tool-running ${event.tool_call_id}\n`), 50);
  }, 10);
});
const session = await call('chat:createSession', {});
await call('chat:send', { sessionId: session.id, content: 'run the long command' });
process.stdout.write(`session ${String(session.id)}\n`);
