#!/usr/bin/env node
/**
 * The programs the tests use besides Node and Chromium (README "Running the tests"), one list for three readers:
 * `npm test` checks it first and says in one line what is missing (scripts/test-all.mjs), `.ci/run` installs the
 * Debian packages it names (`node scripts/test-prerequisites.mjs --debian` prints those missing), and the README lists
 * it. Plain JavaScript, so it runs before any TypeScript does. Chromium is found (or fetched) by scripts/chromium.mjs.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TEST_PROGRAMS = [
  { program: 'python3', debian: ['python3'], why: "the outline tests compare with Python's own parser" },
  { program: 'ps', debian: ['procps'], why: 'the checks that no server or child process is left running' },
  { program: 'git', debian: ['git'], why: 'the shell tests that run git' },
  { program: 'rg', debian: ['ripgrep'], why: "grep_files' ripgrep engine" },
  { program: 'latexmk', debian: ['latexmk'], why: "the viewer's LaTeX tests" },
  { program: 'xelatex', debian: ['texlive-xetex', 'texlive-latex-base'], why: "the viewer's LaTeX tests" },
  { program: 'bwrap', debian: ['bubblewrap'], why: 'the sandbox of approved commands' },
  { program: 'strace', debian: ['strace'], why: "the count of a tool call's fsyncs" },
];

/** Whether `program` is an executable file in one of the PATH's folders. */
export function onPath(program, path = process.env.PATH ?? '') {
  return path
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => {
      try {
        accessSync(join(dir, program), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

/** The entries of TEST_PROGRAMS not on the PATH. */
export function missingPrograms(path = process.env.PATH ?? '', programs = TEST_PROGRAMS) {
  return programs.filter((p) => !onPath(p.program, path));
}

/** One line for the person: what is missing, and the Debian/Ubuntu command that installs it. Null when nothing is. */
export function missingLine(missing) {
  if (missing.length === 0) return null;
  const names = missing.map((p) => p.program).join(', ');
  const packages = [...new Set(missing.flatMap((p) => p.debian))].join(' ');
  return `The tests need ${names}, not found on the PATH (Debian/Ubuntu: sudo apt-get install -y ${packages}; README "Running the tests").`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const missing = missingPrograms();
  if (process.argv.includes('--debian')) console.log([...new Set(missing.flatMap((p) => p.debian))].join(' '));
  else console.log(missingLine(missing) ?? 'Every program the tests use is there.');
}
