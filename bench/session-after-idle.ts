/**
 * A turn after the app sat idle, on the session's real path (docs/architecture.md "What keeps the waited-on paths
 * fast"). A person reads a reply for a minute before the next turn; meanwhile the WAL keeper (db/wal-keeper.ts) sees
 * no writes and copies the log into the database. What that leaves decides the next turn's commits: a log emptied to
 * zero bytes grows again with every commit, and on ext4 an fsync that grows a file also commits the file system's
 * journal; a log kept at its size is overwritten in place.
 *
 * Two instances of the core in this process, each with its own data folder, the same no-op edit-kind tool (`noop_edit`:
 * an fsync'd commit before it runs and one after) and an allow rule. Each turn is 19 rounds of one call, then an
 * answer, and follows the same idle of 150 ms in both; only the first instance's keeper looks in that time (every 40
 * ms, so its idle checkpoint runs), the second's never does. The turns alternate between the two, so load hits both
 * alike. Timed per call as in session-overhead.ts: from the model's answer reaching the session to the call's
 * `tool_done`.
 * The row is wrong, not slow, when the first instance's log was not copied and started over before one of its turns
 * (read from the WAL index): then it would not measure a turn after an idle checkpoint.
 */
import { closeSync, mkdtempSync, openSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { walIndexFrames } from '../src/main/core/db/wal-keeper';
import { createCore, type Core } from '../src/main/core/index';
import type { LlmTurn } from '../src/main/core/session/ports';
import { defineTool } from '../src/main/core/tools/index';
import { turnInNewSession } from './session-turn';
import { median, ms, type BenchOptions, type BenchRow } from './table';

const ROUNDS_PER_TURN = 19;
const IDLE_MS = 150;
const KEEPER_LOOK_MS = 40;

interface Arm {
  core: Core;
  dataDir: string;
  times: number[];
  answeredAt: number;
  script: LlmTurn[];
}

const usage = { inputTokens: 10, outputTokens: 5 };
const answer: LlmTurn = {
  text: 'done',
  reasoning: '',
  toolCalls: [],
  usage,
  cost: null,
  modelId: 'scripted',
  finishReason: 'stop',
};

async function startArm(dir: string, keeperLookMs: number): Promise<Arm> {
  const dataDir = join(dir, 'data');
  const core = await createCore(
    { dataDir, workspaceDir: join(dir, 'ws'), shape: 'web', version: 'bench' },
    { walIdleCheckMs: keeperLookMs },
  );
  const arm: Arm = { core, dataDir, times: [], answeredAt: 0, script: [] };
  core.tools.register(
    defineTool({
      name: 'noop_edit',
      description: 'Does nothing.',
      kind: 'edit',
      category: 'introspection',
      input: z.object({}),
      execute: () => 'ok',
    }),
  );
  core.approval.rules.createRule({ tool_pattern: 'noop_edit', action: 'allow', priority: 1 });
  core.events.subscribe('chat', (e) => {
    if (e.type === 'tool_done') arm.times.push(performance.now() - arm.answeredAt);
  });
  // The session's ModelPort answers from a script, at once (session-overhead.ts's in-process model).
  core.llm.client.streamRound = async () => {
    const turn = arm.script.shift() ?? answer;
    arm.answeredAt = performance.now();
    return turn;
  };
  core.start();
  return arm;
}

async function oneTurn(arm: Arm): Promise<void> {
  arm.script = Array.from({ length: ROUNDS_PER_TURN }, (_, i) => ({
    ...answer,
    text: '',
    toolCalls: [{ id: `call_${i}`, name: 'noop_edit', arguments: '{}' }],
    finishReason: 'tool-calls',
  }));
  await turnInNewSession(arm.core);
}

/**
 * Whether the idle checkpoint ran: the log copied whole and started over, so it holds only the unchanged first page
 * that started it over (wal-keeper.ts); a turn leaves hundreds of frames. And the `-wal` file's size.
 */
function logState(dataDir: string): { startedOver: boolean; walBytes: number } {
  const fd = openSync(join(dataDir, 'skald.db-shm'), 'r');
  try {
    const log = walIndexFrames(fd);
    return {
      startedOver: log !== null && log.frames === 1 && log.copied === 0,
      walBytes: statSync(join(dataDir, 'skald.db-wal')).size,
    };
  } finally {
    closeSync(fd);
  }
}

/** `--quick`: 1 warm-up turn and 3 timed ones of each instead of 10 and 60. */
export async function run({ quick }: BenchOptions): Promise<BenchRow[]> {
  const [warmUp, timed] = quick ? [1, 3] : [10, 60];
  const dir = mkdtempSync(join(tmpdir(), 'skald-bench-idle-'));
  const arms: Arm[] = [];
  try {
    const afterIdle = await startArm(join(dir, 'idle-checkpoint'), KEEPER_LOOK_MS);
    arms.push(afterIdle);
    const noCheckpoint = await startArm(join(dir, 'no-checkpoint'), 2 ** 31 - 1);
    arms.push(noCheckpoint);
    const missed: number[] = [];
    const walSizes: number[] = [];
    for (let i = 0; i < warmUp + timed; i++) {
      if (i === warmUp) for (const arm of arms) arm.times.length = 0;
      for (const arm of arms) {
        await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
        if (arm === afterIdle) {
          const state = logState(arm.dataDir);
          if (!state.startedOver) missed.push(i);
          walSizes.push(state.walBytes);
        }
        await oneTurn(arm);
      }
    }
    const [ours, peer] = [median(afterIdle.times), median(noCheckpoint.times)];
    const kept = `the log before each turn ${(Math.min(...walSizes) / 2 ** 20).toFixed(1)}–${(Math.max(...walSizes) / 2 ** 20).toFixed(1)} MB`;
    return [
      {
        name: `no-op edit-kind tool call (noop_edit) in a turn after the app sat idle: the WAL keeper's idle checkpoint ran before each turn (${kept}) vs no idle checkpoint, the same ${IDLE_MS} ms idle (median per call, ${afterIdle.times.length} calls each)`,
        ours: ms(ours),
        peer: ms(peer),
        ratio: ours / peer,
        target: '≤ 1.1×',
        pass: ours / peer <= 1.1,
        ...(missed.length
          ? {
              wrong: `the log was not copied and started over before ${missed.length} turns (first: turn ${missed[0]})`,
            }
          : {}),
      },
    ];
  } finally {
    for (const arm of arms) await arm.core.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}
