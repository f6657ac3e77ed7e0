/**
 * The Settings store over the real core and the scripted LLM: load, test connection with the stored key,
 * refusals returned as the core's message with nothing written, model order, app settings and the theme.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../llm-server/index';
import { installRealBridge, type RealBridge } from './real-bridge';

let bridge: RealBridge;
let llm: ScriptedLlm;
let store: typeof import('../../src/renderer/src/stores/settings-store');
beforeAll(async () => {
  bridge = await installRealBridge();
  llm = await startScriptedLlm();
  store = await import('../../src/renderer/src/stores/settings-store');
});
afterAll(async () => {
  await llm.close();
  await bridge.close();
});
const state = () => store.settingsStore.getState();

describe('settings store', () => {
  it('tests a saved provider with its stored key and keeps the answer per provider', async () => {
    const { provider } = await bridge.skald.providers.create({
      kind: 'openai_compatible',
      name: 'Scripted',
      baseUrl: llm.baseUrl,
      apiKey: 'k-1',
    });
    await store.loadSettings();
    expect(state()).toMatchObject({
      loaded: true,
      providers: [{ name: 'Scripted', hasKey: true }],
      app: { theme: 'system' },
    });
    expect(JSON.stringify(state())).not.toContain('k-1');
    const result = await store.testProvider(provider.id);
    expect(result).toMatchObject({ ok: true, models: ['scripted-1'] });
    expect(state().tests[provider.id]).toEqual(result);
  });

  it("returns a refusal as the core's message and writes nothing; reorders models", async () => {
    const providerId = state().providers[0]!.id;
    expect(await store.settingsWrite(() => bridge.skald.models.create({ providerId, modelId: '  ' }))).toMatch(
      /model id is required/,
    );
    expect(state().models).toEqual([]);
    await store.settingsWrite(() => bridge.skald.models.create({ providerId, modelId: 'a' }));
    await store.settingsWrite(() => bridge.skald.models.create({ providerId, modelId: 'b' }));
    await store.moveModel(state().models[1]!.id, -1);
    expect(state().models.map((m) => m.modelId)).toEqual(['b', 'a']);
  });

  it('saves app settings through the core and refuses a folder that is not one', async () => {
    expect(await store.setAppSettings({ defaultWorkingDirectory: '/definitely/not/here' })).toMatch(/Not a directory/);
    expect(state().app?.defaultWorkingDirectory).toBeNull();
    expect(await store.setAppSettings({ theme: 'dark' })).toBeNull();
    expect(state().app?.theme).toBe('dark');
    expect((await bridge.skald.app.getSettings({})).settings.theme).toBe('dark');
  });
});
