/**
 * C with the macros a parser without the preprocessor cannot expand (`c-macros.ts`), and nested Lua functions
 * (`languages.ts`): the outline lists what the file declares, and a C file that does not parse as read is still
 * marked partial.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blankMacros } from './c-macros';
import type { OutlineItem } from './extract';
import { formatOutline, outlineOf } from './get-ast-outline';
import { outlinePool } from './outline-pool';

const repo = resolve(__dirname, '../../../../..');
const names = (items: readonly OutlineItem[]): string[] => items.flatMap((i) => [i.name, ...names(i.children)]);

afterAll(() => outlinePool().close());

describe('C with macros', () => {
  it('blanks attribute-like macros and keeps offsets, lines, names and code in strings and comments', () => {
    const src = [
      '#define MY_API',
      'MY_API int open_db(const char *name);',
      'extern int close_db (void *db) __THROW __nonnull ((1)) __wur;',
      'ZEXTERN int ZEXPORT deflate OF((void *strm, int flush));',
      'const char *s = "MY_API __THROW"; /* MY_API */',
      'extern NCURSES_EXPORT(int) mvprintw (int, const char *, ...)',
      '\t\tGCC_PRINTFLIKE(2,3);',
    ].join('\n');
    const out = blankMacros(src)!;
    expect(out.length).toBe(src.length);
    expect(out.split('\n').map((l) => l.replace(/\s+/g, ' ').trim())).toEqual([
      '#define MY_API',
      'int open_db(const char *name);',
      'extern int close_db (void *db) ;',
      'int deflate (void *strm, int flush) ;',
      'const char *s = "MY_API __THROW"; /* MY_API */',
      'extern int mvprintw (int, const char *, ...)',
      ';',
    ]);
  });

  it("outlines SQLite's header (every SQLITE_API function) as partial, with the lines tree-sitter stops at", async () => {
    const header = join(repo, 'node_modules/better-sqlite3/deps/sqlite3/sqlite3.h');
    expect(existsSync(header)).toBe(true);
    const text = readFileSync(header, 'utf8');
    const outline = (await outlineOf(text, header))!;
    const declared = [...text.matchAll(/^SQLITE_API [^;(]*?\b(sqlite3_\w+)\(/gm)].map((m) => m[1]!);
    expect(declared.length).toBeGreaterThan(250);
    const listed = new Set(names(outline.items));
    const missing = declared.filter((n) => !listed.has(n));
    expect(missing.length / declared.length).toBeLessThan(0.05);
    expect(outline.problems.length).toBeGreaterThan(0);
    expect(outline.problems[0]!.message).toMatch(/macros it cannot expand/);
  });

  it('leaves a C file without errors as it is', async () => {
    const outline = (await outlineOf('int f(void) { return 0; }\nstruct s { int a; };\n', 'x.c'))!;
    expect(outline.problems).toEqual([]);
    expect(names(outline.items)).toEqual(['f', 's']);
  });
});

describe('Lua', () => {
  it('lists nested functions as children, through if and loop blocks, and functions assigned to names', async () => {
    const src = [
      'local M = {}',
      'function M.a(x)',
      '  local function inner(y) return y end',
      '  if x then',
      '    for i = 1, 2 do',
      '      local function deep() return i end',
      '    end',
      '  end',
      '  local g = function() end',
      '  table.sort(x, function(p, q) return p < q end)',
      '  return inner(x)',
      'end',
      'function M:b() end',
      'M.c, M.d = function() end, 1',
      'local function top() end',
      'return M',
    ].join('\n');
    const outline = (await outlineOf(src, 'm.lua'))!;
    expect(outline.problems).toEqual([]);
    expect(formatOutline(outline.items)).toEqual([
      'L2-12: function M.a(x)',
      '  L3: local function inner(y)',
      '  L6: local function deep()',
      '  L9: g = function() end',
      'L13: function M:b() end',
      'L14: M.c, M.d = function() end, 1',
      'L15: local function top() end',
    ]);
  });
});
