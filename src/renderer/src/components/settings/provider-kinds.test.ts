/** Provider kinds: readable names for every kind, and create requests with only the fields a kind uses. */
import { describe, expect, it } from 'vitest';
import { PROVIDER_KINDS } from '../../../../shared/providers/registry';
import { createRequest, draftForKind, isKnownKind, kindInfo, KIND_ORDER, providerName } from './provider-kinds';

describe('provider kinds', () => {
  it('names every kind in words and lists each once', () => {
    expect([...KIND_ORDER].sort()).toEqual([...PROVIDER_KINDS].sort());
    expect(new Set(KIND_ORDER).size).toBe(KIND_ORDER.length);
    for (const k of PROVIDER_KINDS) expect(kindInfo(k).label).not.toMatch(/_/);
  });
  it('shows a stored kind this version does not know by its name, and asks for its address', () => {
    expect(isKnownKind('acme_cloud')).toBe(false);
    expect(kindInfo('acme_cloud')).toMatchObject({ label: 'acme_cloud', baseUrl: 'required' });
    expect(draftForKind('acme_cloud')).toEqual({ kind: 'acme_cloud', name: 'acme_cloud', baseUrl: '', apiKey: '' });
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
      name: 'h:1',
      baseUrl: 'http://h:1/v1',
    });
  });
  it('names a provider after its host where the address is its own, else after its kind; a typed name wins', () => {
    const generic = { ...draftForKind('openai_compatible'), baseUrl: 'https://api.together.xyz/v1' };
    expect(providerName(generic)).toBe('api.together.xyz');
    expect(providerName({ ...generic, baseUrl: 'http://localhost:8000/v1' })).toBe('localhost:8000');
    expect(providerName({ ...generic, name: 'Together' })).toBe('Together');
    expect(providerName({ ...generic, baseUrl: 'not a url' })).toBe('Other (OpenAI-compatible)');
    expect(providerName(draftForKind('ollama'))).toBe('Ollama');
    expect(providerName({ ...draftForKind('ollama'), baseUrl: 'http://gpu-box:11434/v1' })).toBe('gpu-box:11434');
    expect(providerName(draftForKind('anthropic'))).toBe('Anthropic');
  });
});
