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

  it("reads the file's own function-like macros and the other shapes of real headers, still marked partial", async () => {
    const src = [
      '#define __exctype(name) extern int name (int) __THROW',
      '#if 1',
      '#define SP_NAME(name) name##_sp',
      '#else',
      '#define SP_NAME(name) name',
      '#endif',
      '#define GCC_DEPRECATED(msg) __attribute__((deprecated))',
      '#define _Attr_access_(x)',
      '__exctype (isalnum);', // ctype.h: a declaration made by a macro
      '__exctype (isalpha);',
      'extern EXPORT(int) SP_NAME(beep) (SCREEN*);', // curses.h: a pasted name
      'extern EXPORT(int) vwprintw (WINDOW *, va_list) GCC_DEPRECATED(use vw_printw) /* implemented */',
      '\t\tGCC_PRINTFLIKE(2,0);',
      'ZEXTERN uLong ZEXPORT crc32 OF((uLong crc, const Bytef *buf));', // zlib: a macro between two names
      'ZEXTERN int ZEXPORTVA gzprintf Z_ARG((gzFile file, const char *format, ...));',
      'XMLPARSEAPI(void *)', // expat: an attribute call alone on its line, inside the declaration
      'XML_ATTR_ALLOC_SIZE(2)',
      'XML_MemMalloc(XML_Parser parser, size_t size);',
      'extern size_t regerror (int code, char *buf) _Attr_access_ ((__write_only__, 3, 4));',
      'extern int __REDIRECT_NTH (crypt_r, (const char *p,', // glibc: a declaration under another symbol
      '\t\tint n), crypt_r64) __wur;',
      'BZ_EXTERN BZFILE * BZ_API(BZ2_bzopen) (const char *path);',
    ].join('\n');
    const outline = (await outlineOf(src, 'x.h'))!;
    expect(outline.problems.length).toBeGreaterThan(0);
    const listed = names(outline.items);
    for (const name of [
      'isalnum',
      'isalpha',
      'beep_sp',
      'vwprintw',
      'crc32',
      'gzprintf',
      'XML_MemMalloc',
      'regerror',
      'crypt_r',
      'BZ2_bzopen',
    ])
      expect(listed).toContain(name);
    expect(listed).not.toContain('beep');
    // Lines stay the lines of the file as written.
    const line = (name: string) =>
      JSON.stringify(outline.items).match(new RegExp(`"name":"${name}","line":(\\d+)`))?.[1];
    expect(line('isalnum')).toBe('9');
    expect(line('crypt_r')).toBe('20');
    expect(line('BZ2_bzopen')).toBe('22');
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
