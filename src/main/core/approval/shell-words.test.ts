/**
 * The word model against real bash: for each word, what `expandWord` says bash passes to a program must be what
 * bash really passes (`printf '%s\0' <word>` run by bash in the same folder, with the same variables), or the
 * model must say "unknown". Quoting and escape forms, ANSI-C strings, braces, tildes, variables and globs over a
 * real folder with a secrets/ directory, a dotfile and a symlink.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createParser } from '../treesitter/grammars';
import type { Parser } from 'web-tree-sitter';
import { expandWords, groupWords, type WordEnv } from './shell-words';

let dir: string;
let parser: Parser;
const VARS: Record<string, string> = { HOME: '/home/tester', PLAIN: 'secrets', SPACED: 'a b', STAR: 's*' };
const env: WordEnv = { variable: (n) => VARS[n], home: VARS.HOME! };

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'skald-words-')));
  for (const f of ['secrets/key.txt', 'secrets/b.txt', 'notes/a.md', 'notes/b.md', '.hidden', 'sec-x', 'Secrets2/k']) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), 'x');
  }
  symlinkSync('secrets', join(dir, 'link'));
  parser = await createParser('bash');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function model(word: string) {
  const tree = parser.parse(`printf %s ${word}`)!;
  const cmd = tree.rootNode.namedChildren[0]!;
  const args = cmd
    .childrenForFieldName('argument')
    .slice(1)
    .filter((a) => a !== null);
  const results = groupWords(args).map((g) => expandWords(g, env, [dir]));
  tree.delete();
  return { isKnown: results.every((r) => r.isKnown), values: results.flatMap((r) => r.values) };
}

function bash(word: string): string[] {
  const out = execFileSync('/bin/bash', ['--noprofile', '--norc', '-c', `printf '%s\\0' ${word}`], {
    cwd: dir,
    env: { ...VARS, PATH: process.env.PATH },
    encoding: 'utf8',
  });
  return out.split('\0').slice(0, -1);
}

const WORDS = [
  // quote and escape removal
  'secrets/key.txt',
  's\\ecrets/key.txt',
  '"sec"rets/key.txt',
  "sec''rets/key.txt",
  "'secrets'/key.txt",
  '"secrets/key.txt"',
  's"e"c\'r\'e\\ts/key.txt',
  '\\s\\e\\c\\r\\e\\t\\s',
  '.git\\/hooks/pre-commit',
  '.gi\\t/hooks/pre-commit',
  '..\\/x',
  '"..\\/x"',
  '"a\\$b"',
  "'a\\b'",
  '"a\\qb"',
  'a\\\\b',
  '"\\\\"',
  // ANSI-C and translated strings
  "$'\\x73ecrets'/key.txt",
  "$'\\163ecrets'",
  "$'sec\\u0072ets'",
  "$'a\\tb'",
  "$'\\''",
  "$'a\\0b'",
  '$"secrets"',
  "$'\\cA'",
  // braces
  '{a,b}',
  '{secrets,notes}/key.txt',
  'x{1..3}',
  '{a..c}',
  '{01..03}',
  '{5..1..2}',
  '{a,{b,c}}d',
  '"{a,b}"',
  '{a}',
  '{}',
  'a{,b}',
  // tilde
  '~',
  '~/x',
  '"~"/x',
  '\\~/x',
  // variables
  '$PLAIN/key.txt',
  '${PLAIN}',
  '"$PLAIN"',
  '"x${PLAIN}y"',
  '\\$PLAIN',
  'a$',
  '"a$"',
  'a$"b"c',
  '$',
  '"$"',
  'é"x"$PLAIN',
  // globs
  'secre*/key.txt',
  './secret[s]/key.txt',
  'sec?ets/*',
  '*',
  '.*',
  'notes/*.md',
  's*',
  '[s]ecrets',
  '"secre*"/key.txt',
  'secre\\*',
  '[!n]otes',
  '[[:alpha:]]ecrets/key.txt',
  'no-match-*',
  '*/key.txt',
  'l?nk/*',
  '*/',
  '[a-t]ecrets',
];

describe('expandWord agrees with bash', () => {
  for (const word of WORDS) {
    it(word, () => {
      const m = model(word);
      expect(m.isKnown).toBe(true);
      expect(m.values).toEqual(bash(word));
    });
  }

  // Computed at run time: the model must not claim a value.
  for (const word of [
    '$(echo secrets)',
    '`echo secrets`',
    '$((1+1))',
    '${PLAIN:-x}',
    '$SPACED',
    '$STAR',
    '$1',
    '$_',
    '$@',
    '~root/x',
    '${#PLAIN}',
    '"$(id)"',
    '<(ls)',
    '$UNSET_VAR',
  ]) {
    it(`unknown: ${word}`, () => {
      expect(model(word).isKnown).toBe(false);
    });
  }
});
