/**
 * The window field where a model is added (model-window.ts): the picked model's listed window fills it until the
 * person types one, what they typed is kept, and a probe answer with or without windows crosses the contract.
 */
import { describe, expect, it } from 'vitest';
import { ProbeResultSchema } from '../../../../shared/contract/providers';
import { listedWindow, windowField, windowRequest } from './model-window';

describe('the add-a-model window field', () => {
  const windows = { 'qwen2.5-7b': 32_768, 'gemini-pro': 1_048_576 };

  it("finds the picked model's listed window, own ids only", () => {
    expect(listedWindow(windows, 'qwen2.5-7b')).toBe(32_768);
    expect(listedWindow(windows, ' gemini-pro ')).toBe(1_048_576);
    expect(listedWindow(windows, 'typed-by-hand')).toBeNull();
    expect(listedWindow(windows, 'constructor')).toBeNull();
    expect(listedWindow(windows, 'toString')).toBeNull();
    expect(listedWindow(undefined, 'qwen2.5-7b')).toBeNull();
  });

  it('shows the listed window until the person types one, and never replaces what they typed', () => {
    expect(windowField(null, 32_768)).toEqual({ value: '32768', fromList: true });
    expect(windowField(null, null)).toEqual({ value: '', fromList: false });
    expect(windowField('16000', 32_768)).toEqual({ value: '16000', fromList: false });
    expect(windowField('16000', null)).toEqual({ value: '16000', fromList: false });
  });

  it('sends the window only when the field has one', () => {
    expect(windowRequest('32768')).toEqual({ contextWindow: 32_768 });
    expect(windowRequest('  ')).toEqual({});
  });

  it('a probe answer parses with windows, without them (an older answer), and refuses a nonsense window', () => {
    expect(
      ProbeResultSchema.parse({ ok: true, models: ['a'], contextWindows: { a: 8_192 }, latencyMs: 3 }),
    ).toMatchObject({ contextWindows: { a: 8_192 } });
    expect(ProbeResultSchema.parse({ ok: true, models: ['a'], latencyMs: 3 })).toEqual({
      ok: true,
      models: ['a'],
      latencyMs: 3,
    });
    expect(
      ProbeResultSchema.safeParse({ ok: true, models: ['a'], contextWindows: { a: 12 }, latencyMs: 3 }).success,
    ).toBe(false);
  });
});
