/**
 * The machine a bench ran on, written with its results (bench/results.json) and shown with the README's table:
 * figures are only comparable on the same kind of machine, and a load average well above the core count says the
 * figures were taken on a busy one.
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, release, totalmem, type as osType } from 'node:os';
import { findChromium } from '../e2e/chromium';

export interface Machine {
  cpu: string;
  cores: number;
  ramGb: number;
  os: string;
  node: string;
  chromium: string;
  /** 1, 5 and 15-minute load averages when the bench started and when it ended. */
  loadStart: number[];
  loadEnd: number[];
  commit: string;
  /** The working tree had changes not in `commit`. */
  dirty: boolean;
  /** ISO date of the end of the run. */
  date: string;
  /** One line of the above, for the table's footer. */
  summary: string;
}

function quiet(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
    }).trim();
  } catch {
    return '';
  }
}

function chromiumVersion(): string {
  try {
    return quiet(findChromium(), ['--version']) || 'unknown';
  } catch {
    return 'none';
  }
}

const loads = (l: number[]) => l.map((n) => n.toFixed(2)).join(' / ');

export function describeMachine(loadStart: number[]): Machine {
  const cpuList = cpus();
  const root = new URL('..', import.meta.url).pathname;
  const commit = quiet('git', ['-C', root, 'rev-parse', '--short=12', 'HEAD']) || 'unknown';
  const dirty = quiet('git', ['-C', root, 'status', '--porcelain', '--untracked-files=no']) !== '';
  const machine: Omit<Machine, 'summary'> = {
    cpu: cpuList[0]?.model.trim() ?? 'unknown',
    cores: cpuList.length,
    ramGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    os: `${osType()} ${release()}`,
    node: process.version,
    chromium: chromiumVersion(),
    loadStart: loadStart.map((n) => Math.round(n * 100) / 100),
    loadEnd: loadavg().map((n) => Math.round(n * 100) / 100),
    commit,
    dirty,
    date: new Date().toISOString(),
  };
  const summary =
    `${machine.cpu}, ${machine.cores} cores, ${machine.ramGb} GB RAM, ${machine.os}, Node ${machine.node}, ${machine.chromium}; ` +
    `load average (1/5/15 min) ${loads(machine.loadStart)} at start, ${loads(machine.loadEnd)} at end; ` +
    `commit ${machine.commit}${machine.dirty ? ' (with uncommitted changes)' : ''}; ${machine.date}`;
  return { ...machine, summary };
}
