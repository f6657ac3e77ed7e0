/**
 * oxc's raw transfer, set up by `oxc-raw.ts`, gives the same ESTree and errors as oxc's JSON (`parseSync`) on real
 * files: TypeScript with non-ASCII text, a `.d.ts`, a JavaScript bundle (the JavaScript deserializer), and a file that
 * does not parse. These tests run on the main thread, where only texts of 64 K characters and more take raw transfer.
 * The order of the tests matters: the first one sees the thread before raw transfer is set up.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseSync, type ParserOptions } from 'oxc-parser';
import { describe, expect, it } from 'vitest';
import { parseRaw } from './oxc-raw';

const nodeModules = resolve(__dirname, '../../../../../node_modules');
const read = (file: string) => readFileSync(resolve(nodeModules, file), 'utf8');

/** Both parses as one comparable string (BigInt and RegExp values have no JSON form of their own). */
function both(filename: string, text: string, options: ParserOptions): { raw: string; json: string } {
  const raw = parseRaw(filename, text, options);
  expect(raw, 'raw transfer ran').not.toBeNull();
  const json = parseSync(filename, text, options);
  const plain = (_key: string, value: unknown) =>
    typeof value === 'bigint' ? `${value}n` : value instanceof RegExp ? String(value) : value;
  const form = (r: { program: unknown; errors: { severity: string; message: string; labels: unknown }[] }) =>
    JSON.stringify([r.program, r.errors.map((e) => [e.severity, e.message, e.labels])], plain);
  return { raw: form(raw!), json: form(json) };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('oxc raw transfer', () => {
  it('sets itself up after a small text, which goes through JSON meanwhile', async () => {
    const text = read('zod/src/v4/core/schemas.ts'); // 173 K characters: under the size that waits for the setup
    const options: ParserOptions = { lang: 'ts', sourceType: 'module' };
    expect(parseRaw('file.ts', text, options)).toBeNull();
    await nextTurn();
    expect(parseRaw('file.ts', text, options)).not.toBeNull();
    // A big text sets it up at once (here the JavaScript deserializer, not loaded yet).
    expect(
      parseRaw('file.js', read('pdfjs-dist/build/pdf.mjs'), { lang: 'jsx', sourceType: 'unambiguous' }),
    ).not.toBeNull();
  });

  it('gives the JSON parse’s ESTree for TypeScript, .d.ts and JavaScript files', () => {
    const cases: [string, string, ParserOptions][] = [
      ['file.ts', read('zod/src/v4/core/schemas.ts'), { lang: 'ts', sourceType: 'module' }],
      ['file.d.ts', read('@types/node/fs.d.ts'), { lang: 'dts', sourceType: 'module' }],
      ['file.jsx', read('lodash/lodash.js'), { lang: 'jsx', sourceType: 'unambiguous' }],
      // BigInt, RegExp, private names and non-ASCII names, padded past the main thread's threshold.
      [
        'file.jsx',
        `#!/usr/bin/env node\nconst ä = 10n; class A { #p = /x+/g; get [Symbol.iterator]() {} }\n//${' '.repeat(70_000)}`,
        { lang: 'jsx', sourceType: 'unambiguous' },
      ],
    ];
    for (const [filename, text, options] of cases) {
      const { raw, json } = both(filename, text, options);
      expect(raw === json, filename).toBe(true);
    }
  });

  it('gives the same errors for a file that does not parse', () => {
    const lines = read('zod/src/v4/core/schemas.ts').split('\n');
    lines.splice(lines.length >> 1, 0, 'function broken( {');
    const { raw, json } = both('file.ts', lines.join('\n'), { lang: 'ts', sourceType: 'module' });
    expect(raw).toBe(json);
    expect(raw).toContain('"Error"');
  });

  it('leaves small texts on the main thread to the JSON parse', () => {
    expect(parseRaw('file.ts', 'export const a = 1;', { lang: 'ts', sourceType: 'module' })).toBeNull();
  });
});
