/**
 * The context window field where a model is added (Settings → Models, the first-run guide; docs/ui.md): it shows
 * the window the provider's list gives the picked model, so the request is fitted to it rather than to the 128k
 * assumed (docs/models.md "Fitting the context window"), until the person types one; what they typed is
 * never replaced, and clearing the field hands it back to the list.
 */
import { useState } from 'react';

/** The window a probe's list gives `modelId`, or null (own keys only: a typed id is never looked up on a prototype). */
export function listedWindow(windows: Record<string, number> | undefined, modelId: string): number | null {
  const id = modelId.trim();
  if (!windows || !id || !Object.hasOwn(windows, id)) return null;
  const n = windows[id];
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : null;
}

/** What the field shows, given what the person typed (null: nothing) and what the list says for the picked model. */
export function windowField(typed: string | null, listed: number | null): { value: string; fromList: boolean } {
  if (typed !== null) return { value: typed, fromList: false };
  return { value: listed === null ? '' : String(listed), fromList: listed !== null };
}

/** The field's value as `models:create` takes it: nothing when empty (the core assumes), else the number typed. */
export function windowRequest(value: string): { contextWindow?: number } {
  return value.trim() ? { contextWindow: Number(value) } : {};
}

export function useWindowField(listed: number | null) {
  const [typed, setTyped] = useState<string | null>(null);
  const field = windowField(typed, listed);
  return {
    ...field,
    onChange: (value: string) => setTyped(value.trim() ? value : null),
    reset: () => setTyped(null),
  };
}

/** "131k" for 131072: how the models list shows a window. */
export function windowLabel(tokens: number): string {
  return `${Math.round(tokens / 1000)}k`;
}
