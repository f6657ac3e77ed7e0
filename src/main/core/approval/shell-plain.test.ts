/**
 * The plain reading of a command line (shell-plain.ts, shell.ts `analyzePlain`) must be the grammar's reading
 * whenever it answers (docs/shell-analysis.md "Cold start"): the same parts, unsafe constructs, words, working
 * directories and roles, so the gate decides exactly as it would with tree-sitter and is never laxer. Checked on a
 * corpus of real command lines and on generated ones mixing plain words, wrappers, `cd`, reserved words,
 * assignments, operators and characters the plain reading must refuse; and it must answer often enough to matter.
 */
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShellAnalyzer } from './shell';
import { splitPlainCommand } from './shell-plain';

let analyzer: ShellAnalyzer;
let workdir: string;
beforeAll(async () => {
  analyzer = await ShellAnalyzer.create({ env: () => ({ HOME: '/home/someone', PATH: '/usr/bin' }) });
  workdir = realpathSync(mkdtempSync(join(tmpdir(), 'skald-plain-')));
  mkdirSync(join(workdir, 'src'));
});
afterAll(() => rmSync(workdir, { recursive: true, force: true }));

const redirectOk = () => true;

/** The plain reading, checked against the grammar's; returns whether the plain reading answered. */
function agrees(line: string): boolean {
  const plain = analyzer.analyzePlain(line, workdir, redirectOk);
  if (plain === null) return false;
  expect(plain, line).toEqual(analyzer.analyzeWithGrammar(line, workdir, redirectOk));
  return true;
}

const CORPUS = [
  'git status',
  'git status && npm test | tee out.txt',
  'git diff --stat',
  'npm test',
  'npm run build',
  'ls -la',
  'cd src && ls',
  'cat package.json',
  'node --version',
  'python3 -m pytest -x',
  'cargo build --release',
  'make -j4',
  'git log --oneline -5 | head -3',
  'rm -rf dist',
  'mkdir -p out/x',
  'cd .. && npm ci',
  'grep -rn foo src',
  'env FOO=1 ls',
  'sudo rm x',
  'sudo -u root rm -rf /',
  'xargs rm',
  'nice -n 10 make',
  'timeout 5 npm test',
  'eval ls',
  'cd /tmp; cat secrets/key.txt',
  'pushd src',
  'popd',
  'cd',
  'cd -',
  'cd a b',
  'cd -P src && cat x',
  'git commit -m wip',
  'ls secrets',
  'cat .git/hooks/pre-commit',
  'find . -name x -delete',
  'find . -exec rm x',
  '/bin/rm -rf x',
  './node_modules/.bin/vitest run',
  '. env.sh',
  'source env.sh',
  'exec ls',
  'command -v git',
  'builtin cd src',
  'let x',
  'test -f x',
  'printf x',
  'read x',
  'wait',
  'shift',
  'exit 1',
  'git status;ls|wc -l||echo no',
  'a=b',
  'ls a=b --x=y',
  'chroot /srv ls',
  'watch ls',
  'strace -o x ls',
  'stdbuf -o0 ls',
  'setsid ls',
  'ionice -c 3 ls',
  'doas ls',
  'echo done',
  'time ls',
  'export A',
  'declare x',
  'unset x',
  'ls; ',
  'ls &&',
  '&& ls',
  'ls & ls',
  'ls |& cat',
  'ls # c',
  'bash -c ls',
  'sh -ec ls',
  'env -S ls',
  'su -c ls',
  'trap ls',
  'npm@1 x',
  '%1',
  'a%b',
  '+x',
  ',',
  ':',
  '-',
  '--',
  '123 456',
];

describe('the plain reading of a command line', () => {
  it('reads a corpus of real command lines as the grammar does, and answers for the plain ones', () => {
    const answered = CORPUS.filter(agrees);
    expect(answered).toContain('git status && npm test | tee out.txt');
    expect(answered).toContain('cd /tmp; cat secrets/key.txt');
    expect(answered.length).toBeGreaterThan(CORPUS.length / 2);
  });

  it('declines what only the grammar can read', () => {
    for (const line of [
      'echo $HOME',
      'ls *.ts',
      "echo 'a b'",
      'ls > x',
      'ls & ls',
      'echo done',
      'X=1 ls',
      'ls\nrm x',
      'ls\tx',
      'a && && b',
      'ls;',
      '|ls',
      'ls ~',
      'echo {a,b}',
      'ls #x',
      'bash -c ls',
    ]) {
      expect(analyzer.analyzePlain(line, workdir, redirectOk), line).toBeNull();
    }
    expect(splitPlainCommand('git status && npm test | tee out.txt')).toEqual([
      ['git', 'status'],
      ['npm', 'test'],
      ['tee', 'out.txt'],
    ]);
  });

  it('reads generated command lines as the grammar does', () => {
    const words = [
      'git',
      'status',
      'ls',
      '-la',
      'npm',
      'test',
      'tee',
      'out.txt',
      'cd',
      '..',
      'src',
      '/tmp',
      '/etc/passwd',
      'secrets',
      'secrets/key',
      '.git/hooks',
      'x=1',
      '--flag=v',
      'a=b=c',
      'env',
      'sudo',
      '-u',
      'root',
      'xargs',
      'rm',
      '-rf',
      'bash',
      'sh',
      '-c',
      'eval',
      '.',
      'source',
      'nice',
      '-n',
      '10',
      'timeout',
      '5',
      'find',
      '-exec',
      '-delete',
      'echo',
      'done',
      'if',
      'then',
      'for',
      'in',
      'do',
      'export',
      'let',
      'test',
      'printf',
      'read',
      'pushd',
      'popd',
      '-P',
      '-',
      '--',
      '%1',
      '@x',
      '+x',
      ',',
      ':',
      '123',
      '0',
      '/bin/rm',
      './run.sh',
      'exec',
      'command',
      '-v',
      'builtin',
      'time',
      'wait',
      'exit',
      'a.b',
      'x,y',
      'u@h:p',
      'sh -c',
    ];
    const glue = [
      ' ',
      '  ',
      ' && ',
      '&&',
      ' || ',
      '||',
      ' | ',
      '|',
      '; ',
      ';',
      ' ;',
      '|&',
      '&',
      '\t',
      '\n',
      ' # ',
      '>',
      ' $X ',
      "'",
      '"',
      '*',
      '~',
      '{',
      '!',
    ];
    // Words made of the plain characters in any order (`-1`, `a,b=c`, `%:`, `..+`), and a few others.
    const randomWord = fc.string({
      unit: fc.constantFrom(...'abz019_-./:=,+%@#'.split('')),
      minLength: 1,
      maxLength: 6,
    });
    let answered = 0;
    let total = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.oneof(fc.constantFrom(...words), randomWord), fc.constantFrom(...glue), fc.nat(9)), {
          minLength: 1,
          maxLength: 8,
        }),
        (pieces) => {
          // Mostly blanks between words, sometimes an operator or a character the plain reading must refuse.
          const line = pieces.map(([word, sep, pick], i) => (i === 0 ? '' : pick < 6 ? ' ' : sep) + word).join('');
          total++;
          if (agrees(line)) answered++;
        },
      ),
      { numRuns: 3_000 },
    );
    expect(answered / total).toBeGreaterThan(0.05);
  });
});
