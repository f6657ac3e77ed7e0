/**
 * Bad input to the search tools is a short, readable tool error (the model can fix its call), never an
 * "unexpected failure" and never an echo of a huge argument: a 10 MB pattern for grep_files (both engines) and
 * search_file. A folder where a file is wanted is said in the words of the call: read it with list_files, write a file.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGrepFilesTool, grepFilesTool } from '../fs/grep-files';
import { MAX_PATTERN_CHARS } from '../fs/search-engine';
import { readFileTool } from '../fs/read-file';
import { searchFileTool } from '../fs/search-file';
import { writeFileTool } from '../fs/write-file';
import { failed, makeWorkspace, ok, type TestWorkspace } from '../_testing/workspace';

let ws: TestWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
  ws.write('a.txt', 'needle\n');
});
afterEach(() => ws.cleanup());

const jsGrep = createGrepFilesTool({ ripgrepPath: null });

describe('over-long search patterns', () => {
  for (const [label, pattern] of [
    ['10 MB of one letter', 'a'.repeat(10 * 1024 * 1024)],
    ['10 MB of regex syntax', '(a|b)*'.repeat(1024 * 1024 * 2)],
    ['one character over the limit', 'n'.repeat(MAX_PATTERN_CHARS + 1)],
  ] as const) {
    it(`${label}: grep_files (rg and JS) and search_file fail with a short error that does not echo it`, async () => {
      for (const [tool, args] of [
        [grepFilesTool, { pattern }],
        [jsGrep, { pattern }],
        [searchFileTool, { path: 'a.txt', pattern }],
      ] as const) {
        const error = await failed(tool, args, ws.ctx);
        expect(error).toMatch(new RegExp(`pattern: .*${MAX_PATTERN_CHARS}`));
        expect(error).not.toMatch(/failed unexpectedly/);
        expect(error.length).toBeLessThan(300);
      }
    });
  }

  it('a pattern at the limit still searches', async () => {
    const pattern = `needle|${'z'.repeat(MAX_PATTERN_CHARS - 7)}`;
    expect(await ok(grepFilesTool, { pattern }, ws.ctx)).toContain('a.txt:1:needle');
    expect(await ok(searchFileTool, { path: 'a.txt', pattern }, ws.ctx)).toContain('1:needle');
  });
});

describe('a folder where a file is wanted', () => {
  it('a read points at list_files, a write asks for a file name; nothing changes', async () => {
    ws.write('dir/inside.txt', 'x');
    expect(await failed(readFileTool, { path: 'dir' }, ws.ctx)).toBe('dir is a folder; use list_files for folders.');
    expect(await failed(writeFileTool, { path: 'dir', content: 'y' }, ws.ctx)).toBe('dir is a folder; name a file.');
    expect(await ok(readFileTool, { path: 'dir/inside.txt' }, ws.ctx)).toContain('x');
  });
});
