/**
 * Gate + persistence overhead of one tool call (under 1 ms median, p99 under 5 ms; docs/architecture.md "Performance
 * targets"): the row written `running` with its `tool_start`, the gate's decision recorded with the row in one
 * transaction, the run of a no-op tool, and the terminal status with its event — everything the loop adds around a
 * tool, on a real SQLite file (synchronous=FULL, so each commit is an fsync).
 */
import { NO_CALL_SECRETS } from '../src/main/core/secrets/sealed-args';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { RunContextSchema } from '../src/shared/run-context';
import { createCore } from '../src/main/core/index';
import { SessionStore } from '../src/main/core/session/session-store';
import { standaloneSyntheticEnv } from '../src/main/core/session/synthetic-tools';
import { executeCall, startRound, type CallEnv } from '../src/main/core/session/tool-call';
import { createToolRegistry, defineTool } from '../src/main/core/tools/index';
import { median, ms, percentile, type BenchRow } from './table';

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'skald-bench-overhead-'));
  const core = await createCore({ dataDir: join(dir, 'data'), workspaceDir: join(dir, 'ws'), shape: 'web', version: 'bench' });
  try {
    const noop = defineTool({ name: 'noop', description: 'does nothing', kind: 'other', category: 'introspection', input: z.object({}), execute: () => 'ok' });
    const tools = createToolRegistry([noop]);
    core.approval.rules.createRule({ tool_pattern: 'noop', action: 'allow', priority: 1 });
    const store = new SessionStore(core.db);
    const sessionId = store.createSession('bench');
    const messageId = store.appendMessage({ sessionId, role: 'assistant', content: '' });
    const controller = new AbortController();
    const env: CallEnv = {
      store, tools, gate: core.approval.port, emit: (body) => core.events.emit('chat', { ...body, session_id: sessionId } as never),
      sessionId, agentId: 'main', source: 'web', runContext: RunContextSchema.parse({}), workingDir: join(dir, 'ws'), workspaceDir: join(dir, 'ws'),
      protectedRoots: [join(dir, 'data')], signal: controller.signal,
      synthetic: standaloneSyntheticEnv(core.db, sessionId, join(dir, 'ws')),
      requestRestart: () => {}, log: () => {}, secrets: NO_CALL_SECRETS,
    };
    const times: number[] = [];
    let last = '';
    for (let i = 0; i < 2_200; i++) {
      const started = performance.now();
      const [call] = startRound(env, [{ id: `bench-${i}`, name: 'noop', arguments: '{}' }], messageId);
      await executeCall(env, call!);
      last = call!.id;
      if (i >= 200) times.push(performance.now() - started); // the first 200 warm the JIT and the page cache
    }
    const status = store.getTool(last)?.status;
    const med = median(times);
    const p99 = percentile(times, 99);
    return [
      { name: 'gate + persistence per no-op tool call: median', ours: ms(med), peer: '< 1 ms', target: '< 1 ms', pass: med < 1 && status === 'done' },
      { name: 'gate + persistence per no-op tool call: p99', ours: ms(p99), peer: '< 5 ms', target: '< 5 ms', pass: p99 < 5 && status === 'done' },
    ];
  } finally {
    await core.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}
