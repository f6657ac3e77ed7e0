/**
 * Provider kinds stored as text (migration 130, docs/providers.md): the migration keeps every provider and model of a
 * database built at the schema before it (ids, the cascade, the index), and a stored kind this build does not know is
 * a clear error for that provider alone: it is listed, its test says why, its models give way to the next one, and
 * the other providers work as before.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { HELLO, llmFixtureForEachTest, type LlmFixture } from '../../../../test/llm-server/fixture';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { dispatchCall } from '../bridge/dispatch';
import type { BridgeHandlers } from '../bridge/handlers';
import { createProviderHandlers } from '../bridge/providers-handlers';
import { closeDatabase, openDatabase } from '../db/database';
import { applyMigrations } from '../db/migrate';
import { migrations } from '../db/migrations/index';
import { LlmRequestError } from './errors';

const UNKNOWN = 'acme_cloud';

describe('migration 130: kinds as text', () => {
  it('keeps every provider and model with its id, the cascade and the index; any kind can then be stored', () => {
    const file = join(tempDir('skald-kinds-'), 'skald.db');
    const older = new Database(file);
    older.pragma('foreign_keys = ON');
    applyMigrations(
      older,
      migrations.filter((m) => m.version < 130),
    );
    const insertProvider = older.prepare(
      'INSERT INTO llm_providers (id, kind, name, base_url, enabled, created_at, updated_at) VALUES (?, ?, ?, ?, 1, 1, 1)',
    );
    insertProvider.run(7, 'anthropic', 'Claude', 'https://api.anthropic.com/v1');
    insertProvider.run(9, 'ollama', 'Local', 'http://127.0.0.1:11434/v1');
    expect(() => insertProvider.run(10, UNKNOWN, 'Acme', 'https://acme.test/v1')).toThrow(/CHECK/);
    const insertModel = older.prepare(
      "INSERT INTO llm_models (id, provider_id, model_id, priority, reasoning, created_at, updated_at) VALUES (?, ?, ?, ?, 'high', 1, 1)",
    );
    insertModel.run(21, 7, 'claude-x', 0);
    insertModel.run(22, 9, 'llama', 1);
    const before = {
      providers: older.prepare('SELECT * FROM llm_providers ORDER BY id').all(),
      models: older.prepare('SELECT * FROM llm_models ORDER BY id').all(),
    };
    older.close();

    const db = openDatabase({ file });
    try {
      expect(db.prepare('SELECT * FROM llm_providers ORDER BY id').all()).toEqual(before.providers);
      expect(db.prepare('SELECT * FROM llm_models ORDER BY id').all()).toEqual(before.models);
      const schema = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'llm_providers'").get() as { sql: string };
      expect(schema.sql).not.toMatch(/CHECK\s*\(\s*kind/);
      expect(db.pragma('foreign_key_list(llm_models)')).toMatchObject([
        { table: 'llm_providers', from: 'provider_id', to: 'id', on_delete: 'CASCADE' },
      ]);
      expect(db.pragma('foreign_key_check')).toEqual([]);
      expect(
        db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'llm_models_priority'").get(),
      ).toEqual({
        name: 'llm_models_priority',
      });
      expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name LIKE '%_rebuilt'").get()).toEqual({ n: 0 });
      // The other CHECKs and the name's uniqueness stay.
      expect(() =>
        db
          .prepare(
            "INSERT INTO llm_providers (kind, name, base_url, enabled, created_at, updated_at) VALUES (?, 'Claude', 'u', 1, 1, 1)",
          )
          .run(UNKNOWN),
      ).toThrow(/UNIQUE/);
      db.prepare(
        "INSERT INTO llm_providers (kind, name, base_url, enabled, created_at, updated_at) VALUES (?, 'Acme', 'u', 1, 1, 1)",
      ).run(UNKNOWN);
      db.prepare('DELETE FROM llm_providers WHERE id = 7').run();
      expect(db.prepare('SELECT id FROM llm_models').all()).toEqual([{ id: 22 }]);
    } finally {
      closeDatabase(db);
      cleanupTempDirs();
    }
  });
});

describe('a stored kind this build does not know', () => {
  let f: LlmFixture;
  llmFixtureForEachTest((fixture) => (f = fixture));

  /** A provider as a newer Skald might have stored it, with one model, first in priority. */
  function storeUnknownProvider(): number {
    const providerId = Number(
      f.db
        .prepare(
          "INSERT INTO llm_providers (kind, name, base_url, enabled, created_at, updated_at) VALUES (?, 'Acme', ?, 1, 1, 1)",
        )
        .run(UNKNOWN, f.llm.baseUrl).lastInsertRowid,
    );
    f.repo.createModel({ providerId, modelId: 'acme-large', priority: 0 });
    return providerId;
  }

  it('is listed as stored, and its test connection says why it cannot be used', async () => {
    f.addModels('openai_compatible', ['known']);
    const id = storeUnknownProvider();
    const handlers = createProviderHandlers({ providers: f.repo, health: f.health }) as BridgeHandlers;
    const list = await dispatchCall(handlers, 'providers:list', {});
    expect(list).toMatchObject({
      ok: true,
      result: {
        providers: expect.arrayContaining([
          { id, kind: UNKNOWN, name: 'Acme', baseUrl: f.llm.baseUrl, enabled: true, hasKey: false },
        ]),
      },
    });
    const test = await dispatchCall(handlers, 'providers:test', { id });
    expect(test).toMatchObject({
      ok: true,
      result: { ok: false, status: null, message: expect.stringContaining(`provider kind "${UNKNOWN}"`) },
    });
    expect(f.llm.requests).toHaveLength(0);
    // A new provider may only be of a known kind.
    expect(await dispatchCall(handlers, 'providers:create', { kind: UNKNOWN, name: 'Again' })).toMatchObject({
      ok: false,
      error: { code: 'bad_request', message: expect.stringContaining('the provider kind must be one of') },
    });
  });

  it('fails its own models only: the round goes on to the next model, and the notice says why', async () => {
    storeUnknownProvider();
    f.addModels('openai_compatible', ['known']);
    f.llm.script([{ text: 'Hello from the known one.' }]);
    const { turn } = await f.round(HELLO);
    expect(turn).toMatchObject({ text: 'Hello from the known one.', modelId: 'known' });
    expect(f.llm.requests).toHaveLength(1);
    expect(f.events[0]).toMatchObject({
      type: 'model_fallback',
      from: 'acme-large',
      to: 'known',
      reason: expect.stringContaining(`does not know the provider kind "${UNKNOWN}"`),
    });
    expect(f.health.view(f.repo.listModels().find((m) => m.modelId === 'acme-large')!.id).state).toBe('failing');
  });

  it('alone, ends the round with that sentence, not a stack trace', async () => {
    storeUnknownProvider();
    const error = await f.round(HELLO).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmRequestError);
    expect((error as Error).message).toMatch(/^this version of Skald does not know the provider kind "acme_cloud"/);
  });
});
