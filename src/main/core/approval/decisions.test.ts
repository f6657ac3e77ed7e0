/**
 * The argument hash binds what a card showed to what runs (docs/approval.md "The normalized call"), and hashes stored
 * by an earlier version are compared with new ones (a pending call asked again after a restart): the digest of a
 * given set of arguments must never change, whichever hashing call computes it.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argsBinding, argsHash, canonicalJson } from './decisions';

/**
 * The canonical form as it was first written (entries sorted with `<`, then joined): every hash and MCP fingerprint
 * stored since was made by it, so the form written as loops must give the same text.
 */
function firstCanonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? 'null' : firstCanonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined && typeof v !== 'function')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${firstCanonicalJson(v)}`).join(',')}}`;
}

describe('argsHash', () => {
  it('is the sha256 hex of the canonical JSON, keys sorted at every depth', () => {
    const args = { b: [1, { d: 2, c: null, gone: undefined }], a: 'x' };
    expect(canonicalJson(args)).toBe('{"a":"x","b":[1,{"c":null,"d":2}]}');
    expect(argsHash(args)).toBe('874fbcb0e6da8112d8af27b2afa671653e9d96a92b9e8f8cbb91d36b5469bc59');
    expect(argsHash({ a: 'x', b: [1, { c: null, d: 2 }] })).toBe(argsHash(args));
    expect(argsHash({ a: 'y' })).not.toBe(argsHash({ a: 'x' }));
  });

  it('writes any JSON value as its first form did, keys like "0" and "" included (stored hashes and fingerprints hold)', () => {
    const odd = { b: 1, '': 2, '10': 3, '9': 4, a: [undefined, () => 1, { z: undefined, y: () => 2 }], é: 5, Z: 6 };
    expect(canonicalJson(odd)).toBe(firstCanonicalJson(odd));
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const json = canonicalJson(value);
        expect(json).toBe(firstCanonicalJson(value));
        expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(value))); // JSON itself has no -0
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('argsBinding', () => {
  it('gives each call the hash of its own canonical JSON, whatever came before (the last text hashed is kept)', () => {
    const long = { text: 'x'.repeat(5_000) };
    const calls = [{}, {}, { a: 1 }, { a: 1 }, {}, { a: 2 }, long, long, { a: 2 }, {}, { a: 1 }];
    for (const args of calls) {
      const json = canonicalJson(args);
      const bound = argsBinding(args);
      expect(bound).toEqual({ json, hash: createHash('sha256').update(json).digest('hex') });
      expect(bound.hash).toBe(argsHash(args));
      expect(Object.isFrozen(bound)).toBe(true); // shared by the calls that repeat it
    }
  });
});
