/**
 * A new provider kind is one descriptor module plus one line in the list (docs/providers.md "Adding a kind"). The
 * descriptor here is written to a temporary file, and the list (shared/providers/list.ts) is given it as one more
 * line; nothing else changes. Through the real contract, repository, probe, discovery, AI SDK wire and scripted
 * server, the kind is accepted and stored, gets its default address, is tested with its own headers, is found as a
 * local server, streams with its own body fields and reasoning form, and is offered by the renderer's kind picker.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { startScriptedLlm, type ScriptedLlm } from '../../../../test/llm-server/index';
import type { ProviderDescriptor } from '../../../shared/providers/descriptor';

let llm: ScriptedLlm;
let descriptorFile: string;

/** The new kind's module: data and pure functions only, as every descriptor (no import needed). */
const descriptorSource = (baseUrl: string) => `
export const acme = {
  kind: 'acme',
  label: 'Acme Cloud',
  hint: 'Acme models on this computer',
  key: 'optional',
  baseUrl: 'local',
  defaultBaseUrl: ${JSON.stringify(baseUrl)},
  modelHint: 'acme-large',
  wire: 'openai-compatible',
  requestBodyExtras: { acme_trace: { on: true } },
  reasoning: (level) => ({ acme: { acme_thinking: level } }),
  replaysSignedThinking: false,
  messages: 'openai',
  probeHeaders: (apiKey) => ({ accept: 'application/json', ...(apiKey ? { 'x-acme-key': apiKey } : {}) }),
  local: { name: 'Acme (this computer)' },
};
`;

beforeAll(async () => {
  llm = await startScriptedLlm();
  descriptorFile = join(tempDir('skald-new-kind-'), 'acme.mjs');
  writeFileSync(descriptorFile, descriptorSource(llm.baseUrl));
  // The one line a new kind adds to the list.
  vi.doMock('../../../shared/providers/list', async (importOriginal) => {
    const real = await importOriginal<typeof import('../../../shared/providers/list')>();
    const { acme } = (await import(/* @vite-ignore */ descriptorFile)) as { acme: ProviderDescriptor };
    return { PROVIDER_DESCRIPTORS: [...real.PROVIDER_DESCRIPTORS, acme] };
  });
  vi.resetModules();
});
afterAll(async () => {
  vi.doUnmock('../../../shared/providers/list');
  await llm.close();
  cleanupTempDirs();
});

async function app() {
  const { openDatabase, closeDatabase } = await import('../db/database');
  const { SecretStore } = await import('../secrets/secret-store');
  const { createKeyFileCipher } = await import('../secrets/secret-cipher');
  const { ProviderRepository } = await import('./provider-repository');
  const { ModelHealth } = await import('./model-health');
  const { LlmClient } = await import('./llm-client');
  const { createProviderHandlers } = await import('../bridge/providers-handlers');
  const { dispatchCall } = await import('../bridge/dispatch');
  const dir = tempDir('skald-new-kind-db-');
  const db = openDatabase({ file: join(dir, 'skald.db') });
  const repo = new ProviderRepository(db, new SecretStore(db, createKeyFileCipher(dir)));
  const health = new ModelHealth();
  const handlers = createProviderHandlers({
    providers: repo,
    health,
    localBaseUrls: { ollama: 'http://127.0.0.1:9/v1', lm_studio: 'http://127.0.0.1:9/v1' },
  });
  const call = (channel: string, request: unknown) => dispatchCall(handlers as never, channel, request);
  return { db, repo, call, client: new LlmClient({ models: repo, health }), close: () => closeDatabase(db) };
}

describe('a provider kind added by its descriptor and one line in the list', () => {
  it('is stored, tested, discovered and streams in its own form', async () => {
    const { repo, call, client, close } = await app();
    try {
      const created = await call('providers:create', { kind: 'acme', name: 'Acme', apiKey: 'acme-secret' });
      expect(created).toMatchObject({ ok: true, result: { provider: { kind: 'acme', baseUrl: llm.baseUrl } } });

      const probe = await call('providers:probe', { kind: 'acme', apiKey: 'acme-probe' });
      expect(probe).toMatchObject({ ok: true, result: { ok: true, models: ['scripted-1'] } });
      const listed = (await (await fetch(`${llm.baseUrl.replace(/\/v1$/, '')}/__model_requests`)).json()) as {
        headers: Record<string, string>;
      }[];
      expect(listed.at(-1)!.headers).toMatchObject({ 'x-acme-key': 'acme-probe' });
      expect(listed.at(-1)!.headers).not.toHaveProperty('authorization');

      const local = await call('providers:discoverLocal', {});
      expect(local).toMatchObject({
        ok: true,
        result: { found: [{ kind: 'acme', name: 'Acme (this computer)', baseUrl: llm.baseUrl }] },
      });

      const providerId = repo.listProviders()[0]!.id;
      repo.createModel({ providerId, modelId: 'acme-large', reasoning: 'high' });
      llm.script([{ text: 'Hi from Acme.' }]);
      const turn = await client.streamRound({
        modelSelection: 'auto',
        messages: [{ role: 'user', content: 'Say hello' }],
        tools: [],
        signal: new AbortController().signal,
        onTextDelta: () => {},
        onReasoningDelta: () => {},
      });
      expect(turn).toMatchObject({ text: 'Hi from Acme.', modelId: 'acme-large' });
      const request = llm.requests.at(-1)!;
      expect(request.api).toBe('openai');
      expect(request.headers.authorization).toBe('Bearer acme-secret');
      expect(request.body).toMatchObject({ model: 'acme-large', acme_trace: { on: true }, acme_thinking: 'high' });
    } finally {
      close();
    }
  });

  it('is offered by the kind picker with its own name and fields', async () => {
    const kinds = await import('../../../renderer/src/components/settings/provider-kinds');
    expect(kinds.KIND_ORDER.at(-1)).toBe('acme');
    expect(kinds.kindInfo('acme')).toMatchObject({ label: 'Acme Cloud', key: 'optional', baseUrl: 'local' });
    expect(kinds.createRequest({ ...kinds.draftForKind('acme'), apiKey: 'k' })).toEqual({
      kind: 'acme',
      name: 'Acme Cloud',
      apiKey: 'k',
    });
  });
});
