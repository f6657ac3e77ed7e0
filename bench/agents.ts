/**
 * Sub-agents on the app's real path (docs/agents.md): the real core, gate, SQLite file and provider client against
 * the scripted LLM over HTTP.
 * - Round-trip overhead: a turn whose middle request is a sync sub-agent's (root: execute_task → child: answer →
 *   root: answer, three model requests) against a plain turn of three model requests (root: write_todos →
 *   write_todos → answer). A plain turn of three requests needs two tool rounds where the sub-agent turn has one,
 *   so the difference is what a child stack costs (stack row, prompt row, tool list, context, events) less one
 *   plain tool call (well under a millisecond, bench/session-overhead.ts).
 * - Parallelism: 4 sync sub-agents in one round against the same 4 in four rounds, each child's reply delayed
 *   200 ms by the server. The ratio shows the children really overlap (about 1/4 when they do).
 * - Scheduled run (docs/scheduler.md): "Run now" of a job whose run is one scripted reply, from the call to the
 *   run's end (its fresh session, run rows, turn), against a chat turn with one scripted reply.
 * - Tick: one look at 1,000 enabled jobs of which none is due (the due query on its index, and re-arming).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { dispatchCall } from '../src/main/core/bridge/dispatch';
import { createCore, type Core } from '../src/main/core/index';
import type { CallChannel, CallRequest, CallResponse } from '../src/shared/contract/index';
import { startScriptedLlm, type ScriptedLlm, type ScriptedTurn } from '../test/llm-server/index';
import { median, ms, type BenchOptions, type BenchRow } from './table';

/** A difference with its sign (a negative overhead is noise around zero, shown as such). */
const signed = (v: number) => `${v < 0 ? '−' : '+'}${ms(Math.abs(v))}`;

const CHILD_DELAY_MS = 200;

interface Kit {
  core: Core;
  llm: ScriptedLlm;
  call<C extends CallChannel>(channel: C, request: CallRequest<C>): Promise<CallResponse<C>>;
  turn(content: string): Promise<number>;
  close(): Promise<void>;
}

async function start(): Promise<Kit> {
  const dir = mkdtempSync(join(tmpdir(), 'skald-bench-agents-'));
  const llm = await startScriptedLlm({ turns: [], keepRequests: false });
  const core = await createCore({
    dataDir: join(dir, 'data'),
    workspaceDir: join(dir, 'ws'),
    shape: 'web',
    version: 'bench',
    agentsDir: resolve('agents'),
  });
  const call = async <C extends CallChannel>(channel: C, request: CallRequest<C>): Promise<CallResponse<C>> => {
    const outcome = await dispatchCall(core.handlers, channel, request);
    if (!outcome.ok) throw new Error(outcome.error.message);
    return outcome.result as CallResponse<C>;
  };
  const provider = (
    await call('providers:create', { kind: 'openai_compatible', name: 'scripted', baseUrl: llm.baseUrl, apiKey: 'k' })
  ).provider;
  await call('models:create', { providerId: provider.id, modelId: 'scripted-1' });
  core.start();
  const sessionId = (await call('chat:createSession', {})).id;
  return {
    core,
    llm,
    call,
    /** One whole turn, from send to the end of the turn, in ms. */
    async turn(content) {
      const started = performance.now();
      const ended = new Promise<void>((done) => {
        const off = core.events.subscribe('chat', (e) => {
          if (e.type === 'turn_running' && !e.running) off(), done();
        });
      });
      await call('chat:send', { sessionId, content });
      await ended;
      return performance.now() - started;
    },
    async close() {
      await core.dispose();
      await llm.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const task = (i: number, extra: Partial<ScriptedTurn> = {}): ScriptedTurn[] => [
  { match: `CHILD-${i}`, text: `answer ${i}`, ...extra },
];
const execTask = (i: number) => ({
  name: 'execute_task',
  arguments: { mode: 'sync', agent_id: 'code-explorer', prompt: `CHILD-${i} look`, title: `task ${i}` },
});
const todos = { name: 'write_todos', arguments: { todos: [{ content: 'x', status: 'pending' }] } };

/** The scheduler's rows: a run against a chat turn, then a tick over many jobs. */
async function schedulerRows(kit: Kit, count: number): Promise<{ scheduled: number; chatTurn: number; tick: number }> {
  const { jobs, schedules, scheduler } = kit.core.scheduler;
  const home = (await kit.call('chat:createSession', {})).id;
  // A run's outcome resumes its home chat with a notification; its reply is the default turn, waited for apart.
  kit.llm.setDefaultTurn({ text: 'noted' });
  const homeIdle = () =>
    new Promise<void>((done) => {
      const off = kit.core.events.subscribe('chat', (e) => {
        if (e.session_id === home && e.type === 'turn_running' && !e.running) off(), done();
      });
    });
  const runs: number[] = [];
  const turns: number[] = [];
  for (let i = 0; i < count + 3; i++) {
    kit.llm.script([{ match: `chat ${i}`, text: 'done' }]);
    const t = await kit.turn(`chat ${i}`);
    const id = jobs.create({
      kind: 'cron',
      title: `bench ${i}`,
      agentId: 'code-explorer',
      prompt: `JOB-${i} look`,
      cron: '0 0 3 * * *',
      singleRun: false,
      enabled: false,
      nextRunAt: null,
      parentSessionId: home,
      runContext: null,
    });
    kit.llm.script([{ match: `JOB-${i}`, text: 'done' }]);
    const idle = homeIdle();
    const started = performance.now();
    const { run } = schedules.runNow(id) as { run: { id: number } };
    await scheduler.settled(run.id);
    const r = performance.now() - started;
    await idle;
    if (i >= 3) turns.push(t), runs.push(r);
  }
  const future = Date.now() + 24 * 3600_000;
  kit.core.db.transaction(() => {
    for (let i = 0; i < 1_000; i++)
      jobs.create({
        kind: 'cron',
        title: `idle ${i}`,
        agentId: 'code-explorer',
        prompt: 'p',
        cron: '0 0 3 * * *',
        singleRun: false,
        enabled: true,
        nextRunAt: future + i,
        parentSessionId: null,
        runContext: null,
      });
  })();
  const ticks: number[] = [];
  for (let i = 0; i < 200; i++) {
    const started = performance.now();
    scheduler.tick();
    ticks.push(performance.now() - started);
  }
  return { scheduled: median(runs), chatTurn: median(turns), tick: median(ticks.slice(20)) };
}

/** `--quick`: 3 timed turns of each kind instead of 30, one parallel round. */
export async function run({ quick }: BenchOptions): Promise<BenchRow[]> {
  const runs = quick ? 3 : 30;
  const kit = await start();
  try {
    const plain: number[] = [];
    const sub: number[] = [];
    for (let i = 0; i < runs + 3; i++) {
      kit.llm.script([
        { match: `plain ${i}`, toolCalls: [todos] },
        { match: `plain ${i}`, toolCalls: [todos] },
        { match: `plain ${i}`, text: 'done' },
      ]);
      const p = await kit.turn(`plain ${i}`);
      kit.llm.script([
        { match: `sub ${i}`, toolCalls: [execTask(i)] },
        ...task(i),
        { match: `sub ${i}`, text: 'done' },
      ]);
      const s = await kit.turn(`sub ${i}`);
      if (i >= 3) plain.push(p), sub.push(s); // the first runs warm the JIT and the prepared statements
    }
    const overhead = median(sub) - median(plain);

    const parallel: number[] = [];
    const sequential: number[] = [];
    for (let r = 0; r < (quick ? 1 : 3); r++) {
      const ids = [0, 1, 2, 3].map((k) => 100 + r * 10 + k);
      kit.llm.script([
        { match: `par ${r}`, toolCalls: ids.map(execTask) },
        ...ids.flatMap((i) => task(i, { delayMs: CHILD_DELAY_MS })),
        { match: `par ${r}`, text: 'done' },
      ]);
      parallel.push(await kit.turn(`par ${r}`));
      const seqIds = [0, 1, 2, 3].map((k) => 200 + r * 10 + k);
      kit.llm.script([
        ...seqIds.flatMap((i) => [
          { match: `seq ${r}`, toolCalls: [execTask(i)] },
          ...task(i, { delayMs: CHILD_DELAY_MS }),
        ]),
        { match: `seq ${r}`, text: 'done' },
      ]);
      sequential.push(await kit.turn(`seq ${r}`));
    }
    const ratio = median(parallel) / median(sequential);

    const { scheduled, chatTurn, tick } = await schedulerRows(kit, runs);
    return [
      {
        name: 'sync sub-agent round trip: a turn of 3 model requests whose middle one is a child (execute_task → child answers → answer) vs a plain turn of 3 (write_todos → write_todos → answer) (median)',
        ours: `${ms(median(sub))} (${signed(overhead)})`,
        peer: ms(median(plain)),
        ratio: median(sub) / median(plain),
        target: 'overhead < 20 ms',
        pass: overhead < 20,
      },
      {
        name: `4 sync sub-agents in one round vs in 4 rounds (each child answers after ${CHILD_DELAY_MS} ms)`,
        ours: ms(median(parallel)),
        peer: ms(median(sequential)),
        ratio,
        target: 'ratio < 0.5',
        pass: ratio < 0.5,
      },
      {
        name: 'scheduled run (Run now → run ended: fresh session, run rows, turn) vs a chat turn, one scripted reply each (median)',
        ours: `${ms(scheduled)} (${signed(scheduled - chatTurn)})`,
        peer: ms(chatTurn),
        ratio: scheduled / chatTurn,
        target: 'overhead < 20 ms',
        pass: scheduled - chatTurn < 20,
      },
      {
        name: 'scheduler tick over 1,000 enabled jobs, none due (median)',
        ours: ms(tick),
        peer: '—',
        target: '< 2 ms',
        pass: tick < 2,
      },
    ];
  } finally {
    await kit.close();
  }
}
