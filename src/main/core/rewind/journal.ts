/**
 * The rewind journal (migration 140; docs/rewind.md "Crash and resume"), the one writer of `rewind_runs` and
 * `rewind_steps`. A run and all its steps are written in one commit before any file changes; each step holds what
 * the file held when the person confirmed (`from_hash`) and what it must hold after (`target_hash`), so the file
 * itself says whether the step ran. The outcomes and the run's end are written in the commit that ends it.
 */
import type { RewindMode, RewindOutcome } from '../../../shared/contract/rewind';
import type { Db } from '../db/database';
import type { Content } from './plan';

export type StepAction = 'write' | 'remove' | 'keep';

export interface Step {
  seq: number;
  path: string;
  shown: string;
  action: StepAction;
  from: Content;
  target: Content;
  /** Why a `keep` step is kept (a conflict the person kept, a file with no before-image). */
  detail: string | null;
}

export interface Run {
  id: number;
  sessionId: number;
  messageId: number;
  mode: RewindMode;
  state: 'running' | 'done';
  createdAt: number;
}

interface RunRow {
  id: number;
  session_id: number;
  message_id: number;
  mode: RewindMode;
  state: 'running' | 'done';
  created_at: number;
}

const runOf = (row: RunRow): Run => ({
  id: row.id,
  sessionId: row.session_id,
  messageId: row.message_id,
  mode: row.mode,
  state: row.state,
  createdAt: row.created_at,
});

export class RewindJournal {
  constructor(private readonly db: Db) {}

  /** Inside the caller's transaction (with the decision-log entry): the run and every step. */
  begin(sessionId: number, messageId: number, mode: RewindMode, steps: readonly Omit<Step, 'seq'>[]): number {
    const runId = Number(
      this.db
        .prepare(
          "INSERT INTO rewind_runs (session_id, message_id, mode, state, created_at) VALUES (?, ?, ?, 'running', ?)",
        )
        .run(sessionId, messageId, mode, Date.now()).lastInsertRowid,
    );
    const insert = this.db.prepare(
      'INSERT INTO rewind_steps (run_id, seq, path, shown, action, from_hash, target_hash, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    steps.forEach((s, seq) => insert.run(runId, seq, s.path, s.shown, s.action, s.from, s.target, s.detail));
    return runId;
  }

  run(runId: number): Run | null {
    const row = this.db.prepare('SELECT * FROM rewind_runs WHERE id = ?').get(runId) as RunRow | undefined;
    return row ? runOf(row) : null;
  }

  steps(runId: number): Step[] {
    return (
      this.db
        .prepare(
          'SELECT seq, path, shown, action, from_hash, target_hash, detail FROM rewind_steps WHERE run_id = ? ORDER BY seq',
        )
        .all(runId) as {
        seq: number;
        path: string;
        shown: string;
        action: StepAction;
        from_hash: string | null;
        target_hash: string | null;
        detail: string | null;
      }[]
    ).map((r) => ({
      seq: r.seq,
      path: r.path,
      shown: r.shown,
      action: r.action,
      from: r.from_hash,
      target: r.target_hash,
      detail: r.detail,
    }));
  }

  /** Runs a crash cut short, oldest first (all sessions, or one). */
  unfinished(sessionId?: number): Run[] {
    const rows = (
      sessionId === undefined
        ? this.db.prepare("SELECT * FROM rewind_runs WHERE state = 'running' ORDER BY id").all()
        : this.db
            .prepare(
              "SELECT * FROM rewind_runs INDEXED BY rewind_runs_running WHERE session_id = ? AND state = 'running'",
            )
            .all(sessionId)
    ) as RunRow[];
    return rows.map(runOf);
  }

  /** Inside the caller's transaction (with the chat's fork): each step's outcome and the run's end. */
  end(runId: number, outcomes: readonly RewindOutcome[]): void {
    const set = this.db.prepare(
      'UPDATE rewind_steps SET outcome = ?, detail = coalesce(?, detail) WHERE run_id = ? AND seq = ?',
    );
    outcomes.forEach((o, seq) => set.run(o.outcome, o.message ?? null, runId, seq));
    this.db.prepare("UPDATE rewind_runs SET state = 'done', finished_at = ? WHERE id = ?").run(Date.now(), runId);
  }
}
