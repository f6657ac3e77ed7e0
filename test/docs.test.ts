/**
 * The repository stands alone (docs/architecture.md): code cites `docs/`, never the planning files that live
 * outside the clone, and `docs/security-checks.md` names only tests that exist. A failure says which file and line
 * to fix.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const SCANNED = ['src', 'test', 'e2e', 'bench', 'scripts'];
const SKIP = new Set(['node_modules', 'fixtures', 'screenshots']);
const TEXT = /\.(ts|tsx|mts|mjs|cjs|js|json|md)$/;

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : TEXT.test(name) ? [path] : [];
  });
}

/** A citation of a file outside the repository: SPEC.md, reference-facts, or security-checks.md not under docs/. */
export function outsideCitations(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    const cleaned = line.replace(/docs\/security-checks\.md/g, '');
    if (/SPEC\.md|reference-facts|security-checks\.md/.test(cleaned)) found.push(`${i + 1}: ${line.trim()}`);
  });
  return found;
}

/** Each `path` in a table row of the index, with the quoted test names that follow it. */
export function namedTests(markdown: string): { path: string; names: string[]; line: number }[] {
  const out: { path: string; names: string[]; line: number }[] = [];
  markdown.split('\n').forEach((line, i) => {
    if (!line.startsWith('|')) return;
    const tokens = line.matchAll(/`([^`]+\.(?:test|spec)\.tsx?)`|"([^"]+)"/g);
    for (const m of tokens) {
      if (m[1]) out.push({ path: m[1], names: [], line: i + 1 });
      else if (m[2] && out.length && out.at(-1)!.line === i + 1) out.at(-1)!.names.push(m[2]);
    }
  });
  return out;
}

describe('code cites docs/ only', () => {
  it('no file under src, test, e2e, bench or scripts cites SPEC.md, reference-facts or security-checks.md outside docs/', () => {
    const problems = SCANNED.flatMap((dir) => files(join(root, dir)))
      .filter((path) => !path.endsWith(join('test', 'docs.test.ts')))
      .flatMap((path) => outsideCitations(readFileSync(path, 'utf8')).map((hit) => `${relative(root, path)}:${hit}`));
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('the check itself sees each kind of citation and lets docs/ through', () => {
    expect(outsideCitations('// per SPEC.md §3')).toHaveLength(1);
    expect(outsideCitations(' * (reference-facts §5)')).toHaveLength(1);
    expect(outsideCitations('/** security-checks.md F3 */')).toHaveLength(1);
    expect(outsideCitations('// check F3 in docs/security-checks.md; docs/approval.md')).toEqual([]);
  });
});

describe('docs/security-checks.md', () => {
  const index = readFileSync(join(root, 'docs', 'security-checks.md'), 'utf8');

  it('names only test files that exist, and test names that occur in them', () => {
    const named = namedTests(index);
    expect(named.length).toBeGreaterThan(50);
    const problems: string[] = [];
    for (const { path, names, line } of named) {
      const file = join(root, path);
      if (!existsSync(file)) {
        problems.push(`line ${line}: ${path} does not exist`);
        continue;
      }
      const text = readFileSync(file, 'utf8');
      for (const name of names) if (!text.includes(name)) problems.push(`line ${line}: ${path} has no test "${name}"`);
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('the reader of the index sees a missing file and a missing name', () => {
    const rows = namedTests('| X | y | `a/b.test.ts` "one", "two"; `c.spec.ts` "three" |\nnot a row `d.test.ts`');
    expect(rows).toEqual([
      { path: 'a/b.test.ts', names: ['one', 'two'], line: 1 },
      { path: 'c.spec.ts', names: ['three'], line: 1 },
    ]);
  });

  it('defines every check id that code comments use', () => {
    const defined = new Set([...index.matchAll(/^\| ([A-Z]\d{1,2}) \|/gm)].map((m) => m[1]));
    const mentioned = SCANNED.flatMap((dir) => files(join(root, dir))).flatMap((path) =>
      [...readFileSync(path, 'utf8').matchAll(/Check ids \(([^)]+)\) are listed in docs\/security-checks\.md/g)].map(
        (m) => ({ path, ids: m[1]!.split(', ') }),
      ),
    );
    const problems = mentioned.flatMap(({ path, ids }) =>
      ids
        .filter((id) => !defined.has(id) && !index.includes(`**${id}**`))
        .map((id) => `${relative(root, path)}: ${id}`),
    );
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
