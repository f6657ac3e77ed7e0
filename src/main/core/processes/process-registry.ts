/**
 * Child processes the tools start are recorded (pid + the kernel's start time) while they run, so that after a
 * crash the next start can find leftovers of the previous run and end them (check R4, docs/security-checks.md). The
 * start time guards against pid reuse: a pid whose start time differs is another process and is left alone.
 * Limits: the start time is read from /proc (Linux); elsewhere a leftover is reported, not killed.
 */
import { readFileSync } from 'node:fs';
import { statement, type Db } from '../db/database';

export interface LeftoverReport {
  killed: { pid: number; command: string }[];
  reported: { pid: number; command: string }[];
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot), or null when unreadable. */
export function processStartTicks(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may contain spaces: split after the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return rest[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export class ProcessRegistry {
  constructor(private readonly db: Db) {}

  record(pid: number, command: string): void {
    // Every command the shell tool starts passes here and in `forget`: prepared once (db/database.ts `statement`).
    statement(
      this.db,
      'INSERT OR REPLACE INTO child_processes (pid, start_ticks, command, started_at) VALUES (?, ?, ?, ?)',
    ).run(pid, processStartTicks(pid) ?? '', command.slice(0, 2_000), Date.now());
  }

  forget(pid: number): void {
    statement(this.db, 'DELETE FROM child_processes WHERE pid = ?').run(pid);
  }

  /** At start: every recorded process of an earlier run that still lives is killed with its group. */
  reapLeftovers(): LeftoverReport {
    const rows = this.db.prepare('SELECT pid, start_ticks, command FROM child_processes').all() as {
      pid: number;
      start_ticks: string;
      command: string;
    }[];
    const report: LeftoverReport = { killed: [], reported: [] };
    for (const row of rows) {
      if (!isAlive(row.pid)) continue;
      const ticks = processStartTicks(row.pid);
      if (ticks === null || row.start_ticks === '') {
        report.reported.push({ pid: row.pid, command: row.command });
        continue;
      }
      if (ticks !== row.start_ticks) continue; // the pid was reused by an unrelated process
      try {
        process.kill(-row.pid, 'SIGKILL');
      } catch {
        try {
          process.kill(row.pid, 'SIGKILL');
        } catch {
          // Gone between the check and the kill: nothing left to do.
        }
      }
      report.killed.push({ pid: row.pid, command: row.command });
    }
    // Only when there was a row: a DELETE of the whole table rewrites its root page even when it is empty, and with
    // synchronous=FULL that is an fsync at every start (docs/performance.md "Start and memory").
    if (rows.length > 0) this.db.prepare('DELETE FROM child_processes').run();
    return report;
  }
}
