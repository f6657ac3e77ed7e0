/**
 * With SKALD_TEST_CPU_LOG=<file> (vitest.config.ts), each test file's process appends one line to that file when its
 * tests end: the file, its CPU seconds (user, system) and its reaped children's (user, system), and its wall seconds.
 * Each test file runs in a process of its own, so this is the file's whole cost, module loading included: how the
 * suite's time was ranked (README "Running the tests"). Off unless asked for.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';

const TICKS_PER_SECOND = 100;

afterAll(() => {
  const log = process.env.SKALD_TEST_CPU_LOG;
  if (!log) return;
  const own = process.cpuUsage();
  // /proc/self/stat after the command's ")": fields 14 and 15 of the line (cutime, cstime) are at 13 and 14 here.
  const stat = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  const seconds = (ticks: string | undefined) => (Number(ticks) / TICKS_PER_SECOND).toFixed(2);
  const fields = [
    expect.getState().testPath ?? '?',
    (own.user / 1e6).toFixed(2),
    (own.system / 1e6).toFixed(2),
    seconds(stat[13]),
    seconds(stat[14]),
    process.uptime().toFixed(2),
  ];
  appendFileSync(log, `${fields.join('\t')}\n`);
});
