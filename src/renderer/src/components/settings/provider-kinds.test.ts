/** Provider kinds: readable names for every kind, and create requests with only the fields a kind uses. */
import { describe, expect, it } from 'vitest';
import { PROVIDER_KINDS } from '../../../../shared/contract/providers';
import { createRequest, draftForKind, KIND_INFO, KIND_ORDER } from './provider-kinds';

describe('provider kinds', () => {
  it('names every kind in words and lists each once', () => {
    expect([...KIND_ORDER].sort()).toEqual([...PROVIDER_KINDS].sort());
    for (const k of PROVIDER_KINDS) expect(KIND_INFO[k].label).not.toMatch(/_/);
  });
  it('leaves the default address to the core and drops a key a local kind does not use', () => {
    expect(createRequest({ ...draftForKind('open_ai'), apiKey: 'sk-1' })).toEqual({
      kind: 'open_ai',
      name: 'OpenAI',
      apiKey: 'sk-1',
    });
    expect(createRequest({ ...draftForKind('ollama'), apiKey: 'ignored' })).toEqual({ kind: 'ollama', name: 'Ollama' });
    expect(createRequest({ kind: 'openai_compatible', name: ' ', baseUrl: 'http://h:1/v1', apiKey: '' })).toEqual({
      kind: 'openai_compatible',
      name: 'Other (OpenAI-compatible)',
      baseUrl: 'http://h:1/v1',
    });
  });
});
