/**
 * Per-model health, in memory since start (reference-facts.md §15): consecutive failures make a model
 * `degraded` at 3 and `down` at 5; one success resets it. Informational: shown in `/models` and the settings
 * page; fallback order is still the configured priority.
 */
export type HealthState = 'ok' | 'degraded' | 'down';

export const DEGRADED_AFTER = 3;
export const DOWN_AFTER = 5;

export class ModelHealth {
  private readonly failures = new Map<number, number>();

  recordFailure(modelRowId: number): HealthState {
    this.failures.set(modelRowId, (this.failures.get(modelRowId) ?? 0) + 1);
    return this.state(modelRowId);
  }

  recordSuccess(modelRowId: number): void {
    this.failures.delete(modelRowId);
  }

  consecutiveFailures(modelRowId: number): number {
    return this.failures.get(modelRowId) ?? 0;
  }

  state(modelRowId: number): HealthState {
    const n = this.consecutiveFailures(modelRowId);
    return n >= DOWN_AFTER ? 'down' : n >= DEGRADED_AFTER ? 'degraded' : 'ok';
  }
}
