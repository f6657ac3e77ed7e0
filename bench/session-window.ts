/**
 * The no-op call as a person's app makes it (docs/architecture.md "What keeps the waited-on paths fast"; SPEC §6: a
 * no-op tool under 0.3 ms median above the durability floor, with events going to a connected window): every call's
 * answer comes after the event loop sat idle IDLE_MS (as during any real model's answer), and the web shape's server
 * runs in this process with windows connected over its WebSocket from another process (a Node client that reads every
 * frame, as a browser tab would), so each event the call emits is sent to them inside the call.
 * Timed per call: from the answer reaching the session to its `tool_done`, after the window's own listener has sent
 * that event (the bench's listener subscribes after the windows connect, and a bus calls listeners in order). The
 * floor beside it: the same two bare commits with the call's durability (for `noop_read` one without an fsync, one
 * with; for `noop_edit` both fsync'd) after the same idle, measured between the turns of the same run. The row is
 * the overhead: the calls' median less the floor's median. The two kinds alternate turn by turn, each turn followed by
 * as many floor pairs as it had calls, so load hits all alike.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { openDatabase } from '../src/main/core/db/database';
import { createCore } from '../src/main/core/index';
import type { LlmTurn } from '../src/main/core/session/ports';
import { defineTool } from '../src/main/core/tools/index';
import { startWebServer } from '../src/main/web/server';
import { turnInNewSession } from './session-turn';
import { median, ms, type BenchRow } from './table';

const ROUNDS_PER_TURN = 19;
const IDLE_MS = 20;
type Kind = 'read' | 'edit';

/** A window in another process: connects, reads every frame (parsing it, as a page does), prints `open` once. */
const WINDOW_CLIENT = `
const WebSocket = require('ws');
const ws = new WebSocket(process.argv[1]);
let frames = 0;
ws.on('open', () => process.stdout.write('open\\n'));
ws.on('message', (data) => { JSON.parse(data.toString()); frames++; });
process.stdin.on('data', () => process.stdout.write(frames + '\\n'));
ws.on('close', () => process.exit(0));
`;

interface Window {
  child: ChildProcess;
  frames(): Promise<number>;
}

async function openWindow(url: string): Promise<Window> {
  const child = spawn(process.execPath, ['-e', WINDOW_CLIENT, url], {
    cwd: join(import.meta.dirname, '..'),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let waiting: ((line: string) => void) | null = null;
  let rest = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop()!;
    for (const line of parts) {
      if (waiting) {
        const w = waiting;
        waiting = null;
        w(line);
      } else lines.push(line);
    }
  });
  const nextLine = () =>
    new Promise<string>((resolve) => (lines.length ? resolve(lines.shift()!) : (waiting = resolve)));
  if ((await nextLine()) !== 'open') throw new Error('the window did not connect');
  return {
    child,
    async frames() {
      child.stdin!.write('?\n');
      return Number(await nextLine());
    },
  };
}

/** `--quick`: 2 turns of each kind; else 16 (304 calls each). */
export async function windowRows(quick: boolean): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'skald-bench-window-'));
  const rendererDir = join(dir, 'renderer');
  mkdirSync(rendererDir);
  const core = await createCore({
    dataDir: join(dir, 'data'),
    workspaceDir: join(dir, 'ws'),
    shape: 'web',
    version: 'bench',
  });
  const floorDb = openDatabase({ file: join(dir, 'floor.db') });
  const server = await startWebServer({ core, rendererDir, log: () => undefined });
  const windows: Window[] = [];
  try {
    for (const k of ['read', 'edit'] as const) {
      core.tools.register(
        defineTool({
          name: `noop_${k}`,
          description: 'Does nothing.',
          kind: k,
          category: 'introspection',
          input: z.object({}),
          execute: () => 'ok',
        }),
      );
      core.approval.rules.createRule({ tool_pattern: `noop_${k}`, action: 'allow', priority: 1 });
    }
    windows.push(await openWindow(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`));

    let answeredAt = 0;
    let script: LlmTurn[] = [];
    const usage = { inputTokens: 10, outputTokens: 5 };
    core.llm.client.streamRound = async () => {
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      answeredAt = performance.now();
      return (
        script.shift() ?? {
          text: 'done',
          reasoning: '',
          toolCalls: [],
          usage,
          cost: null,
          modelId: 'scripted',
          finishReason: 'stop',
        }
      );
    };
    let sink: number[] = [];
    core.events.subscribe('chat', (e) => {
      if (e.type === 'tool_done') sink.push(performance.now() - answeredAt);
    });
    core.start();

    const floorInsert = floorDb.prepare(
      'INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json',
    );
    const floorPair = (kind: Kind) => {
      const started = performance.now();
      for (let i = 0; i < 2; i++) {
        const unsynced = kind === 'read' && i === 0;
        if (unsynced) floorDb.exec('PRAGMA synchronous = NORMAL');
        floorInsert.run('bench.floor', String(Date.now() + i), Date.now());
        if (unsynced) floorDb.exec('PRAGMA synchronous = FULL');
      }
      return performance.now() - started;
    };
    const turn = async (kind: Kind, into: number[]) => {
      script = Array.from({ length: ROUNDS_PER_TURN }, (_, i) => ({
        text: '',
        reasoning: '',
        toolCalls: [{ id: `call_${i}`, name: `noop_${kind}`, arguments: '{}' }],
        usage,
        cost: null,
        modelId: 'scripted',
        finishReason: 'tool-calls',
      }));
      sink = into;
      await turnInNewSession(core);
    };
    const calls: Record<Kind, number[]> = { read: [], edit: [] };
    const floors: Record<Kind, number[]> = { read: [], edit: [] };
    const warm: number[] = [];
    for (const k of ['read', 'edit'] as const) await turn(k, warm);
    const turns = quick ? 2 : 16;
    for (let t = 0; t < turns; t++) {
      for (const k of ['read', 'edit'] as const) {
        await turn(k, calls[k]);
        for (let i = 0; i < ROUNDS_PER_TURN; i++) {
          await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
          floors[k].push(floorPair(k));
        }
      }
    }
    const framesSeen = await windows[0]!.frames();
    const rows: BenchRow[] = [];
    for (const k of ['read', 'edit'] as const) {
      const [call, floor] = [median(calls[k]), median(floors[k])];
      const over = call - floor;
      rows.push({
        name: `no-op ${k === 'read' ? 'read-only' : 'edit-kind'} tool call (noop_${k}) after a ${IDLE_MS} ms idle, a window connected over the WebSocket (another process; ${framesSeen.toLocaleString('en')} frames read): median call less the median floor (${calls[k].length} calls)`,
        ours: `${ms(over)} (call ${ms(call)})`,
        peer: `floor: 2 bare commits (${k === 'read' ? "1 fsync'd" : "fsync'd"}) after the same idle ${ms(floor)}`,
        ratio: call / floor,
        target: '< 0.3 ms above the floor',
        pass: over < 0.3,
      });
    }
    return rows;
  } finally {
    for (const w of windows) w.child.kill();
    await server.close();
    floorDb.close();
    await core.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}
