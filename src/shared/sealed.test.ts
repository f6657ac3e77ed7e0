import { describe, expect, it } from 'vitest';
import { hasSealedValue, MASK, maskSealedJson, showSealedJson } from './sealed';

const sealedArgs = JSON.stringify({
  key: 'github.token',
  value: { $sealed: 'QUJD' },
  nested: { api_key: { $sealed: 'REVG' } },
});

describe('sealed arguments as the renderer shows them', () => {
  it('masks every sealed value and never shows its ciphertext', () => {
    const shown = maskSealedJson(sealedArgs);
    expect(shown).not.toContain('QUJD');
    expect(shown).not.toContain('REVG');
    expect(shown.split(MASK).length - 1).toBe(2);
    expect(JSON.parse(shown).key).toBe('github.token');
  });

  it('puts a revealed value only over the sealed value at its path; the others stay masked', () => {
    const shown = JSON.parse(showSealedJson(sealedArgs, [{ path: ['value'], value: 'ghp-1' }])) as Record<
      string,
      unknown
    >;
    expect(shown).toEqual({ key: 'github.token', value: 'ghp-1', nested: { api_key: MASK } });
    // A path that names a plain value, or no value, changes nothing.
    expect(
      JSON.parse(
        showSealedJson(sealedArgs, [
          { path: ['key'], value: 'x' },
          { path: ['nope', 'a'], value: 'y' },
        ]),
      ).key,
    ).toBe('github.token');
  });

  it('tells whether a call holds a sealed value; text that is not JSON is shown as it is', () => {
    expect(hasSealedValue(sealedArgs)).toBe(true);
    expect(hasSealedValue('{"value":"$sealed"}')).toBe(false);
    expect(hasSealedValue('{"$sealed": broken')).toBe(false);
    expect(showSealedJson('not json')).toBe('not json');
  });
});
