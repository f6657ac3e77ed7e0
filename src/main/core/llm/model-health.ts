/**
 * A model's health is the outcome of its last real call since the app started, with the error when it failed
 * (docs/architecture.md, "Models"). `unknown` until the model is called; a cancelled call is no outcome and
 * changes nothing. Consecutive failures are counted so the person sees "failed 3 times in a row" rather than one
 * bad moment. Informational: shown in `/models`, the model picker and Settings; the fallback order stays the
 * configured priority. Kept in memory: after a restart nothing is known until the next call.
 */
import type { ModelHealthView } from '../../../shared/contract/providers';

interface Outcome {
  ok: boolean;
  error: string | null;
  at: number;
  failuresInARow: number;
}

export class ModelHealth {
  private readonly last = new Map<number, Outcome>();

  constructor(private readonly now: () => number = Date.now) {}

  recordSuccess(modelRowId: number): void {
    this.last.set(modelRowId, { ok: true, error: null, at: this.now(), failuresInARow: 0 });
  }

  recordFailure(modelRowId: number, error: string): void {
    const before = this.last.get(modelRowId);
    const inARow = before && !before.ok ? before.failuresInARow + 1 : 1;
    this.last.set(modelRowId, { ok: false, error, at: this.now(), failuresInARow: inARow });
  }

  view(modelRowId: number): ModelHealthView {
    const o = this.last.get(modelRowId);
    if (!o) return { state: 'unknown', error: null, at: null, failuresInARow: 0 };
    return { state: o.ok ? 'ok' : 'failing', error: o.error, at: o.at, failuresInARow: o.failuresInARow };
  }
}
