/**
 * Every fs tool against a real temp workspace: the happy path, and each kind of bad input (wrong or missing
 * argument, missing path, non-unique edit) coming back as a readable `failed` outcome with the disk unchanged.
 */
import { chmodSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failed, makeWorkspace, ok, runTool, type TestWorkspace } from '../_testing/workspace';
import { editFileTool } from './edit-file';
import { insertAtLineTool } from './insert-at-line';
import { listFilesTool } from './list-files';
import { MAX_READ_LINES, readFileTool } from './read-file';
import { replaceLinesTool } from './replace-lines';
import { searchFileTool } from './search-file';
import { BACKTRACKING_LIMIT_MS } from './search-engine';
import { writeFileTool } from './write-file';

let ws: TestWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const read = (rel: string) => readFileSync(join(ws.root, rel), 'utf8');

describe('read_file', () => {
  it('numbers lines and pages with offset/limit', async () => {
    ws.write('a.txt', 'one\ntwo\nthree\n');
    expect(await ok(readFileTool, { path: 'a.txt' }, ws.ctx)).toBe('1\tone\n2\ttwo\n3\tthree');
    const page = await ok(readFileTool, { path: 'a.txt', offset: 2, limit: 1 }, ws.ctx);
    expect(page).toContain('2\ttwo');
    expect(page).toContain('offset=3');
  });

  it('accepts numbers sent as strings and file_path as an alias', async () => {
    ws.write('a.txt', 'one\ntwo\n');
    expect(await ok(readFileTool, { file_path: 'a.txt', offset: '2' }, ws.ctx)).toBe('2\ttwo');
  });

  it('caps lines and says how to continue', async () => {
    ws.write('big.txt', Array.from({ length: MAX_READ_LINES + 50 }, (_, i) => `line ${i + 1}`).join('\n'));
    const out = await ok(readFileTool, { path: 'big.txt' }, ws.ctx);
    expect(out.split('\n').filter((l) => /^\s*\d+\t/.test(l))).toHaveLength(MAX_READ_LINES);
    expect(out).toContain(`offset=${MAX_READ_LINES + 1}`);
  });

  it('reports missing files, missing arguments, folders and offsets past the end in words', async () => {
    expect(await failed(readFileTool, { path: 'nope.txt' }, ws.ctx)).toMatch(/does not exist/);
    expect(await failed(readFileTool, {}, ws.ctx)).toMatch(/Invalid arguments for read_file:\n- path/);
    expect(await failed(readFileTool, { path: 42 }, ws.ctx)).toMatch(/path: .*expected string/);
    expect(await failed(readFileTool, { path: '.' }, ws.ctx)).toMatch(/folder/);
    ws.write('a.txt', 'x\n');
    expect(await failed(readFileTool, { path: 'a.txt', offset: 5 }, ws.ctx)).toMatch(/past the end/);
  });

  it('says an empty file is empty', async () => {
    ws.write('e.txt', '');
    expect(await ok(readFileTool, { path: 'e.txt' }, ws.ctx)).toMatch(/empty/);
  });
});

describe('write_file', () => {
  it('creates parents, replaces content and keeps the mode of an existing file', async () => {
    expect(await ok(writeFileTool, { path: 'd/e/f.txt', content: 'hi\n' }, ws.ctx)).toMatch(/^Created d\/e\/f.txt/);
    expect(read('d/e/f.txt')).toBe('hi\n');
    chmodSync(join(ws.root, 'd/e/f.txt'), 0o750);
    expect(await ok(writeFileTool, { path: 'd/e/f.txt', content: 'new' }, ws.ctx)).toMatch(/^Wrote/);
    expect(read('d/e/f.txt')).toBe('new');
    expect(statSync(join(ws.root, 'd/e/f.txt')).mode & 0o777).toBe(0o750);
  });

  it('refuses a folder as the target and leaves no temp files behind', async () => {
    ws.write('dir/x', '1');
    expect(await failed(writeFileTool, { path: 'dir', content: 'x' }, ws.ctx)).toMatch(/folder/);
    expect(await ok(listFilesTool, { path: 'dir' }, ws.ctx)).toBe('x\n[1 entry]');
  });

  it('leaves no temp files behind, after successes and refusals alike', async () => {
    for (let i = 0; i < 20; i++) await ok(writeFileTool, { path: 'd/x.txt', content: `v${i}` }, ws.ctx);
    await failed(writeFileTool, { path: 'd/.git/hooks/pre-commit', content: 'x' }, ws.ctx);
    await failed(writeFileTool, { path: 'd', content: 'x' }, ws.ctx);
    expect(readdirSync(join(ws.root, 'd'))).toEqual(['x.txt']);
    expect(read('d/x.txt')).toBe('v19');
  });

  it('requires content', async () => {
    expect(await failed(writeFileTool, { path: 'a.txt' }, ws.ctx)).toMatch(/content/);
  });
});

describe('edit_file', () => {
  it('replaces a unique match', async () => {
    ws.write('a.ts', 'const a = 1;\nconst b = 2;\n');
    expect(await ok(editFileTool, { path: 'a.ts', old_string: 'b = 2', new_string: 'b = 3' }, ws.ctx)).toMatch(
      /1 occurrence/,
    );
    expect(read('a.ts')).toBe('const a = 1;\nconst b = 3;\n');
  });

  it('refuses a non-unique match, names the lines, and writes nothing', async () => {
    ws.write('a.ts', 'x\nfoo\nx\nfoo\n');
    const error = await failed(editFileTool, { path: 'a.ts', old_string: 'foo', new_string: 'bar' }, ws.ctx);
    expect(error).toMatch(/occurs 2 times .*lines 2, 4.*replace_all/s);
    expect(read('a.ts')).toBe('x\nfoo\nx\nfoo\n');
  });

  it('replace_all replaces every occurrence, including $-patterns literally', async () => {
    ws.write('a.ts', 'foo foo foo');
    expect(
      await ok(editFileTool, { path: 'a.ts', old_string: 'foo', new_string: '$&$1', replace_all: true }, ws.ctx),
    ).toMatch(/3 occurrences/);
    expect(read('a.ts')).toBe('$&$1 $&$1 $&$1');
    ws.write('b.ts', 'foo');
    await ok(editFileTool, { path: 'b.ts', old_string: 'foo', new_string: '$&x' }, ws.ctx);
    expect(read('b.ts')).toBe('$&x');
  });

  it('explains a missing match and identical strings without changing the file', async () => {
    ws.write('a.ts', 'abc');
    expect(await failed(editFileTool, { path: 'a.ts', old_string: 'zzz', new_string: 'y' }, ws.ctx)).toMatch(
      /not found/,
    );
    expect(await failed(editFileTool, { path: 'a.ts', old_string: 'abc', new_string: 'abc' }, ws.ctx)).toMatch(
      /identical/,
    );
    expect(await failed(editFileTool, { path: 'gone.ts', old_string: 'a', new_string: 'b' }, ws.ctx)).toMatch(
      /does not exist/,
    );
    expect(read('a.ts')).toBe('abc');
  });

  it('refuses binary files', async () => {
    ws.write('b.bin', Buffer.from([1, 0, 2, 3]));
    expect(await failed(editFileTool, { path: 'b.bin', old_string: '\u0001', new_string: 'x' }, ws.ctx)).toMatch(
      /binary/,
    );
  });
});

describe('insert_at_line and replace_lines', () => {
  it('inserts before a line, appends at last+1, keeps CRLF', async () => {
    ws.write('a.txt', 'a\r\nb\r\n');
    await ok(insertAtLineTool, { path: 'a.txt', line: 2, content: 'x\n' }, ws.ctx);
    expect(read('a.txt')).toBe('a\r\nx\r\nb\r\n');
    await ok(insertAtLineTool, { path: 'a.txt', line: 4, content: 'end' }, ws.ctx);
    expect(read('a.txt')).toBe('a\r\nx\r\nb\r\nend\r\n');
    expect(await failed(insertAtLineTool, { path: 'a.txt', line: 9, content: 'z' }, ws.ctx)).toMatch(/between 1 and 5/);
    expect(read('a.txt')).toBe('a\r\nx\r\nb\r\nend\r\n');
  });

  it('replaces and deletes ranges, refusing bad ranges', async () => {
    ws.write('a.txt', '1\n2\n3\n4\n');
    await ok(replaceLinesTool, { path: 'a.txt', start_line: 2, end_line: 3, content: 'two\nthree\nmore' }, ws.ctx);
    expect(read('a.txt')).toBe('1\ntwo\nthree\nmore\n4\n');
    await ok(replaceLinesTool, { path: 'a.txt', start_line: 1, end_line: 1, content: '' }, ws.ctx);
    expect(read('a.txt')).toBe('two\nthree\nmore\n4\n');
    expect(await failed(replaceLinesTool, { path: 'a.txt', start_line: 3, end_line: 2, content: 'x' }, ws.ctx)).toMatch(
      /before start_line/,
    );
    expect(
      await failed(replaceLinesTool, { path: 'a.txt', start_line: 1, end_line: 99, content: 'x' }, ws.ctx),
    ).toMatch(/past the end/);
    expect(await failed(replaceLinesTool, { path: 'a.txt', start_line: 0, end_line: 1, content: 'x' }, ws.ctx)).toMatch(
      /start_line/,
    );
    expect(read('a.txt')).toBe('two\nthree\nmore\n4\n');
  });
});

describe('search_file', () => {
  it('finds matching lines with context and case folding', async () => {
    ws.write('a.txt', 'alpha\nBeta\ngamma\nbeta2\n');
    expect(await ok(searchFileTool, { path: 'a.txt', pattern: 'beta' }, ws.ctx)).toBe(
      '1 matching line in a.txt:\n4:beta2',
    );
    const ci = await ok(
      searchFileTool,
      { path: 'a.txt', pattern: '^b', case_insensitive: true, context_lines: 1 },
      ws.ctx,
    );
    expect(ci).toBe('2 matching lines in a.txt:\n1-alpha\n2:Beta\n3-gamma\n4:beta2');
  });

  it("a pattern that backtracks without end over a line ends at once, with the answer (V8's linear-time engine takes over)", async () => {
    ws.write('a.txt', `${'a'.repeat(64)}b\n${'a'.repeat(64)}\n`);
    // Backtracking alone tries 2^64 ways on the first line: the search would never end, and nothing could stop it.
    expect(await ok(searchFileTool, { path: 'a.txt', pattern: '(a+)+$' }, ws.ctx)).toBe(
      `1 matching line in a.txt:\n2:${'a'.repeat(64)}`,
    );
    expect(await ok(searchFileTool, { path: 'a.txt', pattern: '(a|aa)*c' }, ws.ctx)).toMatch(/No lines/);
  }, 20_000);

  it('look-around or back-references that backtrack without end are stopped after the time limit, saying why', async () => {
    ws.write('a.txt', `${'a'.repeat(40)}b\nfoobar\nxx\n`);
    expect(await ok(searchFileTool, { path: 'a.txt', pattern: 'foo(?=bar)' }, ws.ctx)).toBe(
      '1 matching line in a.txt:\n2:foobar',
    );
    expect(await ok(searchFileTool, { path: 'a.txt', pattern: '(x)\\1' }, ws.ctx)).toBe(
      '1 matching line in a.txt:\n3:xx',
    );
    // No linear-time form exists for this one: 2^40 ways to split the a's, tried on the app's thread.
    const started = Date.now();
    expect(await failed(searchFileTool, { path: 'a.txt', pattern: '^(?=(a+)+$)x' }, ws.ctx)).toMatch(
      /^the pattern was stopped after 3 s on one file: with look-around or back-references/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(BACKTRACKING_LIMIT_MS - 50);
  }, 20_000);

  it('explains an invalid regex and no matches', async () => {
    ws.write('a.txt', 'x');
    expect(await failed(searchFileTool, { path: 'a.txt', pattern: '(' }, ws.ctx)).toMatch(
      /not a valid regular expression/,
    );
    expect(await ok(searchFileTool, { path: 'a.txt', pattern: 'y' }, ws.ctx)).toMatch(/No lines/);
  });
});

describe('list_files', () => {
  it('lists one level, or the tree, relative to the folder, skipping SKIP_DIRS contents', async () => {
    ws.write('src/a.ts', '');
    ws.write('src/deep/b.ts', '');
    ws.write('node_modules/x/index.js', '');
    ws.write('README.md', '');
    expect(await ok(listFilesTool, {}, ws.ctx)).toBe('README.md\nnode_modules/\nsrc/\n[3 entries]');
    expect(await ok(listFilesTool, { path: 'src', recursive: true }, ws.ctx)).toBe(
      'a.ts\ndeep/\ndeep/b.ts\n[3 entries]',
    );
    const all = await ok(listFilesTool, { recursive: true }, ws.ctx);
    expect(all).toContain('node_modules/ (not listed)');
    expect(all).not.toContain('index.js');
    expect(await ok(listFilesTool, { recursive: true, limit: 2 }, ws.ctx)).toMatch(/first 2 entries shown/);
  });

  it('reports a missing folder and a file given as folder', async () => {
    ws.write('f.txt', '');
    expect(await failed(listFilesTool, { path: 'nope' }, ws.ctx)).toMatch(/does not exist/);
    expect(await failed(listFilesTool, { path: 'f.txt' }, ws.ctx)).toMatch(/not a folder/);
  });
});

describe('labels and target paths', () => {
  it('single-file tools advertise their path; labels fit the budgets', async () => {
    const long = `${'very/'.repeat(40)}file.txt`;
    for (const tool of [
      readFileTool,
      writeFileTool,
      editFileTool,
      insertAtLineTool,
      replaceLinesTool,
      searchFileTool,
    ]) {
      const args = {
        path: long,
        content: 'x',
        old_string: 'a',
        new_string: 'b',
        line: 1,
        start_line: 1,
        end_line: 1,
        pattern: 'p',
      };
      expect(tool.targetPath(args)).toBe(long);
      expect(Array.from(tool.describe(args, 'short')).length).toBeLessThanOrEqual(60);
      expect(Array.from(tool.describe(args, 'full')).length).toBeLessThanOrEqual(120);
    }
    expect(listFilesTool.targetPath({ path: 'src' })).toBeNull();
    expect(readFileTool.describe({ path: 'a.ts' }, 'short')).toBe('read_file `a.ts`');
    const outcome = await runTool(readFileTool, { path: 'x' }, ws.ctx);
    expect(outcome.kind).toBe('failed');
  });
});
