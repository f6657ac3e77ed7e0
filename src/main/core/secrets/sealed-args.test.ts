import { describe, expect, it } from 'vitest';
import { createAesGcmCipher } from './secret-cipher';
import {
  callSecrets,
  createSealedArgs,
  isSealedWhole,
  SEALED_KEY,
  unprovenPaths,
  withholdSealed,
  WITHHELD,
} from './sealed-args';

const cipher = createAesGcmCipher(Buffer.alloc(32, 7));
const sealed = createSealedArgs(cipher);
const valuePath = () => [['value']] as const;

describe('sealed arguments', () => {
  it('seals only the declared strings, and opens them again', () => {
    const json = sealed.sealJson('{"key":"k","value":"s3cret","other":"plain"}', valuePath);
    expect(json).not.toContain('s3cret');
    const args = JSON.parse(json) as Record<string, unknown>;
    expect(args.key).toBe('k');
    expect(args.other).toBe('plain');
    expect(Object.keys(args.value as object)).toEqual([SEALED_KEY]);
    expect(sealed.unseal(args, valuePath)).toEqual({ key: 'k', value: 's3cret', other: 'plain' });
  });

  it('reseals an unchanged value to the same ciphertext, so the hash over it is stable', () => {
    const stored = JSON.parse(sealed.sealJson('{"value":"s3cret"}', valuePath)) as Record<string, unknown>;
    const opened = sealed.open(stored, valuePath);
    expect(opened.plain).toEqual({ value: 's3cret' });
    expect(opened.reseal({ ...opened.plain, extra: 1 })).toEqual({ ...stored, extra: 1 });
    // A changed value is sealed anew, never left in plain text.
    expect(JSON.stringify(opened.reseal({ value: 'other' }))).not.toContain('other');
  });

  it('nested paths (a plugin config field), empty values, and text that is not an object', () => {
    const paths = () => [['config', 'api_key']];
    const json = sealed.sealJson('{"name":"p","config":{"api_key":"sk-1","model":"m"}}', paths);
    expect(json).not.toContain('sk-1');
    expect(JSON.parse(json).config.model).toBe('m');
    expect(sealed.sealJson('{"value":""}', valuePath)).toBe('{"value":""}');
    expect(sealed.sealJson('{"config":"x"}', paths)).toBe('{"config":"x"}');
    // Text that is not one JSON object (cut short, trailing text, nested too deep to restate) cannot show where its
    // secret is: it is kept whole, sealed, and opens to the text as sent.
    const deep = `{"value":"s3cret","x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    for (const text of ['not json', '{"value":"s3cret"', '{"value":"s3cret"} and more', deep]) {
      const kept = sealed.sealJson(text, valuePath);
      expect(kept).not.toContain('s3cret');
      const whole = JSON.parse(kept) as Record<string, unknown>;
      expect(isSealedWhole(whole)).toBe(true);
      expect(cipher.decrypt(Buffer.from(whole[SEALED_KEY] as string, 'base64'))).toBe(text);
    }
    // A tool that declares no secret paths keeps its text as sent.
    expect(sealed.sealJson('not json', undefined)).toBe('not json');
  });

  it('opens nothing outside the declared paths and refuses a value it did not seal', () => {
    const foreign = { [SEALED_KEY]: cipher.encrypt('x').toString('base64') };
    expect(sealed.unseal({ note: foreign }, valuePath)).toEqual({ note: foreign });
    expect(() => sealed.unseal({ value: { [SEALED_KEY]: 'AAAA' } }, valuePath)).toThrow();
  });

  it('withholds sealed values in what the model sees', () => {
    const json = sealed.sealJson('{"key":"k","value":"s3cret"}', valuePath);
    expect(withholdSealed(json)).toBe(`{"key":"k","value":"${WITHHELD}"}`);
    expect(withholdSealed('{"a":1}')).toBe('{"a":1}');
  });

  it('callSecrets looks the paths up by tool name', () => {
    const calls = callSecrets(sealed, (name) => (name === 'set_secret' ? valuePath : undefined));
    expect(calls.seal('read_file', '{"value":"v"}')).toBe('{"value":"v"}');
    expect(calls.seal('set_secret', '{"value":"v"}')).not.toContain('"v"');
  });

  it('reveals the sealed values at the declared paths only, with where each sits', () => {
    const paths = () => [['value'], ['config', 'api_key'], ['missing', 'x']];
    const json = sealed.sealJson('{"value":"s3cret","config":{"api_key":"sk-1","model":"m"}}', paths);
    const args = JSON.parse(json) as Record<string, unknown>;
    expect(sealed.reveal(args, paths)).toEqual([
      { path: ['value'], value: 's3cret' },
      { path: ['config', 'api_key'], value: 'sk-1' },
    ]);
    // A sealed-looking value outside the declared paths is not opened; a plain value at one is not "revealed".
    const foreign = { [SEALED_KEY]: cipher.encrypt('x').toString('base64') };
    expect(sealed.reveal({ note: foreign, value: 'plain' }, valuePath)).toEqual([]);
    expect(() => sealed.reveal({ value: { [SEALED_KEY]: 'AAAA' } }, valuePath)).toThrow();
    const calls = callSecrets(sealed, (name) => (name === 'set_secret' ? valuePath : undefined));
    expect(calls.reveal('read_file', args)).toBeNull();
    expect(calls.reveal('set_secret', args)).toEqual([{ path: ['value'], value: 's3cret' }]);
  });

  it('unprovenPaths: every string (and sealed value) below the fields not proven public, through objects and arrays', () => {
    const config = { model: 'm', api_key: 'k', nested: { a: 'x', n: 1 }, list: ['y', { z: 'w' }], flag: true };
    expect(unprovenPaths(config, ['model'], ['config'])).toEqual([
      ['config', 'api_key'],
      ['config', 'nested', 'a'],
      ['config', 'list', '0'],
      ['config', 'list', '1', 'z'],
    ]);
    const json = sealed.sealJson(JSON.stringify({ name: 'p', config }), (args) =>
      unprovenPaths(args.config, [], ['config']),
    );
    for (const value of ['"k"', '"x"', '"y"', '"w"', '"m"']) expect(json).not.toContain(value);
    const paths = (args: Record<string, unknown>) => unprovenPaths(args.config, [], ['config']);
    expect(sealed.unseal(JSON.parse(json) as Record<string, unknown>, paths)).toEqual({ name: 'p', config });
  });
});
