/**
 * The programs the tests use (scripts/test-prerequisites.mjs): found on a PATH of real folders with real executables;
 * what is missing is said in one line with the packages that install it; `--debian` prints those packages for .ci/run;
 * and the README lists every program, so the three readers of the one list cannot drift apart.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { missingLine, missingPrograms, TEST_PROGRAMS } from '../scripts/test-prerequisites.mjs';

const ROOT = join(import.meta.dirname, '..');
let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A folder holding executables named `names` (and `rg` as a plain file, not executable). */
function binFolder(names: string[]): string {
  dir = mkdtempSync(join(tmpdir(), 'skald-prereq-'));
  for (const name of names) {
    writeFileSync(join(dir, name), '#!/bin/sh\n');
    chmodSync(join(dir, name), 0o755);
  }
  writeFileSync(join(dir, 'rg'), 'not executable');
  return dir;
}

describe('test prerequisites', () => {
  it('finds what is on the PATH and names what is not, in one line with the packages', () => {
    const bin = binFolder(['python3', 'ps', 'git', 'latexmk', 'xelatex', 'strace']);
    const missing = missingPrograms(bin);
    expect(missing.map((p) => p.program)).toEqual(['rg', 'bwrap']);
    const line = missingLine(missing)!;
    expect(line).not.toContain('\n');
    expect(line).toBe(
      'The tests need rg, bwrap, not found on the PATH (Debian/Ubuntu: sudo apt-get install -y ripgrep bubblewrap; ' +
        'README "Running the tests").',
    );
    expect(missingLine([])).toBeNull();
  });

  it('prints the missing Debian packages for .ci/run', () => {
    const bin = binFolder(['python3', 'ps', 'git', 'rg', 'latexmk', 'strace', 'bwrap']);
    chmodSync(join(bin, 'rg'), 0o755);
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'test-prerequisites.mjs'), '--debian'], {
      env: { PATH: bin },
      encoding: 'utf8',
    });
    expect(run.stdout.trim()).toBe('texlive-xetex texlive-latex-base');
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    expect(ci).toContain('scripts/test-prerequisites.mjs --debian');
  });

  it('the README lists every program and its package', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const p of TEST_PROGRAMS) {
      expect(readme).toContain(`\`${p.program}\``);
      for (const pkg of p.debian) expect(readme).toContain(pkg);
    }
  });
});
