/**
 * Names a line-by-line result could misread (docs/tools.md "Names in results"), on a real tree: a name with a line
 * break whose second part is the name of another file, a folder whose second line reads `secrets`, a tab, a leading
 * quote, and a name that is not valid UTF-8. Every grep_files engine (JS, rg's stream, rg batch by batch, the two
 * joined) gives the same answer, each hit in its own file, the odd names quoted as JSON strings the model can pass
 * back; list_files shows them the same way; a quoted name passed back quotes and all is told what to do.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { everyGrepEngine, expectEveryEngine } from '../_testing/grep-engines';
import { makeWorkspace, failed, ok, type TestWorkspace } from '../_testing/workspace';
import { listFilesTool } from './list-files';
import { readFileTool } from './read-file';

let ws: TestWorkspace;

beforeEach(() => {
  ws = makeWorkspace();
  ws.write('README.md', 'title\nplain\n');
  ws.write('notes\nREADME.md', 'needle in the odd one\n');
  ws.write('tab\there.txt', 'needle tab\n');
  ws.write('"quoted".txt', 'needle quoted\n');
  mkdirSync(join(ws.root, 'dir\nsecrets'));
  ws.write('dir\nsecrets/x.txt', 'needle deep\n');
  // 0xFF 0xFE are never valid UTF-8: Node reads the name as `bad-\uFFFD\uFFFD.txt`, which names no file.
  writeFileSync(
    Buffer.concat([Buffer.from(`${ws.root}/bad-`), Buffer.from([0xff, 0xfe]), Buffer.from('.txt')]),
    'needle in a name that is not UTF-8\n',
  );
});
afterEach(() => ws.cleanup());

const engines = everyGrepEngine();

describe('grep_files', () => {
  it('content: each hit in its own file, odd names quoted, the name that is not UTF-8 left out, in every engine', async () => {
    const expected = [
      '"\\"quoted\\".txt":1:needle quoted',
      '"notes\\nREADME.md":1:needle in the odd one',
      '"tab\\there.txt":1:needle tab',
      '"dir\\nsecrets/x.txt":1:needle deep',
      '[4 matching lines; end of results]',
    ].join('\n');
    await expectEveryEngine(engines, { pattern: 'needle' }, ws.ctx, expected);
    // With context lines, and a pattern only the odd file's text has: never a hit in README.md.
    await expectEveryEngine(
      engines,
      { pattern: 'odd one', context_lines: 1 },
      ws.ctx,
      '"notes\\nREADME.md":1:needle in the odd one\n[1 matching line; end of results]',
    );
  });

  it('files_only and count name the files the same way', async () => {
    await expectEveryEngine(
      engines,
      { pattern: 'needle', output_mode: 'files_only' },
      ws.ctx,
      '"\\"quoted\\".txt"\n"notes\\nREADME.md"\n"tab\\there.txt"\n"dir\\nsecrets/x.txt"\n[4 files; end of results]',
    );
    await expectEveryEngine(
      engines,
      { pattern: 'needle', output_mode: 'count' },
      ws.ctx,
      '"\\"quoted\\".txt":1\n"notes\\nREADME.md":1\n"tab\\there.txt":1\n"dir\\nsecrets/x.txt":1\n[4 files; end of results]',
    );
  });

  it('a name with a line break that does not match leaves rg its own answer', async () => {
    await expectEveryEngine(
      engines,
      { pattern: 'title' },
      ws.ctx,
      'README.md:1:title\n[1 matching line; end of results]',
    );
  });
});

describe('list_files and read_file', () => {
  it('list_files quotes the odd names and says which name cannot be opened', async () => {
    expect(await ok(listFilesTool, { path: '.', recursive: true }, ws.ctx)).toBe(
      [
        '"\\"quoted\\".txt"',
        'README.md',
        'bad-\uFFFD\uFFFD.txt (its name is not valid UTF-8: it cannot be opened by name)',
        '"dir\\nsecrets"/',
        '"notes\\nREADME.md"',
        '"tab\\there.txt"',
        '"dir\\nsecrets/x.txt"',
        '[7 entries]',
      ].join('\n'),
    );
  });

  it('the name a result quotes opens; passed back with its quotes, the error says what they stand for', async () => {
    expect(await ok(readFileTool, { path: JSON.parse('"notes\\nREADME.md"') as string }, ws.ctx)).toBe(
      '1\tneedle in the odd one',
    );
    const error = await failed(readFileTool, { path: '"notes\\nREADME.md"' }, ws.ctx);
    expect(error).toMatch(/does not exist/);
    expect(error).toContain(
      'A quoted name in a tool\'s result is a JSON string: pass the name itself, "notes\\nREADME.md" as a JSON string',
    );
    expect(await failed(readFileTool, { path: 'nothing.txt' }, ws.ctx)).not.toContain('quoted');
  });
});
