/**
 * Counts the fsyncs this process's main thread makes, in order with markers the code under test drops: `strace`
 * attached to the process (its main thread, where SQLite commits), tracing `fsync`, `fdatasync` and the writes of
 * one marker file. The write-ahead log's commit counter (wal-commits.ts) cannot tell a commit written with an fsync
 * from one written without; this can (docs/performance.md "Durability follows consequence").
 *
 * Each fsync comes with its duration (`strace -T`: the time the kernel spent in the call), so a bench can tell what
 * of a commit's time is the disk's.
 *
 * Needs `strace` (Debian's package; `.ci/run` installs it) and the right to trace the process (root, or
 * `kernel.yama.ptrace_scope` 0): a clear error otherwise, never a silent zero.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MARK = 'SKALD-MARK:';

/** One event of the trace: an fsync or fdatasync with its duration, or a marker the code dropped. */
export type TraceEvent = { kind: 'fsync'; ms: number } | { kind: 'mark'; label: string };

export interface FsyncTrace {
  /** Drops a marker into the trace, between the syscalls before and after it. */
  mark(label: string): void;
  /** Detaches and returns the trace: each fsync or fdatasync and each marker, in order. */
  stop(): Promise<TraceEvent[]>;
}

export function straceAvailable(): boolean {
  return spawnSync('strace', ['-V'], { stdio: 'ignore' }).status === 0;
}

/** Attaches to this process and resolves once the trace has seen a marker (so nothing after is missed). */
export async function traceFsyncs(): Promise<FsyncTrace> {
  if (!straceAvailable()) throw new Error('strace is not installed (apt-get install strace): fsyncs cannot be counted');
  const dir = mkdtempSync(join(tmpdir(), 'skald-fsync-trace-'));
  const out = join(dir, 'trace.txt');
  const markerFd = openSync(join(dir, 'markers'), 'w');
  const strace: ChildProcess = spawn(
    'strace',
    ['-p', String(process.pid), '-qq', '-T', '-e', 'signal=none', '-e', 'trace=fsync,fdatasync,write', '-o', out],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  strace.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((done) => strace.on('exit', () => done()));
  const mark = (label: string) => void writeSync(markerFd, `${MARK}${label}\n`);
  const traced = () => existsSync(out) && readFileSync(out, 'utf8').includes(`${MARK}attached`);
  for (let i = 0; !traced(); i++) {
    if (strace.exitCode !== null || i > 500) {
      strace.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`strace could not attach to process ${process.pid}: ${stderr.trim() || 'no trace after 5 s'}`);
    }
    mark('attached');
    await new Promise((r) => setTimeout(r, 10));
  }
  return {
    mark,
    async stop() {
      strace.kill('SIGINT'); // detaches; the traced process goes on
      await exited;
      closeSync(markerFd);
      const events: TraceEvent[] = [];
      for (const line of readFileSync(out, 'utf8').split('\n')) {
        if (/^f(data)?sync\(/.test(line))
          events.push({ kind: 'fsync', ms: 1000 * Number(/<([\d.]+)>\s*$/.exec(line)?.[1] ?? NaN) });
        else if (line.startsWith('write(') && line.includes(MARK)) {
          const label = line.slice(line.indexOf(MARK) + MARK.length).split('\\n')[0]!;
          if (label !== 'attached') events.push({ kind: 'mark', label });
        }
      }
      rmSync(dir, { recursive: true, force: true });
      return events;
    },
  };
}

/** The fsyncs between the first marker `from` and the first marker `to` after it. */
export function fsyncsBetween(events: readonly TraceEvent[], from: string, to: string): number {
  const at = (label: string, after: number) =>
    events.findIndex((e, i) => i >= after && e.kind === 'mark' && e.label === label);
  const start = at(from, 0);
  const end = at(to, start + 1);
  if (start < 0 || end < 0)
    throw new Error(
      `markers ${from} → ${to} not both in the trace: ${events.flatMap((e) => (e.kind === 'mark' ? [e.label] : [])).join(', ')}`,
    );
  return events.slice(start + 1, end).filter((e) => e.kind === 'fsync').length;
}
