/**
 * The app's start, measured on the app itself (docs/architecture.md "Performance targets": start to a usable page
 * under 1 s, the core's share under 300 ms): `node out/main/web.js` spawned (bench/web-process.ts), with its own
 * marks (SKALD_START_TIMINGS: Node's bootstrap done, every module evaluated, the core built, listening; all from the
 * process's start). The core's share is from Node's bootstrap to the core built: loading the app's modules (the core
 * is nearly all of them) and `createCore`. Two data folders: a fresh one (the database created, every migration
 * run) and one in use (a model set up, a session of 2,000 messages, a checkpointed database).
 * The peer, spawned in turn with ours: a bare `node:http` server to listening (what Node alone costs on this machine
 * now). Five spawns of each (one with `--quick`); medians.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore } from '../src/main/core/index';
import { median, ms, type BenchOptions, type BenchRow } from './table';
import { seedSession } from './seed-session';
import { builtWebEntry, startWebProcess, type StartTimings } from './web-process';

const BARE =
  "require('node:http').createServer().listen(0, '127.0.0.1', function () { console.log('listening ' + this.address().port); });";

function bareNode(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['-e', BARE], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.once('data', () => {
      const took = performance.now() - started;
      child.once('exit', () => resolve(took));
      child.kill();
    });
    child.once('error', reject);
  });
}

interface Spawn {
  listening: number;
  timings: StartTimings;
}

async function spawnWeb(dataDir: string): Promise<Spawn> {
  const web = await startWebProcess(dataDir);
  await web.stop();
  if (!web.timings) throw new Error('the web shape printed no start timings (SKALD_START_TIMINGS)');
  return { listening: web.spawnToListening, timings: web.timings };
}

function rows(label: string, runs: Spawn[], bare: number[]): BenchRow[] {
  const listening = median(runs.map((r) => r.listening));
  const peer = median(bare);
  const share = median(runs.map((r) => r.timings.core - r.timings.bootstrap));
  const part = (pick: (t: StartTimings) => number) => ms(median(runs.map((r) => pick(r.timings))));
  return [
    {
      name: `web shape start, ${label}: process start → listening (node out/main/web.js)`,
      ours: `${ms(listening)} (bootstrap ${part((t) => t.bootstrap)}, modules ${part((t) => t.modules - t.bootstrap)}, core ${part((t) => t.core - t.modules)}, server ${part((t) => t.listening - t.core)})`,
      peer: `bare node:http ${ms(peer)}`,
      ratio: listening / peer,
      target: `< 1 s to a usable page (web-start's ${label} row times the page)`,
      pass: listening < 1_000,
    },
    {
      name: `web shape start, ${label}: the core's share (its modules + createCore)`,
      ours: ms(share),
      peer: '< 300 ms',
      target: '< 300 ms',
      pass: share < 300,
    },
  ];
}

export async function run({ quick }: BenchOptions): Promise<BenchRow[]> {
  builtWebEntry(); // fails early on a stale build
  const root = mkdtempSync(join(tmpdir(), 'skald-bench-start-'));
  try {
    const used = join(root, 'used');
    const seed = await createCore({
      dataDir: used,
      workspaceDir: join(used, 'workspace'),
      shape: 'web',
      version: 'bench',
    });
    seedSession(seed.db, quick ? 200 : 2_000, 'bench: a session in use');
    await seed.dispose();
    const count = quick ? 1 : 5;
    const fresh: Spawn[] = [];
    const inUse: Spawn[] = [];
    const bare: number[] = [];
    for (let i = 0; i < count; i++) {
      bare.push(await bareNode());
      fresh.push(await spawnWeb(join(root, `fresh-${i}`)));
      inUse.push(await spawnWeb(used));
    }
    return [...rows('fresh data folder', fresh, bare), ...rows('data folder in use', inUse, bare)];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
