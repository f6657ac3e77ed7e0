/**
 * The client keeps its language models between rounds (LanguageModels in provider-factory.ts): one model per endpoint
 * and key, rebuilt when the key, the base URL or the model changes; through the real client against the scripted
 * server, a changed key or base URL reaches the next request.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startLlmFixture, type LlmFixture } from '../../../../test/llm-server/fixture';
import { startScriptedLlm } from '../../../../test/llm-server/index';
import { LanguageModels, type ModelEndpoint } from './provider-factory';

const endpoint = (over: Partial<ModelEndpoint> = {}): ModelEndpoint => ({
  providerKind: 'openai_compatible',
  providerName: 'local',
  baseUrl: 'http://127.0.0.1:9/v1',
  modelId: 'm-1',
  ...over,
});

describe('LanguageModels', () => {
  it('builds one model per endpoint and key and hands the same one out again', async () => {
    const models = new LanguageModels();
    const first = await models.get(endpoint(), 'key-a');
    expect(await models.get(endpoint(), 'key-a')).toBe(first);
    for (const other of [
      models.get(endpoint(), 'key-b'),
      models.get(endpoint(), null),
      models.get(endpoint({ baseUrl: 'http://127.0.0.1:10/v1' }), 'key-a'),
      models.get(endpoint({ modelId: 'm-2' }), 'key-a'),
      models.get(endpoint({ providerKind: 'ollama' }), 'key-a'),
      models.get(endpoint({ providerKind: 'anthropic' }), 'key-a'),
    ]) {
      expect(await other).not.toBe(first);
    }
    expect(await models.get(endpoint(), 'key-a')).toBe(first);
  });

  it('keeps the eight most recently used endpoints', async () => {
    const models = new LanguageModels();
    const at = (i: number) => models.get(endpoint({ modelId: `m-${i}` }), 'k');
    const zero = await at(0);
    const one = await at(1);
    for (let i = 2; i < 8; i++) await at(i);
    expect(await at(0)).toBe(zero); // used again: now the most recent
    await at(8); // the ninth: the least recently used (m-1) goes
    expect(await at(0)).toBe(zero);
    expect(await at(1)).not.toBe(one);
  });
});

describe('the client with kept models', () => {
  let f: LlmFixture;
  beforeEach(async () => {
    f = await startLlmFixture();
  });
  afterEach(async () => {
    await f.close();
  });
  const hello = [{ role: 'user' as const, content: 'hi' }];

  it('sends a changed API key and a changed base URL with the next request', async () => {
    const [model] = f.addModels('openai_compatible', ['gpt-test']);
    f.llm.script([{ text: 'one' }, { text: 'two' }]);
    await f.round(hello);
    f.repo.setProviderKey({ id: model!.providerId, apiKey: 'new-key' });
    await f.round(hello);
    expect(f.llm.requests.map((r) => r.headers.authorization)).toEqual(['Bearer test-key', 'Bearer new-key']);

    const other = await startScriptedLlm({ turns: [{ text: 'three' }] });
    try {
      f.repo.updateProvider({ id: model!.providerId, baseUrl: other.baseUrl });
      const { turn } = await f.round(hello);
      expect(turn.text).toBe('three');
      expect(other.requests).toHaveLength(1);
      expect(other.requests[0]!.headers.authorization).toBe('Bearer new-key');
    } finally {
      await other.close();
    }
  });
});
