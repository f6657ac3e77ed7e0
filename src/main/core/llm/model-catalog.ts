/**
 * The `/models` and `/model <N|name|auto>` slash commands (docs/architecture.md "Slash commands") over the usable
 * models in priority order, and the one rule both they and the client use to find a model by the user's words:
 * a 1-based number, an exact model id, a case-insensitive model id or display name, or else a unique
 * case-insensitive substring of either. A session stores the chosen model's id (or nothing, for auto).
 *
 * Limits: two providers serving the same model id are told apart only by number; by name the first by
 * priority wins.
 */
import { describeHealth } from '../../../shared/model-health';
import type { ModelHealth } from './model-health';
import type { ModelRecord } from './provider-repository';
import { DEFAULT_CONTEXT_TOKENS } from './context-fit';

export interface ModelSource {
  orderedModels(): ModelRecord[];
}

export type SelectResult =
  | { ok: true; selection: 'auto' | string; message: string }
  | { ok: false; selection: 'auto' | string; message: string };

export function modelLabel(m: ModelRecord): string {
  return m.displayName && m.displayName !== m.modelId ? `${m.displayName} (${m.modelId})` : m.modelId;
}

/** Index in `models` of the model `words` names, `-1` when none, `-2` when a substring matches several. */
export function findModelIndex(models: readonly ModelRecord[], words: string): number {
  const arg = words.trim();
  if (/^\d+$/.test(arg)) {
    const n = Number(arg);
    return n >= 1 && n <= models.length ? n - 1 : -1;
  }
  const exact = models.findIndex((m) => m.modelId === arg);
  if (exact >= 0) return exact;
  const lower = arg.toLowerCase();
  const named = models.findIndex((m) => m.modelId.toLowerCase() === lower || m.displayName.toLowerCase() === lower);
  if (named >= 0 || !lower) return named;
  const partial = models.flatMap((m, i) =>
    m.modelId.toLowerCase().includes(lower) || m.displayName.toLowerCase().includes(lower) ? [i] : [],
  );
  return partial.length === 1 ? partial[0]! : partial.length > 1 ? -2 : -1;
}

export class ModelCatalog {
  constructor(
    private readonly source: ModelSource,
    private readonly health: ModelHealth,
  ) {}

  /** The numbered list for `/models`; `current` is the session's model id, null for auto. */
  listText(current: string | null): string {
    const models = this.source.orderedModels();
    if (models.length === 0) return 'No models are configured. Add a provider and a model in Settings → Models.';
    const currentIndex = current === null ? -1 : models.findIndex((m) => m.modelId === current);
    const lines = models.map((m, i) => {
      const health = this.health.view(m.id);
      const marks = [
        health.state === 'failing' ? `(${describeHealth(health)})` : '',
        i === currentIndex ? '← current' : '',
      ]
        .filter(Boolean)
        .join(' ');
      return `${i + 1}. ${modelLabel(m)} — ${m.providerName}${marks ? ` ${marks}` : ''}`;
    });
    const autoMark =
      current === null
        ? ' ← current'
        : currentIndex < 0
          ? ` (current choice "${current}" is not configured: auto is used)`
          : '';
    return [
      `Models, in fallback order:`,
      ...lines,
      `auto — the first model, falling back down the list${autoMark}`,
      'Choose with /model <N|name|auto>.',
    ].join('\n');
  }

  /** `/model <arg>`: resolves the user's words to a model id or 'auto'. */
  select(arg: string): SelectResult {
    const words = arg.trim();
    if (words.toLowerCase() === 'auto')
      return { ok: true, selection: 'auto', message: 'Model: auto (the first model by priority, with fallback).' };
    const models = this.source.orderedModels();
    const index = findModelIndex(models, words);
    const model = index >= 0 ? models[index] : undefined;
    if (model)
      return { ok: true, selection: model.modelId, message: `Model: ${modelLabel(model)} — ${model.providerName}.` };
    const why =
      index === -2
        ? `"${words}" matches several models; be more precise or use its number.`
        : `There is no model "${words}".`;
    return { ok: false, selection: 'auto', message: `${why}\n\n${this.listText(null)}` };
  }

  /** Aliases in the words of the slash commands. */
  listModelsText(current: string | null = null): string {
    return this.listText(current);
  }

  selectModel(arg: string): SelectResult {
    return this.select(arg);
  }

  /** The model a selection starts at ('auto' or null: the first) and the window its requests are fitted to (`/context`). */
  contextWindowOf(selection: string | null): { model: string; tokens: number; isSet: boolean } | null {
    const models = this.source.orderedModels();
    const index = selection && selection !== 'auto' ? findModelIndex(models, selection) : 0;
    const model = models[Math.max(index, 0)];
    return model
      ? {
          model: model.modelId,
          tokens: model.contextWindow ?? DEFAULT_CONTEXT_TOKENS,
          isSet: model.contextWindow !== null,
        }
      : null;
  }
}
