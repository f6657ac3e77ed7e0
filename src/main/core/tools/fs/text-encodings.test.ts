/**
 * Text files in other encodings (docs/tools.md "Text files and their encodings"), on a real tree: UTF-16 with a BOM in
 * both byte orders and with CRLF lines (what Windows PowerShell's `>` writes), UTF-8 with a BOM, UTF-16 without a BOM
 * and a real binary. Every grep_files engine gives ripgrep's answer (before, the JS engine called UTF-16 binary and
 * kept the BOM in a line's text); read_file, search_file and the outline read UTF-16 as text; the edit tools refuse
 * it with the reason and keep a UTF-8 BOM; write_file's card shows the UTF-16 text it replaces, decoded.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DECODER_LABEL, textEncodingOf } from '../../../../shared/text-encoding';
import { TN } from '../../../../shared/tool-names';
import { createBuiltinTools, createToolRegistry } from '../index';
import { everyGrepEngine, expectEveryEngine } from '../_testing/grep-engines';
import { failed, makeWorkspace, ok, type TestWorkspace } from '../_testing/workspace';
import { getAstOutlineTool } from '../outline/get-ast-outline';
import { editFileTool } from './edit-file';
import { GrepPool } from './grep-pool';
import { readFileTool } from './read-file';
import { searchFileTool } from './search-file';
import { writeFileTool } from './write-file';

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
let ws: TestWorkspace;

beforeEach(() => {
  ws = makeWorkspace();
  ws.write('ps-output.log', utf16le('Directory: C:\\work\r\nneedle in PowerShell output\r\nlast line\r\n'));
  ws.write('big-endian.txt', utf16be('needle, big-endian\nsecond\n'));
  ws.write(
    'with-bom.txt',
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('needle after a BOM\nline two\n')]),
  );
  ws.write('no-bom-utf16.txt', Buffer.from('needle without a mark\n', 'utf16le'));
  ws.write('real.bin', Buffer.concat([Buffer.from('needle'), Buffer.alloc(64), Buffer.from('needle')]));
  ws.write('code.py', utf16le('def needle_here():\n    return 1\n\nclass Found:\n    pass\n'));
});
afterEach(() => ws.cleanup());

describe('grep_files', () => {
  const pool = new GrepPool();
  const engines = everyGrepEngine({ pool, jsPrefixFiles: 2 });
  afterEach(() => pool.close());

  it('every engine reads UTF-16 with a BOM as text and leaves a UTF-8 BOM out of the line, as ripgrep does', async () => {
    const expected = [
      'big-endian.txt:1:needle, big-endian',
      'code.py:1:def needle_here():',
      'ps-output.log:2:needle in PowerShell output',
      'with-bom.txt:1:needle after a BOM',
      '[4 matching lines; end of results]',
    ].join('\n');
    await expectEveryEngine(engines, { pattern: 'needle' }, ws.ctx, expected);
    // Context lines of a UTF-16 file come decoded too (the JS engine reads the file again for them).
    await expectEveryEngine(
      engines,
      { pattern: 'PowerShell', context_lines: 1 },
      ws.ctx,
      'ps-output.log-1-Directory: C:\\work\nps-output.log:2:needle in PowerShell output\nps-output.log-3-last line\n[1 matching line; end of results]',
    );
  });
});

describe('the reading and editing tools', () => {
  it('read_file and search_file read UTF-16 as text, and say so; a UTF-8 BOM is not part of line 1', async () => {
    expect(await ok(readFileTool, { path: 'ps-output.log' }, ws.ctx)).toBe(
      '1\tDirectory: C:\\work\n2\tneedle in PowerShell output\n3\tlast line\n[the file is UTF-16 (little-endian) text: the edit tools refuse it, since they write UTF-8]',
    );
    expect(await ok(readFileTool, { path: 'big-endian.txt' }, ws.ctx)).toMatch(
      /^1\tneedle, big-endian\n2\tsecond\n\[the file is UTF-16 \(big-endian\) text/,
    );
    expect(await ok(readFileTool, { path: 'with-bom.txt' }, ws.ctx)).toBe('1\tneedle after a BOM\n2\tline two');
    expect(await ok(searchFileTool, { path: 'ps-output.log', pattern: 'needle' }, ws.ctx)).toBe(
      '1 matching line in ps-output.log:\n2:needle in PowerShell output',
    );
    // Without a mark, UTF-16 is a binary file, as for ripgrep and git.
    expect(await failed(readFileTool, { path: 'no-bom-utf16.txt' }, ws.ctx)).toMatch(/is a binary file/);
    expect(await failed(readFileTool, { path: 'real.bin' }, ws.ctx)).toMatch(/is a binary file/);
  });

  it('the outline of a UTF-16 source file', async () => {
    expect(await ok(getAstOutlineTool, { path: 'code.py' }, ws.ctx)).toMatch(/needle_here[\s\S]*Found/);
  });

  it('the edit tools refuse UTF-16 with the reason and change nothing; an edit keeps a UTF-8 BOM', async () => {
    const before = readFileSync(join(ws.root, 'ps-output.log'));
    expect(
      await failed(editFileTool, { path: 'ps-output.log', old_string: 'last line', new_string: 'changed' }, ws.ctx),
    ).toBe(
      'ps-output.log is UTF-16 (little-endian) text; the edit tools write UTF-8, which would change every byte of it. Convert it first (execute_cmd: iconv -f UTF-16 -t UTF-8), or rewrite it whole with write_file.',
    );
    expect(readFileSync(join(ws.root, 'ps-output.log')).equals(before)).toBe(true);
    await ok(editFileTool, { path: 'with-bom.txt', old_string: 'line two', new_string: 'line 2' }, ws.ctx);
    expect(readFileSync(join(ws.root, 'with-bom.txt'))).toEqual(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('needle after a BOM\nline 2\n')]),
    );
  });
});

describe('write_file over UTF-16', () => {
  const registry = createToolRegistry(createBuiltinTools({ requestRestart: () => undefined }));

  it('the approval card shows the decoded text it replaces, and the model is told the file is UTF-8 now', async () => {
    const n = registry.normalize(TN.WRITE_FILE, { path: 'ps-output.log', content: 'rewritten\n' }, ws.ctx.workingDir);
    if (!n.ok) throw new Error(n.error);
    expect(registry.preview(TN.WRITE_FILE, n.args, ws.ctx)).toMatchObject({
      kind: 'diff',
      oldContent: 'Directory: C:\\work\r\nneedle in PowerShell output\r\nlast line\r\n',
      newContent: 'rewritten\n',
    });
    expect(await ok(writeFileTool, { path: 'ps-output.log', content: 'rewritten\n' }, ws.ctx)).toBe(
      'Wrote ps-output.log (1 line, 10 bytes); it was UTF-16 (little-endian) text and is UTF-8 now.',
    );
    expect(readFileSync(join(ws.root, 'ps-output.log'), 'utf8')).toBe('rewritten\n');
    expect(await ok(writeFileTool, { path: 'ps-output.log', content: 'again\n' }, ws.ctx)).toBe(
      'Wrote ps-output.log (1 line, 6 bytes).',
    );
  });
});

describe('textEncodingOf (the core and the viewer alike)', () => {
  it('decides by the byte-order mark, else by a NUL in the first 8 KB; TextDecoder reads each without its mark', () => {
    expect(textEncodingOf(Buffer.alloc(0))).toBe('utf8');
    expect(textEncodingOf(Buffer.from([0xff]))).toBe('utf8');
    expect(textEncodingOf(Buffer.concat([Buffer.alloc(9000, 0x61), Buffer.alloc(1)]))).toBe('utf8'); // NUL past 8 KB
    for (const [bytes, encoding] of [
      [utf16le('ab'), 'utf16le'],
      [utf16be('ab'), 'utf16be'],
      [Buffer.from('\uFEFFab'), 'utf8-bom'],
      [Buffer.from('ab'), 'utf8'],
    ] as const) {
      expect(textEncodingOf(bytes)).toBe(encoding);
      expect(new TextDecoder(DECODER_LABEL[encoding]).decode(bytes)).toBe('ab');
    }
  });
});
