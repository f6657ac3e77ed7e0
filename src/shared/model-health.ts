/** One line for a model's health, shared by `/models`, the model picker and Settings (docs/architecture.md). */
import type { ModelHealthView } from './contract/providers';

/** "ok", "failing: HTTP 401: …(2 in a row)", or "not called yet": one line for `/models` and tooltips. */
export function describeHealth(h: ModelHealthView): string {
  if (h.state === 'unknown') return 'not called yet';
  if (h.state === 'ok') return 'ok';
  return `failing: ${h.error ?? 'unknown error'}${h.failuresInARow > 1 ? ` (${h.failuresInARow} in a row)` : ''}`;
}
