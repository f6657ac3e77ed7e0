/** `/models` and `/model <N|name|auto>` over a real repository. */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { closeDatabase, openDatabase, type Db } from '../db/database';
import { createKeyFileCipher } from '../secrets/secret-cipher';
import { SecretStore } from '../secrets/secret-store';
import { ModelCatalog } from './model-catalog';
import { ModelHealth } from './model-health';
import { ProviderRepository } from './provider-repository';

let db: Db;
let repo: ProviderRepository;
let health: ModelHealth;
let catalog: ModelCatalog;

beforeEach(() => {
  const dir = tempDir('skald-catalog-');
  db = openDatabase({ file: join(dir, 'skald.db') });
  repo = new ProviderRepository(db, new SecretStore(db, createKeyFileCipher(dir)));
  health = new ModelHealth();
  catalog = new ModelCatalog(repo, health);
});
afterEach(() => {
  closeDatabase(db);
  cleanupTempDirs();
});

function seed() {
  const or = repo.createProvider({ kind: 'openrouter', name: 'OpenRouter' });
  const local = repo.createProvider({ kind: 'ollama', name: 'Local' });
  return [
    repo.createModel({ providerId: or.id, modelId: 'anthropic/claude-sonnet-4', displayName: 'Sonnet' }),
    repo.createModel({ providerId: or.id, modelId: 'openai/gpt-4o', displayName: 'GPT-4o' }),
    repo.createModel({ providerId: local.id, modelId: 'llama3' }),
  ];
}

describe('ModelCatalog', () => {
  it('lists usable models numbered in fallback order, marking the current choice', () => {
    const [, gpt] = seed();
    const auto = catalog.listText(null);
    expect(auto).toContain('1. Sonnet (anthropic/claude-sonnet-4) — OpenRouter');
    expect(auto).toContain('2. GPT-4o (openai/gpt-4o) — OpenRouter');
    expect(auto).toContain('3. llama3 — Local');
    expect(auto).toMatch(/auto — .*← current/);
    const chosen = catalog.listText('openai/gpt-4o');
    expect(chosen).toMatch(/2\. GPT-4o .*← current/);
    expect(chosen).not.toMatch(/auto — .*← current/);
    expect(catalog.listText(null)).not.toContain('failing');
    health.recordFailure(gpt!.id, 'HTTP 401: bad key');
    health.recordFailure(gpt!.id, 'HTTP 401: bad key');
    expect(catalog.listText(null)).toMatch(/2\. GPT-4o .*\(failing: HTTP 401: bad key \(2 in a row\)\)/);
    expect(catalog.listText('removed-model')).toContain('"removed-model" is not configured');
  });

  it('selects by number, id, display name, unique substring, or auto', () => {
    seed();
    expect(catalog.select('2')).toMatchObject({ ok: true, selection: 'openai/gpt-4o' });
    expect(catalog.select('llama3')).toMatchObject({ ok: true, selection: 'llama3' });
    expect(catalog.select('sonnet')).toMatchObject({ ok: true, selection: 'anthropic/claude-sonnet-4' });
    expect(catalog.select('gpt')).toMatchObject({ ok: true, selection: 'openai/gpt-4o' });
    expect(catalog.select(' AUTO ')).toMatchObject({ ok: true, selection: 'auto' });
  });

  it('refuses an unknown, out-of-range or ambiguous choice and shows the list', () => {
    seed();
    const unknown = catalog.select('mistral');
    expect(unknown.ok).toBe(false);
    expect(unknown.message).toContain('There is no model "mistral"');
    expect(unknown.message).toContain('1. Sonnet');
    expect(catalog.select('4').ok).toBe(false);
    expect(catalog.select('0').ok).toBe(false);
    const ambiguous = catalog.select('o'); // in Sonnet and in openai/gpt-4o
    expect(ambiguous.ok).toBe(false);
    expect(ambiguous.message).toContain('matches several models');
  });

  it('says how to add a model when none is configured', () => {
    expect(catalog.listText(null)).toContain('No models are configured');
    expect(catalog.select('1').ok).toBe(false);
  });
});
