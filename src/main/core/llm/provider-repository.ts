/**
 * Providers and models in SQLite (migration 030) with their API keys in the encrypted secret store
 * (`llm.provider.<id>.api_key`). Every write parses its input with the contract's zod schemas first and throws a
 * BridgeError (`invalid_input`, `not_found`, `conflict`) before anything is written; multi-row writes (a provider
 * with its key, a reorder) run in one transaction.
 *
 * A provider's kind is stored as text (migration 130): one this build does not know is still listed, and only its own
 * models fail, with a clear error (llm/llm-client.ts); a new provider may only be of a known kind.
 *
 * Limits: a provider's kind is fixed at creation (delete and re-add to change it). `orderedModels()` returns only
 * usable models (model and provider enabled), by priority then id.
 */
import type { z } from 'zod';
import { BridgeError } from '../../../shared/contract/define';
import {
  ModelCreateSchema,
  ModelReorderSchema,
  ModelUpdateSchema,
  ProviderCreateSchema,
  ProviderSetKeySchema,
  ProviderUpdateSchema,
  type ProviderKind,
  type ReasoningLevel,
} from '../../../shared/contract/providers';
import { providerDescriptor } from '../../../shared/providers/registry';
import { nowMs, type Db } from '../db/database';
import type { SecretStore } from '../secrets/secret-store';

export interface ProviderRecord {
  id: number;
  kind: ProviderKind;
  name: string;
  baseUrl: string;
  enabled: boolean;
  hasKey: boolean;
}

export interface ModelRecord {
  id: number;
  providerId: number;
  providerName: string;
  providerKind: ProviderKind;
  baseUrl: string;
  providerEnabled: boolean;
  modelId: string;
  displayName: string;
  priority: number;
  inputPricePerM: number | null;
  outputPricePerM: number | null;
  contextWindow: number | null;
  /** Sent with every request to the model in its provider's form (llm/reasoning.ts). */
  reasoning: ReasoningLevel;
  enabled: boolean;
}

interface ProviderRow {
  id: number;
  kind: ProviderKind;
  name: string;
  base_url: string;
  enabled: number;
}

interface ModelRow {
  id: number;
  provider_id: number;
  provider_name: string;
  provider_kind: ProviderKind;
  base_url: string;
  provider_enabled: number;
  model_id: string;
  display_name: string;
  priority: number;
  input_price_per_m: number | null;
  output_price_per_m: number | null;
  context_window: number | null;
  reasoning: ReasoningLevel;
  enabled: number;
}

export const providerKeyName = (providerId: number): string => `llm.provider.${providerId}.api_key`;

function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw new BridgeError('invalid_input', `${where}${issue?.message ?? 'invalid input'}`.slice(0, 500));
  }
  return result.data;
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && /UNIQUE constraint failed/.test(error.message);
}

const MODEL_SELECT = `
  SELECT m.*, p.name AS provider_name, p.kind AS provider_kind, p.base_url AS base_url, p.enabled AS provider_enabled
  FROM llm_models m JOIN llm_providers p ON p.id = m.provider_id`;

export class ProviderRepository {
  private readonly s;

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretStore,
  ) {
    this.s = {
      providers: db.prepare('SELECT * FROM llm_providers ORDER BY id'),
      provider: db.prepare('SELECT * FROM llm_providers WHERE id = ?'),
      insertProvider: db.prepare(
        'INSERT INTO llm_providers (kind, name, base_url, enabled, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      updateProvider: db.prepare(
        'UPDATE llm_providers SET name = ?, base_url = ?, enabled = ?, updated_at = ? WHERE id = ?',
      ),
      deleteProvider: db.prepare('DELETE FROM llm_providers WHERE id = ?'),
      models: db.prepare(`${MODEL_SELECT} ORDER BY m.priority, m.id`),
      model: db.prepare(`${MODEL_SELECT} WHERE m.id = ?`),
      maxPriority: db.prepare('SELECT max(priority) AS p FROM llm_models'),
      insertModel: db.prepare(
        `INSERT INTO llm_models (provider_id, model_id, display_name, priority, input_price_per_m, output_price_per_m, context_window, reasoning, enabled, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      updateModel: db.prepare(
        `UPDATE llm_models SET model_id = ?, display_name = ?, priority = ?, input_price_per_m = ?, output_price_per_m = ?, context_window = ?, reasoning = ?, enabled = ?, updated_at = ?
         WHERE id = ?`,
      ),
      setPriority: db.prepare('UPDATE llm_models SET priority = ?, updated_at = ? WHERE id = ?'),
      deleteModel: db.prepare('DELETE FROM llm_models WHERE id = ?'),
    };
  }

  // ── providers ────────────────────────────────────────────────────────────────────────────────────────────

  listProviders(): ProviderRecord[] {
    return (this.s.providers.all() as ProviderRow[]).map((r) => this.toProvider(r));
  }

  getProvider(id: number): ProviderRecord {
    const row = this.s.provider.get(id) as ProviderRow | undefined;
    if (!row) throw new BridgeError('not_found', `There is no provider ${id}.`);
    return this.toProvider(row);
  }

  createProvider(input: unknown): ProviderRecord {
    const p = parse(ProviderCreateSchema, input);
    const baseUrl = p.baseUrl ?? providerDescriptor(p.kind).defaultBaseUrl;
    if (!baseUrl) throw new BridgeError('invalid_input', `baseUrl: a ${p.kind} provider needs a base URL`);
    const id = this.db.transaction(() => {
      const now = nowMs();
      const newId = Number(
        this.insertOrConflict(
          () => this.s.insertProvider.run(p.kind, p.name, baseUrl, p.enabled === false ? 0 : 1, now, now),
          p.name,
        ).lastInsertRowid,
      );
      if (p.apiKey) this.secrets.set(providerKeyName(newId), p.apiKey);
      return newId;
    })();
    return this.getProvider(id);
  }

  updateProvider(input: unknown): ProviderRecord {
    const p = parse(ProviderUpdateSchema, input);
    const current = this.getProvider(p.id);
    const name = p.name ?? current.name;
    this.insertOrConflict(
      () =>
        this.s.updateProvider.run(
          name,
          p.baseUrl ?? current.baseUrl,
          (p.enabled ?? current.enabled) ? 1 : 0,
          nowMs(),
          p.id,
        ),
      name,
    );
    return this.getProvider(p.id);
  }

  deleteProvider(id: number): void {
    this.getProvider(id);
    this.db.transaction(() => {
      this.s.deleteProvider.run(id); // models go with it (ON DELETE CASCADE)
      this.secrets.delete(providerKeyName(id));
    })();
  }

  /** Write-only: stores (or with null removes) the provider's API key; the key is never returned. */
  setProviderKey(input: unknown): ProviderRecord {
    const p = parse(ProviderSetKeySchema, input);
    this.getProvider(p.id);
    this.secrets.set(providerKeyName(p.id), p.apiKey);
    return this.getProvider(p.id);
  }

  /** For the LLM client only: the decrypted key, or null. Never send it over the bridge or log it. */
  apiKey(providerId: number): string | null {
    return this.secrets.get(providerKeyName(providerId));
  }

  // ── models ───────────────────────────────────────────────────────────────────────────────────────────────

  /** Every model, usable or not, by priority. */
  listModels(): ModelRecord[] {
    return (this.s.models.all() as ModelRow[]).map(toModel);
  }

  /** Models that can be called (model and provider enabled), in the order `auto` and fallback try them. */
  orderedModels(): ModelRecord[] {
    return this.listModels().filter((m) => m.enabled && m.providerEnabled);
  }

  getModel(id: number): ModelRecord {
    const row = this.s.model.get(id) as ModelRow | undefined;
    if (!row) throw new BridgeError('not_found', `There is no model ${id}.`);
    return toModel(row);
  }

  createModel(input: unknown): ModelRecord {
    const m = parse(ModelCreateSchema, input);
    this.getProvider(m.providerId);
    const now = nowMs();
    const priority = m.priority ?? ((this.s.maxPriority.get() as { p: number | null }).p ?? -1) + 1;
    const info = this.insertOrConflict(
      () =>
        this.s.insertModel.run(
          m.providerId,
          m.modelId,
          m.displayName ?? '',
          priority,
          m.inputPricePerM ?? null,
          m.outputPricePerM ?? null,
          m.contextWindow ?? null,
          m.reasoning ?? 'off',
          m.enabled === false ? 0 : 1,
          now,
          now,
        ),
      m.modelId,
    );
    return this.getModel(Number(info.lastInsertRowid));
  }

  updateModel(input: unknown): ModelRecord {
    const m = parse(ModelUpdateSchema, input);
    const c = this.getModel(m.id);
    const modelId = m.modelId ?? c.modelId;
    this.insertOrConflict(
      () =>
        this.s.updateModel.run(
          modelId,
          m.displayName ?? c.displayName,
          m.priority ?? c.priority,
          m.inputPricePerM === undefined ? c.inputPricePerM : m.inputPricePerM,
          m.outputPricePerM === undefined ? c.outputPricePerM : m.outputPricePerM,
          m.contextWindow === undefined ? c.contextWindow : m.contextWindow,
          m.reasoning ?? c.reasoning,
          (m.enabled ?? c.enabled) ? 1 : 0,
          nowMs(),
          m.id,
        ),
      modelId,
    );
    return this.getModel(m.id);
  }

  deleteModel(id: number): void {
    this.getModel(id);
    this.s.deleteModel.run(id);
  }

  /** `ids` must name every model exactly once; priorities become 0, 1, 2… in that order. */
  reorderModels(input: unknown): ModelRecord[] {
    const { ids } = parse(ModelReorderSchema, input);
    const existing = this.listModels().map((m) => m.id);
    const given = new Set(ids);
    if (given.size !== ids.length || given.size !== existing.length || existing.some((id) => !given.has(id))) {
      throw new BridgeError('invalid_input', 'ids: list every model exactly once, in the new order');
    }
    this.db.transaction(() => {
      const now = nowMs();
      ids.forEach((id, i) => this.s.setPriority.run(i, now, id));
    })();
    return this.listModels();
  }

  private toProvider(r: ProviderRow): ProviderRecord {
    return {
      id: r.id,
      kind: r.kind,
      name: r.name,
      baseUrl: r.base_url,
      enabled: r.enabled === 1,
      hasKey: this.secrets.has(providerKeyName(r.id)),
    };
  }

  private insertOrConflict<T>(write: () => T, what: string): T {
    try {
      return write();
    } catch (error) {
      if (isUniqueViolation(error)) throw new BridgeError('conflict', `"${what}" already exists.`);
      throw error;
    }
  }
}

function toModel(r: ModelRow): ModelRecord {
  return {
    id: r.id,
    providerId: r.provider_id,
    providerName: r.provider_name,
    providerKind: r.provider_kind,
    baseUrl: r.base_url,
    providerEnabled: r.provider_enabled === 1,
    modelId: r.model_id,
    displayName: r.display_name,
    priority: r.priority,
    inputPricePerM: r.input_price_per_m,
    outputPricePerM: r.output_price_per_m,
    contextWindow: r.context_window,
    reasoning: r.reasoning,
    enabled: r.enabled === 1,
  };
}
