/**
 * Fallback across models (docs/architecture.md "Models and fallback") against the scripted server: 5xx, 429 and network
 * errors move on, other 4xx do not, at most three models per round, a chosen model is tried first, and health counts.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { llmFixtureForEachTest, type LlmFixture } from '../../../../test/llm-server/fixture';
import { LlmRequestError } from './errors';
import type { ChatMessage, LlmEvent } from './types';

let f: LlmFixture;
llmFixtureForEachTest((fixture) => (f = fixture));

const ask: ChatMessage[] = [{ role: 'user', content: 'hi' }];
const modelsAsked = () => f.llm.requests.map((r) => r.body.model);

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

describe('fallback', () => {
  it.each([500, 503, 429])('HTTP %i moves to the next model and reports model_fallback', async (status) => {
    f.addModels('openai_compatible', ['m1', 'm2']);
    f.llm.script([{ status }, { text: 'from m2' }]);
    const perRequest: unknown[] = [];
    const { turn } = await f.round(ask, { onFallback: (e) => perRequest.push(e) });
    expect(turn).toMatchObject({ text: 'from m2', modelId: 'm2' });
    expect(modelsAsked()).toEqual(['m1', 'm2']);
    expect(f.events).toHaveLength(1);
    expect(f.events[0]).toMatchObject({ type: 'model_fallback', from: 'm1', to: 'm2' });
    expect((f.events[0] as Extract<LlmEvent, { type: 'model_fallback' }>).reason).toContain(`HTTP ${status}`);
    expect(perRequest).toEqual([{ from: 'm1', to: 'm2', reason: (f.events[0] as { reason: string }).reason }]);
  });

  it('Anthropic 5xx falls back the same way', async () => {
    f.addModels('anthropic', ['c1', 'c2']);
    f.llm.script([{ status: 529 }, { text: 'from c2' }]);
    const { turn } = await f.round(ask);
    expect(turn.modelId).toBe('c2');
    expect(f.events.map((e) => e.type)).toEqual(['model_fallback']);
  });

  it('HTTP 400 does not fall back: the round fails with llm_failed', async () => {
    f.addModels('openai_compatible', ['m1', 'm2']);
    f.llm.script([{ status: 400, errorMessage: 'bad tool schema' }, { text: 'never' }]);
    const failed: unknown[] = [];
    const error = await f.round(ask, { onFailed: (e) => failed.push(e) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmRequestError);
    expect(error).toMatchObject({ statusCode: 400, tried: ['m1'] });
    expect(modelsAsked()).toEqual(['m1']);
    expect(f.events).toEqual([{ type: 'llm_failed', tried: ['m1'], last_error: expect.stringContaining('HTTP 400') }]);
    expect(failed).toHaveLength(1);
  });

  it('HTTP 401 (a bad key) does not fall back either', async () => {
    f.addModels('openai_compatible', ['m1', 'm2']);
    f.llm.script([{ status: 401 }]);
    await expect(f.round(ask)).rejects.toMatchObject({ statusCode: 401 });
    expect(modelsAsked()).toEqual(['m1']);
  });

  it('tries at most three models, then reports llm_failed with every model tried', async () => {
    f.addModels('openai_compatible', ['m1', 'm2', 'm3', 'm4']);
    f.llm.script([{ status: 500 }, { status: 429 }, { status: 502 }, { text: 'm4 is never asked' }]);
    const error = await f.round(ask).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmRequestError);
    expect(modelsAsked()).toEqual(['m1', 'm2', 'm3']);
    expect(f.events.map((e) => e.type)).toEqual(['model_fallback', 'model_fallback', 'llm_failed']);
    expect(f.events[2]).toEqual({
      type: 'llm_failed',
      tried: ['m1', 'm2', 'm3'],
      last_error: expect.stringContaining('HTTP 502'),
    });
  });

  it('a dropped connection is a network error and falls back', async () => {
    f.addModels('openai_compatible', ['m1', 'm2']);
    f.llm.script([{ dropConnection: true }, { text: 'ok' }]);
    const { turn } = await f.round(ask);
    expect(turn.modelId).toBe('m2');
    expect((f.events[0] as { reason: string }).reason).toMatch(/network/);
  });

  it('an unreachable provider is a network error and falls back to another provider', async () => {
    const dead = f.repo.createProvider({ kind: 'openai_compatible', name: 'dead', baseUrl: await closedPortUrl() });
    f.repo.createModel({ providerId: dead.id, modelId: 'dead-model' });
    f.addModels('openai_compatible', ['alive']);
    f.llm.script([{ text: 'ok' }]);
    const { turn } = await f.round(ask);
    expect(turn.modelId).toBe('alive');
    expect(f.events[0]).toMatchObject({ type: 'model_fallback', from: 'dead-model', to: 'alive' });
  });

  it('a failure after text already streamed does not fall back', async () => {
    f.addModels('openai_compatible', ['m1', 'm2']);
    f.llm.script([{ text: 'one two three four', dropAfterChunks: 3 }, { text: 'never' }]);
    const deltas: string[] = [];
    const error = await f.round(ask, { onTextDelta: (t) => deltas.push(t) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmRequestError);
    expect(deltas.length).toBeGreaterThan(0);
    expect(modelsAsked()).toEqual(['m1']);
    expect(f.events.map((e) => e.type)).toEqual(['llm_failed']);
  });

  it('a chosen model is tried first, and fallback wraps around to the models above it', async () => {
    f.addModels('openai_compatible', ['m1', 'm2', 'm3']);
    f.llm.script([{ status: 500 }, { text: 'from m1' }]);
    const { turn } = await f.round(ask, { modelSelection: 'm3' });
    expect(modelsAsked()).toEqual(['m3', 'm1']);
    expect(turn.modelId).toBe('m1');
  });

  it('a chosen model that is no longer configured falls back to auto and says so', async () => {
    f.addModels('openai_compatible', ['m1']);
    f.llm.script([{ text: 'ok' }]);
    const { turn } = await f.round(ask, { modelSelection: 'gone-model' });
    expect(turn.modelId).toBe('m1');
    expect(f.events).toEqual([
      { type: 'model_fallback', from: 'gone-model', to: 'm1', reason: 'model not configured' },
    ]);
  });

  it('with no model configured the round fails with llm_failed and sends nothing', async () => {
    await expect(f.round(ask)).rejects.toBeInstanceOf(LlmRequestError);
    expect(f.events.map((e) => e.type)).toEqual(['llm_failed']);
    expect(f.llm.requests).toHaveLength(0);
  });

  it('disabled models and providers are skipped', async () => {
    const [m1] = f.addModels('openai_compatible', ['m1', 'm2']);
    f.repo.updateModel({ id: m1!.id, enabled: false });
    f.llm.script([{ text: 'ok' }]);
    expect((await f.round(ask)).turn.modelId).toBe('m2');
  });
});

describe('health', () => {
  it("is the last real call's outcome, with its error: one failure shows, a success clears it", async () => {
    const [m1] = f.addModels('openai_compatible', ['m1']);
    expect(f.health.view(m1!.id)).toMatchObject({ state: 'unknown', error: null });
    for (let i = 1; i <= 2; i++) {
      f.llm.script([{ status: 401, errorMessage: 'invalid api key' }]);
      await expect(f.round(ask)).rejects.toBeInstanceOf(LlmRequestError);
      expect(f.health.view(m1!.id)).toMatchObject({
        state: 'failing',
        error: expect.stringMatching(/HTTP 401.*invalid api key/),
        failuresInARow: i,
      });
    }
    f.llm.script([{ text: 'back' }]);
    await f.round(ask);
    expect(f.health.view(m1!.id)).toMatchObject({ state: 'ok', error: null, failuresInARow: 0 });
  });

  it('a model that failed over to the next one is failing; the one that answered is ok', async () => {
    const [m1, m2] = f.addModels('openai_compatible', ['m1', 'm2']);
    f.llm.script([{ status: 503, errorMessage: 'overloaded' }, { text: 'from m2' }]);
    await f.round(ask);
    expect(f.health.view(m1!.id)).toMatchObject({ state: 'failing', error: expect.stringContaining('503') });
    expect(f.health.view(m2!.id)).toMatchObject({ state: 'ok' });
  });

  it('a cancelled round is not a failure', async () => {
    const [m1] = f.addModels('openai_compatible', ['m1']);
    f.llm.script([{ text: 'slow answer', hangUntilAborted: true }]);
    const controller = new AbortController();
    await expect(
      f.round(ask, { signal: controller.signal, onTextDelta: () => controller.abort() }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(f.health.view(m1!.id).state).toBe('unknown');
  });
});
