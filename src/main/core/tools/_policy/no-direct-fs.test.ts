/**
 * F10: every tool reaches the filesystem through the policy facade. No module under src/main/core/tools/ outside
 * `_policy/` (tests and test support aside) may import `node:fs`, `fs` or `fs/promises`.
 * Check ids (F10) are listed in docs/security-checks.md.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const toolsDir = join(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === '_policy' || name === '_testing' ? [] : sources(full);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [full] : [];
  });
}

const FS_IMPORT = /(?:from\s+|import\s*\(\s*|require\(\s*)['"](?:node:)?fs(?:\/promises)?['"]/;

describe('F10: no tool imports node:fs directly', () => {
  it('finds the tool modules and none of them imports fs', () => {
    const files = sources(toolsDir);
    expect(files.length).toBeGreaterThan(15);
    const offenders = files.filter((f) => FS_IMPORT.test(readFileSync(f, 'utf8'))).map((f) => relative(toolsDir, f));
    expect(offenders).toEqual([]);
  });

  it('the check itself recognises an fs import', () => {
    expect(FS_IMPORT.test("import { readFileSync } from 'node:fs';")).toBe(true);
    expect(FS_IMPORT.test('const fs = require("fs/promises")')).toBe(true);
    expect(FS_IMPORT.test("import { x } from './_policy/fs';")).toBe(false);
  });
});
