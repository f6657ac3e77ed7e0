/**
 * Provider and model configuration in a real SQLite file: defaults, CRUD, write-only keys, and bad input refused
 * with a BridgeError before anything is written. The bridge tests go through `dispatchCall` with the real
 * contract schemas, as both shapes do.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { BridgeError } from '../../../shared/contract/define';
import { PROVIDER_KINDS, providerDescriptor } from '../../../shared/providers/registry';
import { dispatchCall } from '../bridge/dispatch';
import type { BridgeHandlers } from '../bridge/handlers';
import { createProviderHandlers } from '../bridge/providers-handlers';
import { closeDatabase, openDatabase, type Db } from '../db/database';
import { createKeyFileCipher } from '../secrets/secret-cipher';
import { SecretStore } from '../secrets/secret-store';
import { ModelHealth } from './model-health';
import { providerKeyName, ProviderRepository } from './provider-repository';

let db: Db;
let secrets: SecretStore;
let repo: ProviderRepository;
let health: ModelHealth;

beforeEach(() => {
  const dir = tempDir('skald-providers-');
  db = openDatabase({ file: join(dir, 'skald.db') });
  secrets = new SecretStore(db, createKeyFileCipher(dir));
  repo = new ProviderRepository(db, secrets);
  health = new ModelHealth();
});
afterEach(() => {
  closeDatabase(db);
  cleanupTempDirs();
});

const counts = () => ({
  providers: (db.prepare('SELECT count(*) AS n FROM llm_providers').get() as { n: number }).n,
  models: (db.prepare('SELECT count(*) AS n FROM llm_models').get() as { n: number }).n,
  secrets: (db.prepare('SELECT count(*) AS n FROM secrets').get() as { n: number }).n,
});

function expectRefused(write: () => unknown, code = 'invalid_input') {
  const before = counts();
  let caught: unknown;
  try {
    write();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(BridgeError);
  expect((caught as BridgeError).code).toBe(code);
  expect(counts()).toEqual(before);
}

describe('ProviderRepository', () => {
  it('fills in the base URL of every kind that has a default', () => {
    for (const kind of PROVIDER_KINDS) {
      const defaultBaseUrl = providerDescriptor(kind).defaultBaseUrl;
      if (defaultBaseUrl === null) continue; // openai_compatible: the person gives the address
      expect(repo.createProvider({ kind, name: kind }).baseUrl).toBe(defaultBaseUrl);
    }
  });

  it('creates, updates and deletes providers; the key is stored encrypted and only hasKey comes back', () => {
    const p = repo.createProvider({ kind: 'openrouter', name: 'OR', apiKey: 'sk-or-secret-value' });
    expect(p).toEqual({
      id: p.id,
      kind: 'openrouter',
      name: 'OR',
      baseUrl: 'https://openrouter.ai/api/v1',
      enabled: true,
      hasKey: true,
    });
    expect(JSON.stringify(repo.listProviders())).not.toContain('sk-or-secret-value');
    expect(repo.apiKey(p.id)).toBe('sk-or-secret-value');
    const raw = db.prepare('SELECT value FROM secrets WHERE key = ?').get(providerKeyName(p.id)) as { value: Buffer };
    expect(raw.value.includes(Buffer.from('sk-or-secret-value'))).toBe(false);

    expect(repo.updateProvider({ id: p.id, name: 'OpenRouter', enabled: false })).toMatchObject({
      name: 'OpenRouter',
      enabled: false,
    });
    expect(repo.setProviderKey({ id: p.id, apiKey: null }).hasKey).toBe(false);
    expect(repo.apiKey(p.id)).toBeNull();
    repo.setProviderKey({ id: p.id, apiKey: 'new-key' });
    repo.createModel({ providerId: p.id, modelId: 'a' });
    repo.deleteProvider(p.id);
    expect(counts()).toEqual({ providers: 0, models: 0, secrets: 0 });
  });

  it('refuses bad provider input and writes nothing', () => {
    expectRefused(() => repo.createProvider({ kind: 'openai_compatible', name: 'needs url' }));
    expectRefused(() => repo.createProvider({ kind: 'nope', name: 'x' }));
    expectRefused(() => repo.createProvider({ kind: 'open_ai', name: '' }));
    expectRefused(() => repo.createProvider({ kind: 'open_ai', name: '   ' }));
    expectRefused(() => repo.createProvider({ kind: 'open_ai', name: 'x'.repeat(101) }));
    expectRefused(() => repo.createProvider({ kind: 'open_ai', name: 'x', baseUrl: 'file:///etc/passwd' }));
    expectRefused(() => repo.createProvider({ kind: 'open_ai', name: 'x', baseUrl: 'not a url' }));
    expectRefused(() => repo.createProvider({ kind: 'open_ai', name: 'x', apiKey: 'k'.repeat(5_000) }));
    expectRefused(() => repo.createProvider({ kind: 'open_ai', name: 'x', extra: true }));
    repo.createProvider({ kind: 'open_ai', name: 'taken', apiKey: 'k1' });
    expectRefused(() => repo.createProvider({ kind: 'anthropic', name: 'taken', apiKey: 'k2' }), 'conflict');
    expectRefused(() => repo.updateProvider({ id: 999, name: 'x' }), 'not_found');
    expectRefused(() => repo.setProviderKey({ id: 999, apiKey: 'k' }), 'not_found');
  });

  it('creates models in priority order, updates, reorders and deletes them', () => {
    const p = repo.createProvider({ kind: 'ollama', name: 'local' });
    const a = repo.createModel({ providerId: p.id, modelId: 'llama3', displayName: 'Llama 3', contextWindow: 8192 });
    const b = repo.createModel({ providerId: p.id, modelId: 'qwen', inputPricePerM: 0.5, outputPricePerM: 1.5 });
    expect([a.priority, b.priority]).toEqual([0, 1]);
    expect(b).toMatchObject({
      providerName: 'local',
      providerKind: 'ollama',
      baseUrl: 'http://127.0.0.1:11434/v1',
      inputPricePerM: 0.5,
      outputPricePerM: 1.5,
      contextWindow: null,
    });
    expect(repo.orderedModels().map((m) => m.modelId)).toEqual(['llama3', 'qwen']);

    repo.reorderModels({ ids: [b.id, a.id] });
    expect(repo.orderedModels().map((m) => m.modelId)).toEqual(['qwen', 'llama3']);
    expect(repo.updateModel({ id: b.id, inputPricePerM: null, displayName: 'Qwen' })).toMatchObject({
      inputPricePerM: null,
      outputPricePerM: 1.5,
      displayName: 'Qwen',
    });
    repo.updateProvider({ id: p.id, enabled: false });
    expect(repo.orderedModels()).toEqual([]);
    expect(repo.listModels()).toHaveLength(2);
    repo.deleteModel(a.id);
    expect(repo.listModels().map((m) => m.modelId)).toEqual(['qwen']);
  });

  it('refuses bad model input and writes nothing', () => {
    const p = repo.createProvider({ kind: 'ollama', name: 'local' });
    const m = repo.createModel({ providerId: p.id, modelId: 'llama3' });
    expectRefused(() => repo.createModel({ providerId: 999, modelId: 'x' }), 'not_found');
    expectRefused(() => repo.createModel({ providerId: p.id, modelId: '' }));
    expectRefused(() => repo.createModel({ providerId: p.id, modelId: 'x'.repeat(201) }));
    expectRefused(() => repo.createModel({ providerId: p.id, modelId: 'x', inputPricePerM: -1 }));
    expectRefused(() => repo.createModel({ providerId: p.id, modelId: 'x', outputPricePerM: Number.NaN }));
    expectRefused(() => repo.createModel({ providerId: p.id, modelId: 'x', contextWindow: 0 }));
    expectRefused(() => repo.createModel({ providerId: p.id, modelId: 'x', priority: 1.5 }));
    expectRefused(() => repo.createModel({ providerId: p.id, modelId: 'llama3' }), 'conflict');
    expectRefused(() => repo.updateModel({ id: m.id, unknownField: 1 }));
    expectRefused(() => repo.updateModel({ id: 999, displayName: 'x' }), 'not_found');
    const other = repo.createModel({ providerId: p.id, modelId: 'other' });
    const before = repo.listModels().map((x) => [x.id, x.priority]);
    expectRefused(() => repo.reorderModels({ ids: [m.id] }));
    expectRefused(() => repo.reorderModels({ ids: [m.id, m.id] }));
    expectRefused(() => repo.reorderModels({ ids: [m.id, other.id, 999] }));
    expect(repo.listModels().map((x) => [x.id, x.priority])).toEqual(before);
  });
});

describe('providers and models over the bridge', () => {
  const call = (channel: string, request: unknown) =>
    dispatchCall(createProviderHandlers({ providers: repo, health }) as BridgeHandlers, channel, request);

  it('never returns a key, and parses strictly before the handler runs', async () => {
    const created = await call('providers:create', { kind: 'anthropic', name: 'Claude', apiKey: 'sk-ant-xyz' });
    expect(created.ok).toBe(true);
    const listed = await call('providers:list', {});
    expect(JSON.stringify([created, listed])).not.toContain('sk-ant-xyz');
    expect(listed).toEqual({
      ok: true,
      result: { providers: [expect.objectContaining({ name: 'Claude', hasKey: true })] },
    });

    const before = counts();
    expect(await call('providers:create', { kind: 'anthropic', name: 'X', apiKey: 'k', sneaky: 1 })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(await call('providers:setKey', { id: 1 })).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(await call('models:create', { providerId: 1, modelId: 'm', inputPricePerM: 'free' })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(await call('providers:update', { id: 42, name: 'none' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(counts()).toEqual(before);
  });

  it('lists models with their health', async () => {
    const p = repo.createProvider({ kind: 'ollama', name: 'local' });
    const m = repo.createModel({ providerId: p.id, modelId: 'llama3' });
    expect(await call('models:list', {})).toMatchObject({
      ok: true,
      result: { models: [{ health: { state: 'unknown', error: null, at: null } }] },
    });
    health.recordFailure(m.id, 'network error: connection refused');
    expect(await call('models:list', {})).toEqual({
      ok: true,
      result: {
        models: [
          expect.objectContaining({
            modelId: 'llama3',
            providerName: 'local',
            health: {
              state: 'failing',
              error: 'network error: connection refused',
              at: expect.any(Number),
              failuresInARow: 1,
            },
          }),
        ],
      },
    });
    expect(await call('models:reorder', { ids: [m.id] })).toMatchObject({ ok: true });
    expect(await call('models:delete', { id: m.id })).toEqual({ ok: true, result: { ok: true } });
  });
});
