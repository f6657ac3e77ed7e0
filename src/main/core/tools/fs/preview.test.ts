/**
 * The approval card's dry run (docs/approval.md "Approval binding"): each edit tool previews with its own code, so
 * the diff is exactly what it then writes, and an edit the tool would refuse previews as that refusal, never as a
 * diff. Real temp workspace, the real tools.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TN } from '../../../../shared/tool-names';
import { createBuiltinTools, createToolRegistry } from '../index';
import { makeWorkspace, type TestWorkspace } from '../_testing/workspace';

const registry = createToolRegistry(createBuiltinTools({ requestRestart: () => undefined }));
let ws: TestWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const ORIGINAL = 'one\r\ntwo\r\nthree\r\ntwo\r\n';

/** Calls that the tools accept, with aliases and coercions, on a CRLF file (the line tools keep its endings). */
const accepted: [string, Record<string, unknown>][] = [
  [TN.WRITE_FILE, { file: 'f.txt', text: 'all new\n' }],
  [TN.WRITE_FILE, { path: 'new/dir/g.txt', content: 'created' }],
  [TN.EDIT_FILE, { path: 'f.txt', old_string: 'three', new_string: '3' }],
  [TN.EDIT_FILE, { filepath: 'f.txt', old_text: 'two', new_text: '2', replace_all: true }],
  [TN.EDIT_FILE, { path: 'f.txt', old_string: 'one\r\n', new_string: '' }],
  [TN.INSERT_AT_LINE, { file_path: 'f.txt', line_number: '2', text: 'one and a half\n' }],
  [TN.INSERT_AT_LINE, { path: 'f.txt', line: 5, content: 'appended' }],
  [TN.REPLACE_LINES, { path: 'f.txt', start: 2, end: '3', content: 'middle' }],
  [TN.REPLACE_LINES, { path: 'f.txt', start_line: 1, end_line: 4, content: '' }],
];

describe('the preview is what the tool writes', () => {
  for (const [name, args] of accepted) {
    it(`${name} ${JSON.stringify(args)}`, async () => {
      ws.write('f.txt', ORIGINAL);
      const n = registry.normalize(name, args, ws.ctx.workingDir);
      expect(n.ok).toBe(true);
      if (!n.ok) return;
      const preview = registry.preview(name, n.args, ws.ctx);
      expect(preview?.kind).toBe('diff');
      if (preview?.kind !== 'diff') return;
      const target = n.args.path as string;
      expect(preview.oldContent).toBe(target.endsWith('f.txt') ? ORIGINAL : null);
      expect(readFileSync(join(ws.root, 'f.txt'), 'utf8')).toBe(ORIGINAL); // a dry run writes nothing
      const outcome = await registry.run(name, n.args, ws.ctx)!.wait();
      expect(outcome.kind).toBe('completed');
      expect(readFileSync(target, 'utf8')).toBe(preview.newContent);
    });
  }
});

describe('an edit the tool would refuse previews as the refusal, never as a diff', () => {
  const refused: [string, Record<string, unknown>, RegExp][] = [
    [TN.EDIT_FILE, { path: 'f.txt', old_string: 'four', new_string: '4' }, /not found/],
    [TN.EDIT_FILE, { path: 'f.txt', old_string: 'two', new_string: '2' }, /occurs 2 times/],
    [TN.EDIT_FILE, { path: 'f.txt', old_string: 'one', new_string: 'one' }, /identical/],
    [TN.EDIT_FILE, { path: 'missing.txt', old_string: 'a', new_string: 'b' }, /does not exist/],
    [TN.INSERT_AT_LINE, { path: 'f.txt', line: 9, content: 'x' }, /line must be between 1 and 5/],
    [TN.INSERT_AT_LINE, { path: 'f.txt', line: 1, content: '' }, /nothing to insert/],
    [TN.REPLACE_LINES, { path: 'f.txt', start_line: 3, end_line: 2, content: 'x' }, /before start_line/],
    [TN.REPLACE_LINES, { path: 'f.txt', start_line: 1, end_line: 7, content: 'x' }, /past the end/],
    [TN.WRITE_FILE, { path: '.git/config', content: '[core]' }, /protected path/],
    [TN.WRITE_FILE, { path: 'secrets/k', content: 'x' }, /secrets/],
    [TN.WRITE_FILE, { path: '../outside.txt', content: 'x' }, /outside the workspace/],
    [TN.EDIT_FILE, { path: 'f.txt', file: 'other.txt', old_string: 'one', new_string: '1' }, /Both "path" and "file"/],
  ];
  for (const [name, args, why] of refused) {
    it(`${name} ${JSON.stringify(args)}`, async () => {
      ws.write('f.txt', ORIGINAL);
      const preview = registry.preview(name, args, ws.ctx);
      expect(preview).toEqual({ kind: 'refused', reason: expect.stringMatching(why) });
      // The very message the tool gives when it runs.
      const outcome = await registry.run(name, args, ws.ctx)!.wait();
      expect(outcome).toEqual({ kind: 'failed', error: preview?.kind === 'refused' ? preview.reason : '' });
      expect(readFileSync(join(ws.root, 'f.txt'), 'utf8')).toBe(ORIGINAL);
    });
  }
});

describe('other previews', () => {
  it('execute_cmd shows its whole command line; restart shows itself; readers have none', () => {
    const command = `echo ${'a'.repeat(5_000)} && git status`;
    expect(registry.preview(TN.EXECUTE_CMD, { command }, ws.ctx)).toEqual({
      kind: 'command',
      text: `$ ${command}`,
      sandboxedIn: ws.ctx.workingDir,
    });
    expect(registry.preview(TN.RESTART, {}, ws.ctx)).toEqual({ kind: 'command', text: '$ restart' });
    for (const reader of [TN.READ_FILE, TN.LIST_FILES, TN.GREP_FILES, TN.SEARCH_FILE, TN.GET_AST_OUTLINE]) {
      expect(registry.preview(reader, { path: '.', pattern: 'x' }, ws.ctx)).toBeNull();
    }
  });

  it('a file over the preview budget shows no diff (the card falls back to the full arguments)', () => {
    ws.write('big.txt', 'x'.repeat(1024 * 1024 + 1));
    expect(
      registry.preview(TN.EDIT_FILE, { path: 'big.txt', old_string: 'xx', new_string: 'y', replace_all: true }, ws.ctx),
    ).toBeNull();
  });

  it('every tool declares its kind', () => {
    const kinds = Object.fromEntries(
      createBuiltinTools({ requestRestart: () => undefined }).map((t) => [t.name, t.kind]),
    );
    expect(kinds).toMatchObject({
      read_file: 'read',
      list_files: 'read',
      grep_files: 'read',
      search_file: 'read',
      get_ast_outline: 'read',
      write_file: 'edit',
      edit_file: 'edit',
      insert_at_line: 'edit',
      replace_lines: 'edit',
      execute_cmd: 'execute',
      restart: 'execute',
    });
  });
});
