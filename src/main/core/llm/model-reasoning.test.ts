/**
 * The model's reasoning setting in storage and at the contract boundary (docs/models.md "Reasoning"):
 * migration 120 gives every existing model `off`, the column refuses any other value, the repository round-trips
 * it, and a bad value is refused before anything is written, by the repository and over the bridge.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { BridgeError } from '../../../shared/contract/define';
import { dispatchCall } from '../bridge/dispatch';
import type { BridgeHandlers } from '../bridge/handlers';
import { createProviderHandlers } from '../bridge/providers-handlers';
import { closeDatabase, openDatabase, type Db } from '../db/database';
import { migrations } from '../db/migrations/index';
import { createKeyFileCipher } from '../secrets/secret-cipher';
import { SecretStore } from '../secrets/secret-store';
import { ModelHealth } from './model-health';
import { ProviderRepository } from './provider-repository';

let db: Db | null = null;
afterEach(() => {
  if (db) closeDatabase(db);
  db = null;
  cleanupTempDirs();
});

function repoIn(dir: string, database: Db): ProviderRepository {
  return new ProviderRepository(database, new SecretStore(database, createKeyFileCipher(dir)));
}

describe('migration 120', () => {
  it('gives a model saved before it `off`, and the column refuses a value that is not a level', () => {
    const dir = tempDir('skald-reasoning-');
    const file = join(dir, 'skald.db');
    const old = openDatabase({ file, migrations: migrations.filter((m) => m.version < 120) });
    // Written as the app before it did: the repository of this build names the new column.
    old
      .prepare(
        "INSERT INTO llm_providers (id, kind, name, base_url, created_at, updated_at) VALUES (1, 'anthropic', 'Claude', 'https://api.anthropic.com/v1', 0, 0)",
      )
      .run();
    old
      .prepare(
        "INSERT INTO llm_models (id, provider_id, model_id, priority, context_window, created_at, updated_at) VALUES (7, 1, 'claude-old', 0, 200000, 0, 0)",
      )
      .run();
    closeDatabase(old);

    db = openDatabase({ file });
    expect(repoIn(dir, db).getModel(7)).toMatchObject({
      modelId: 'claude-old',
      contextWindow: 200_000,
      reasoning: 'off',
    });
    expect(() => db!.prepare("UPDATE llm_models SET reasoning = 'max' WHERE id = 7").run()).toThrow(
      /CHECK constraint failed/,
    );
    expect(() => db!.prepare('UPDATE llm_models SET reasoning = NULL WHERE id = 7').run()).toThrow(
      /NOT NULL constraint failed/,
    );
  });
});

describe('the repository and the bridge', () => {
  const open = () => {
    const dir = tempDir('skald-reasoning-');
    db = openDatabase({ file: join(dir, 'skald.db') });
    const repo = repoIn(dir, db);
    return { repo, providerId: repo.createProvider({ kind: 'open_ai', name: 'OpenAI', apiKey: 'k' }).id };
  };

  it('round-trips the level: default off, set on create, changed on update, kept when other fields change', () => {
    const { repo, providerId } = open();
    expect(repo.createModel({ providerId, modelId: 'gpt-plain' }).reasoning).toBe('off');
    const m = repo.createModel({ providerId, modelId: 'o-thinker', reasoning: 'high' });
    expect(m.reasoning).toBe('high');
    expect(repo.updateModel({ id: m.id, reasoning: 'low' }).reasoning).toBe('low');
    expect(repo.updateModel({ id: m.id, displayName: 'Thinker' })).toMatchObject({
      displayName: 'Thinker',
      reasoning: 'low',
    });
    expect(repo.updateModel({ id: m.id, reasoning: 'off' }).reasoning).toBe('off');
    expect(repo.orderedModels().map((x) => [x.modelId, x.reasoning])).toEqual([
      ['gpt-plain', 'off'],
      ['o-thinker', 'off'],
    ]);
  });

  it('refuses a bad level before writing anything', async () => {
    const { repo, providerId } = open();
    const m = repo.createModel({ providerId, modelId: 'o-thinker', reasoning: 'medium' });
    for (const bad of ['max', 'HIGH', '', null, 1, true]) {
      expect(() => repo.createModel({ providerId, modelId: 'other', reasoning: bad })).toThrow(BridgeError);
      expect(() => repo.updateModel({ id: m.id, reasoning: bad })).toThrow(/reasoning/);
    }
    const call = (channel: string, request: unknown) =>
      dispatchCall(
        createProviderHandlers({ providers: repo, health: new ModelHealth() }) as BridgeHandlers,
        channel,
        request,
      );
    expect(await call('models:update', { id: m.id, reasoning: 'ultra' })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(await call('models:create', { providerId, modelId: 'other', reasoning: 'xhigh' })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(repo.listModels().map((x) => [x.modelId, x.reasoning])).toEqual([['o-thinker', 'medium']]);

    expect(await call('models:update', { id: m.id, reasoning: 'high' })).toMatchObject({
      ok: true,
      result: { model: { modelId: 'o-thinker', reasoning: 'high' } },
    });
    expect(await call('models:list', {})).toMatchObject({ ok: true, result: { models: [{ reasoning: 'high' }] } });
  });
});
