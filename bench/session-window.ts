/**
 * The no-op call as a person's app makes it (docs/performance.md "What keeps the waited-on paths fast"; SPEC §6: a
 * no-op tool under 0.3 ms median above the durability floor, with events going to a connected window): every call's
 * answer comes after the event loop sat idle IDLE_MS (as during any real model's answer), and the web shape's server
 * runs in this process with windows connected over its WebSocket from another process (a Node client that reads every
 * frame, as a browser tab would). The call's events are queued for the window inside the call; the frames of one turn
 * of the event loop are serialized and leave in one write at its end (web/server.ts, `Outgoing`).
 * Timed per call: from the answer reaching the session to its `tool_done`, after the window's own listener has queued
 * that event (the bench's listener subscribes after the windows connect, and a bus calls listeners in order); shown
 * beside it, to the end of that turn of the event loop, when the frames have been written: the next round has started
 * by then (its context read, its request made), so that span holds more than the call.
 * The floor: two commits with the call's durability (for `noop_read` the first without an fsync, the second with;
 * for `noop_edit` both fsync'd), each writing as many pages to the log as the call's own commits do (counted in the
 * call's log during the warm-up turns; the floor checks its own log), after the same idle, measured between the
 * turns of the same run. Two bare commits of a row each (one page) are shown beside it: the call's fsyncs carry its
 * pages (on this disk each adds to a commit), so they were a floor below the call's own durability. The row is the
 * overhead: the calls' median less the floor's median. The two kinds alternate turn by turn, each turn followed by
 * as many floor pairs of each sort as it had calls, so load hits all alike.
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
import { pagesSince, readWalCommits, type WalReading } from '../test/helpers/wal-commits';
import { turnInNewSession } from './session-turn';
import { median, ms, type BenchRow } from './table';

const ROUNDS_PER_TURN = 19;
const IDLE_MS = 20;
/** More than a no-op call's commits write (8 and 2 pages: docs/performance.md). */
const MAX_FLOOR_PAGES = 16;
type Kind = 'read' | 'edit';
/** Per call, from the model's answer: to its `tool_done`, and to the end of that turn of the event loop (frames written). */
interface Timed {
  done: number[];
  written: number[];
}

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
  const dbPath = join(dir, 'data', 'skald.db');
  const floorPath = join(dir, 'floor.db');
  const floorDb = openDatabase({ file: floorPath });
  let measuringPages: Kind | null = null;
  let beforeCall: WalReading | undefined;
  let afterDecision: WalReading | undefined;
  const pages: Record<Kind, [number, number][]> = { read: [], edit: [] };
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
      if (measuringPages) beforeCall = readWalCommits(dbPath);
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
    let sink: Timed = { done: [], written: [] };
    core.events.subscribe('chat', (e) => {
      if (e.type === 'tool_decision' && measuringPages && beforeCall)
        afterDecision = readWalCommits(dbPath, beforeCall);
      if (e.type !== 'tool_done') return;
      const into = sink;
      into.done.push(performance.now() - answeredAt);
      // The window's frames of this turn of the event loop leave at its end (web/server.ts, `Outgoing`), once its
      // microtasks are done: before this immediate runs.
      setImmediate(() => into.written.push(performance.now() - answeredAt));
      if (measuringPages && beforeCall && afterDecision) {
        try {
          const done = readWalCommits(dbPath, afterDecision);
          pages[measuringPages].push([pagesSince(beforeCall, afterDecision), pagesSince(afterDecision, done)]);
        } catch {
          // a checkpoint restarted the log between the readings: this call is not counted
        }
      }
    });
    core.start();

    const floorInsert = floorDb.prepare(
      'INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json',
    );
    // Rows of a page each: a commit that rewrites n of them writes n pages to the log, as the call's commits do.
    floorDb.exec('CREATE TABLE floor_pages (k INTEGER PRIMARY KEY, v BLOB NOT NULL)');
    const page = Buffer.alloc(3000, 7);
    const floorPage = floorDb.prepare('INSERT OR REPLACE INTO floor_pages (k, v) VALUES (?, ?)');
    for (let k = 1; k <= MAX_FLOOR_PAGES; k++) floorPage.run(k, page);
    /** Two commits, the first unsynced for `noop_read` as the call's is; `sizes`: each one's pages, else one row. */
    const floorPair = (kind: Kind, sizes?: readonly [number, number]) => {
      const started = performance.now();
      for (let i = 0; i < 2; i++) {
        const unsynced = kind === 'read' && i === 0;
        if (unsynced) floorDb.exec('PRAGMA synchronous = NORMAL');
        if (sizes) {
          page.writeDoubleLE(performance.now());
          floorDb.transaction(() => {
            for (let k = 1; k <= sizes[i]!; k++) floorPage.run(k, page);
          })();
        } else floorInsert.run('bench.floor', String(Date.now() + i), Date.now());
        if (unsynced) floorDb.exec('PRAGMA synchronous = FULL');
      }
      return performance.now() - started;
    };
    const turn = async (kind: Kind, into: Timed) => {
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
    // The warm-up turns also count the pages each of a call's two commits writes to the log.
    for (const k of ['read', 'edit'] as const) {
      measuringPages = k;
      await turn(k, { done: [], written: [] });
    }
    measuringPages = null;
    const sizes = {} as Record<Kind, [number, number]>;
    for (const k of ['read', 'edit'] as const) {
      const [first, second] = [0, 1].map((i) => Math.round(median(pages[k].map((p) => p[i]!))));
      sizes[k] = [Math.min(first!, MAX_FLOOR_PAGES), Math.min(second!, MAX_FLOOR_PAGES)];
      // The floor writes what it says: its own log counted once.
      const before = readWalCommits(floorPath);
      floorPair(k, sizes[k]);
      const floorPages = pagesSince(before, readWalCommits(floorPath, before));
      if (floorPages !== sizes[k][0] + sizes[k][1])
        throw new Error(`the floor wrote ${floorPages} pages, not ${sizes[k][0] + sizes[k][1]}`);
    }

    const calls: Record<Kind, Timed> = { read: { done: [], written: [] }, edit: { done: [], written: [] } };
    const floors: Record<Kind, { same: number[]; bare: number[] }> = {
      read: { same: [], bare: [] },
      edit: { same: [], bare: [] },
    };
    const turns = quick ? 2 : 16;
    for (let t = 0; t < turns; t++) {
      for (const k of ['read', 'edit'] as const) {
        await turn(k, calls[k]);
        for (let i = 0; i < ROUNDS_PER_TURN; i++) {
          await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
          floors[k].same.push(floorPair(k, sizes[k]));
          await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
          floors[k].bare.push(floorPair(k));
        }
      }
    }
    const framesSeen = await windows[0]!.frames();
    const rows: BenchRow[] = [];
    for (const k of ['read', 'edit'] as const) {
      const [done, written, floor, bare] = [
        median(calls[k].done),
        median(calls[k].written),
        median(floors[k].same),
        median(floors[k].bare),
      ];
      const over = done - floor;
      const synced = k === 'read' ? "the second fsync'd" : "both fsync'd";
      rows.push({
        name: `no-op ${k === 'read' ? 'read-only' : 'edit-kind'} tool call (noop_${k}) after a ${IDLE_MS} ms idle, a window connected over the WebSocket (another process; ${framesSeen.toLocaleString('en')} frames read): median call (answer to tool_done) less the median floor (${calls[k].written.length} calls)`,
        ours: `${ms(over)} (call ${ms(done)}; frames written at the turn's end, the next round begun: ${ms(written)})`,
        peer: `floor: 2 commits of the call's ${sizes[k][0]} and ${sizes[k][1]} pages (${synced}) after the same idle ${ms(floor)}; of 1 page each ${ms(bare)}`,
        ratio: done / floor,
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
