/**
 * C2 (static): no module under src/main/core/tools/ imports the approval domain, so no tool executor can reach the
 * rules repository, the bypass store or the Inbox. Outside this folder only the composition root and the bridge
 * handlers may import those stores (the session loop gets the narrow GatePort instead).
 * Check ids (C2) are listed in docs/security-checks.md.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const core = join(__dirname, '..');
const src = join(core, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [p] : [];
  });
}
const approvalDir = join(core, 'approval');
const intoApproval = (file: string, spec: string) =>
  spec.startsWith('.') && resolve(dirname(file), spec).startsWith(approvalDir);
const importsOf = (file: string) =>
  [
    ...readFileSync(file, 'utf8').matchAll(
      /(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
    ),
  ].map((m) => m[1] ?? m[2]!);

describe('C2: tools cannot reach the rules', () => {
  it('no module under tools/ imports anything from approval/', () => {
    const files = sources(join(core, 'tools'));
    expect(files.length).toBeGreaterThan(0);
    const offenders = files.filter((f) => importsOf(f).some((s) => intoApproval(f, s) || /\/approval(\/|$)/.test(s)));
    expect(offenders).toEqual([]);
  });

  it('outside approval/, only the composition root and the bridge handlers import the stores directly', () => {
    const allowed = ['main/core/index.ts', 'main/core/bridge/approval-handlers.ts'];
    const stores = ['rules-repository', 'bypass', 'pending', 'index'].map((m) => join(approvalDir, m));
    const importers = sources(src)
      .filter((f) => !f.startsWith(approvalDir))
      .filter((f) =>
        importsOf(f).some((s) => s.startsWith('.') && stores.includes(resolve(dirname(f), s).replace(/\.ts$/, ''))),
      )
      .map((f) => relative(src, f));
    expect(importers.filter((f) => !allowed.includes(f))).toEqual([]);
    expect(importers).toContain('main/core/bridge/approval-handlers.ts');
  });
});
