/**
 * rg's process starts through the long-lived bash spawner (rg-spawner.ts), against real processes: real rg gives
 * what a direct start gives; arguments and the folder reach the program literally, whatever shell syntax they hold;
 * a stop and an abort kill the program itself; a refused pattern, a missing program or folder are 'unusable'; jobs
 * side by side keep their outputs apart; and when the spawner dies, the next run still works.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorkspace, type TestWorkspace } from '../_testing/workspace';
import { type Outcome, runRg } from './grep-rg-run';
import { rgSpawnerPid, useRgSpawner } from './rg-spawner';

const RG = '/usr/bin/rg';
let ws: TestWorkspace;

beforeEach(() => {
  ws = makeWorkspace();
  useRgSpawner(true);
});
afterEach(() => {
  useRgSpawner(true);
  ws.cleanup();
});

/** Runs `program` through runRg, collecting its records until `stopAfter` of them (then stops it). */
async function collect(
  program: string,
  args: readonly string[],
  opts: { cwd?: string; separator?: '\n' | '\0'; stopAfter?: number; signal?: AbortSignal } = {},
): Promise<{ outcome: Outcome; records: string[] }> {
  const records: string[] = [];
  const outcome = await runRg(
    program,
    args,
    opts.cwd,
    opts.signal ?? new AbortController().signal,
    opts.separator ?? '\n',
    (record) => {
      records.push(record);
      return opts.stopAfter === undefined || records.length < opts.stopAfter;
    },
  );
  return { outcome, records };
}

/** Whether a process whose command line holds `token` still runs (a unique token per test: no other is matched). */
function running(token: string): boolean {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
      if (cmd.includes(token) && state !== 'Z') return true;
    } catch {} // gone meanwhile
  }
  return false;
}

async function until(check: () => boolean, ms = 3000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20)))
    if (check()) return true;
  return check();
}

const token = () => `skald-spawner-test-${process.pid}-${Math.random().toString(36).slice(2)}`;

describe('rg through the spawner', () => {
  it('gives what a direct start gives, and runs rg through bash', async () => {
    for (let i = 0; i < 40; i++) ws.write(`d${i % 4}/f${i}.txt`, `one needle ${i}\ntwo\nNeedle three ${i}\n`);
    const args = ['--no-config', '--line-number', '--null', '--ignore-case', '--regexp', 'needle', '--', '.'];
    const through = await collect(RG, args, { cwd: ws.root });
    expect(rgSpawnerPid()).not.toBeNull();
    useRgSpawner(false);
    const direct = await collect(RG, args, { cwd: ws.root });
    expect(through.outcome).toEqual({ kind: 'done', stderr: '', code: 0 });
    expect(direct.outcome).toEqual(through.outcome);
    expect(through.records.length).toBe(80);
    expect([...through.records].sort()).toEqual([...direct.records].sort());
  });

  it('passes arguments and the folder literally, never as shell text', async () => {
    const odd = [
      'two words',
      "it's",
      '"double"',
      'line\nbreak',
      '$(touch pwned-a)',
      '`touch pwned-b`',
      '${HOME}',
      '*',
      '; touch pwned-c',
      '-e',
      '',
      '\\0',
      'ünï ☃',
    ];
    const dir = join(ws.root, "a dir 'with' $(quotes)\nand a break");
    mkdirSync(dir);
    // printf prints each argument after its format NUL-ended; pwd prints where it ran.
    const printed = await collect('/usr/bin/printf', ['%s\\0', ...odd], { cwd: dir, separator: '\0' });
    expect(printed.outcome.kind).toBe('done');
    expect(printed.records).toEqual(odd);
    const where = await collect('/bin/pwd', [], { cwd: dir, separator: '\0' });
    expect(where.records.join('')).toBe(`${dir}\n`);
    for (const name of ['pwned-a', 'pwned-b', 'pwned-c']) {
      expect(existsSync(join(dir, name))).toBe(false);
      expect(existsSync(join(process.cwd(), name))).toBe(false);
    }
  });

  it('a stop kills the program itself and reports it stopped', async () => {
    const mark = token();
    const run = await collect('/usr/bin/yes', [mark], { stopAfter: 50 });
    expect(run.outcome).toEqual({ kind: 'stopped' });
    expect(run.records.length).toBe(50);
    expect(await until(() => !running(mark))).toBe(true);
  });

  it("what a stopped run left unread never reaches the next run's output", async () => {
    for (let i = 0; i < 20; i++) {
      const stopped = await collect('/usr/bin/yes', [`left-over-${i}`], { stopAfter: 1 });
      expect(stopped.outcome).toEqual({ kind: 'stopped' });
      const next = await collect('/usr/bin/printf', ['%s\\n', `next-${i}`]);
      expect(next.records).toEqual([`next-${i}`]);
    }
  });

  it('an abort kills the program and rejects with the reason', async () => {
    const mark = token();
    const abort = new AbortController();
    const done = collect('/usr/bin/yes', [mark], { signal: abort.signal });
    expect(await until(() => running(mark))).toBe(true);
    abort.abort(new Error('called off'));
    await expect(done).rejects.toThrow('called off');
    expect(await until(() => !running(mark))).toBe(true);
  });

  it("is 'unusable' for a refused pattern, a missing program or a missing folder; 'done' with rg's code else", async () => {
    ws.write('a.txt', 'abc\n');
    const refused = await collect(RG, ['--no-config', '--regexp', '(?=a)b', '--', '.'], { cwd: ws.root });
    expect(refused.outcome).toEqual({ kind: 'unusable' });
    expect((await collect(join(ws.base, 'no-rg'), ['--version'])).outcome).toEqual({ kind: 'unusable' });
    expect((await collect(RG, ['--version'], { cwd: join(ws.base, 'gone') })).outcome).toEqual({ kind: 'unusable' });
    const none = await collect(RG, ['--no-config', '--regexp', 'zzz', '--', '.'], { cwd: ws.root });
    expect(none.outcome).toEqual({ kind: 'done', stderr: '', code: 1 });
  });

  it('keeps the outputs of runs side by side apart', async () => {
    for (let i = 0; i < 8; i++) ws.write(`f${i}.txt`, `${`line ${i}\n`.repeat(2000)}`);
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        collect(RG, ['--no-config', '--no-filename', '--regexp', `line ${i}`, '--', `f${i}.txt`], { cwd: ws.root }),
      ),
    );
    runs.forEach((run, i) => {
      expect(run.outcome.kind).toBe('done');
      expect(run.records.length).toBe(2000);
      expect(new Set(run.records)).toEqual(new Set([`line ${i}`]));
    });
  });

  it('when the spawner dies, the next runs still work', async () => {
    ws.write('a.txt', 'needle\n');
    const args = ['--no-config', '--regexp', 'needle', '--', '.'];
    await collect(RG, args, { cwd: ws.root });
    const first = rgSpawnerPid();
    expect(first).not.toBeNull();
    process.kill(first!, 'SIGKILL');
    expect(await until(() => rgSpawnerPid() !== first)).toBe(true);
    const after = await collect(RG, args, { cwd: ws.root });
    expect(after.outcome).toEqual({ kind: 'done', stderr: '', code: 0 });
    expect(after.records).toEqual(['./a.txt:needle']);
  });

  it('a run the spawner dies under is finished by a direct start or by its own end', async () => {
    const mark = token();
    const abort = new AbortController();
    // Kill the spawner while a slow program runs through it: the run is still stoppable and ends.
    const done = collect('/usr/bin/yes', [mark], { signal: abort.signal, stopAfter: 1_000_000 });
    expect(await until(() => running(mark))).toBe(true);
    const pid = rgSpawnerPid();
    if (pid !== null) process.kill(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 50));
    abort.abort(new Error('stop'));
    await expect(done).rejects.toThrow('stop');
    expect(await until(() => !running(mark))).toBe(true);
  });
});
