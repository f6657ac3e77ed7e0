/**
 * Programs told through an option or their own script to run another program, or to read or write a file their words
 * do not name (docs/shell-analysis.md "Commands run through options"), through the real gate and the real bash
 * grammar: with an allow rule for the program and a bypass for everything, each still asks, with the reason; the
 * everyday forms of the same programs stay allowed; and each vector is run with bash once to prove it really runs
 * what it names (a marker file appears), so the table guards real doors.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sedScriptRisk } from './shell-option-exec';
import { makeKit, type Kit } from './test-kit';

let k: Kit;
beforeEach(async () => {
  k = await makeKit();
  k.file('docs/readme.md', 'hello\nerror: one\n');
  for (const p of [
    'sed *',
    'awk *',
    'git *',
    'tar *',
    'rg *',
    'sort *',
    'split *',
    'ssh *',
    'zip *',
    'man *',
    'vim *',
    'wget *',
    'find *',
  ]) {
    k.rules.createRule({ tool_pattern: 'execute_cmd', command_pattern: p, action: 'allow', priority: 1 });
  }
});
afterEach(() => k.close());

const decide = (command: string) =>
  k.gate.check(k.call('execute_cmd', { command, workdir: k.workspace }, { category: 'shell' }));

/** Each: the command (MARK: a file it would create in the workspace), and the reason the gate gives. */
const RUNS: [string, RegExp][] = [
  ["sed -n '1e touch MARK' docs/readme.md", /sed runs a command \(e\)/],
  ["sed 's/.*/touch MARK/e' docs/readme.md", /s\/\/\/e/],
  ["sed -n -e p -e '1e touch MARK' docs/readme.md", /sed runs a command/],
  ["sed 'w MARK' docs/readme.md", /sed writes a file/],
  ["sed -n '/hello/s/x/y/w MARK' docs/readme.md", /s\/\/\/w/],
  ['sed -n "1r /etc/hostname" docs/readme.md', /sed reads a file/],
  ['awk \'BEGIN{system("touch MARK")}\'', /awk runs a command \(system\)/],
  ['awk \'BEGIN{print "x" | "sh"; close("sh")}\'', /awk pipes/],
  ['awk \'BEGIN{"touch MARK" | getline}\'', /awk pipes/],
  ['awk \'BEGIN{print 1 > "MARK"}\'', /awk prints into a file/],
  ['awk \'/"/ { system("touch MARK") } END { system("touch MARK") }\' docs/readme.md', /awk runs a command/],
  ['git -c alias.x="!touch MARK" x', /git -c sets configuration/],
  ['git -c core.pager="touch MARK" log', /git -c sets configuration/],
  ['git config core.fsmonitor "touch MARK"', /git config changes settings/],
  ['git --git-dir=/tmp/elsewhere status', /--git-dir points git/],
  ['git rebase --exec "touch MARK" HEAD~1', /rebase --exec/],
  ['git bisect run touch MARK', /bisect run/],
  ['git submodule foreach touch MARK', /submodule foreach/],
  ['git grep -O"touch MARK" hello', /git grep -O/],
  ['git diff --ext-diff', /--ext-diff/],
  ['git log --output=MARK', /--output/],
  ['git clone --upload-pack="touch MARK" x y', /remote program/],
  ['tar -cf /dev/null --checkpoint=1 --checkpoint-action=exec="touch MARK" docs', /tar runs a program/],
  ['tar -cf a.tar -I "touch MARK" docs', /tar runs a program/],
  ['tar --to-command="touch MARK" -xf a.tar', /tar runs a program/],
  ['rg --pre ./run.sh hello', /--pre/],
  ['sort --compress-program="touch MARK" docs/readme.md', /compression program/],
  ['split --filter="touch MARK" docs/readme.md', /split runs a filter/],
  ['ssh -o ProxyCommand="touch MARK" host', /ssh runs a local command/],
  ['ssh -F ./evil.conf host', /configuration file/],
  ['zip -TT "touch MARK" a.zip docs/readme.md', /zip runs a test command/],
  ['man -P "touch MARK" ls', /pager or browser/],
  ["vim -c ':!touch MARK' docs/readme.md", /vim runs commands/],
  ['vim -es docs/readme.md', /vim runs commands/],
  ['wget --use-askpass="touch MARK" http://localhost:9', /wget runs a command/],
  ['find . -fprint MARK', /find writes a file/],
];

describe('a program told to run another program through an option asks, even where the program is allowed', () => {
  for (const [command, reason] of RUNS) {
    it(`asks: ${command}`, () => {
      k.bypass.grant(1, { kind: 'all' }, null);
      const d = decide(command);
      expect(d.action).toBe('require');
      expect(JSON.stringify(d)).toMatch(reason);
    });
  }
});

describe('the everyday forms stay allowed', () => {
  const PLAIN = [
    "sed -n '/error/p' docs/readme.md",
    "sed 's/hello/bye/g' docs/readme.md",
    "sed -E 's#a/b#c#; 2d' docs/readme.md",
    "sed -n '1,5p;$=' docs/readme.md",
    "sed -i.bak -e 's/x/y/' docs/readme.md",
    "sed '/start/,/end/{s/a/b/;p}' docs/readme.md",
    "sed 'y/abc/xyz/' docs/readme.md",
    "sed '1i\\\\header' docs/readme.md",
    "awk '{print $1}' docs/readme.md",
    "awk -F: '$2 > 5 {n++} END {print n}' docs/readme.md",
    "awk 'NR==1' docs/readme.md",
    'awk \'{ print "a|b" }\' docs/readme.md',
    'git status',
    'git log --oneline -5',
    'git diff HEAD~1',
    'git config user.name',
    'git config --get remote.origin.url',
    'git config --list',
    'git -C docs status',
    'git grep hello',
    'tar -czf out.tar.gz docs',
    'tar -xvf out.tar.gz',
    'tar tf out.tar.gz',
    'rg hello docs',
    'rg -n --glob "*.md" hello',
    'sort -u docs/readme.md',
    'split -l 1 docs/readme.md part-',
    'ssh host ls',
    'ssh -p 2222 -o StrictHostKeyChecking=no host uptime',
    'zip -r a.zip docs',
    'man ls',
    'vim docs/readme.md',
    'wget -q http://localhost:9/x',
    'find . -name "*.md"',
  ];
  for (const command of PLAIN) {
    it(`allows: ${command}`, () => {
      expect(decide(command).action).toBe('allow');
    });
  }
});

describe('the doors are real: bash runs what the option names', () => {
  const bashRuns = (command: string) => {
    try {
      execFileSync('/bin/bash', ['--noprofile', '--norc', '-c', command], {
        cwd: k.workspace,
        stdio: 'ignore',
        timeout: 10_000,
        env: { ...process.env, PAGER: 'cat', GIT_PAGER: '' },
      });
    } catch {
      /* the exit status does not matter, only what ran */
    }
    return existsSync(join(k.workspace, 'MARK'));
  };
  const RUNNABLE = [
    "sed -n '1e touch MARK' docs/readme.md",
    "sed 's/.*/touch MARK/e' docs/readme.md",
    "sed 'w MARK' docs/readme.md",
    'awk \'BEGIN{system("touch MARK")}\'',
    'awk \'BEGIN{"touch MARK" | getline}\'',
    'git -c alias.x="!touch MARK" x',
    'tar -cf /dev/null --checkpoint=1 --checkpoint-action=exec="touch MARK" docs',
    'sort --compress-program=./run.sh -S 100K -T . docs/readme.md',
    'split --filter="touch MARK" docs/readme.md',
    'find . -fprint MARK',
  ];
  for (const command of RUNNABLE) {
    it(`runs: ${command}`, () => {
      mkdirSync(join(k.workspace, 'docs'), { recursive: true });
      writeFileSync(
        join(k.workspace, 'docs/readme.md'),
        Array.from({ length: 100_000 }, (_, i) => `hello ${(i * 7919) % 100_000}`).join('\n'),
      );
      // What sort starts is a program, not shell text: the door is a script of the model's (a written file).
      writeFileSync(join(k.workspace, 'run.sh'), '#!/bin/sh\ntouch MARK\nexec cat\n', { mode: 0o755 });
      execFileSync('git', ['init', '-q'], { cwd: k.workspace });
      expect(bashRuns(command)).toBe(true);
    });
  }
});

it('a command named like an object member is judged by its words, not by what an object has', () => {
  for (const name of ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty']) {
    k.rules.createRule({ tool_pattern: 'execute_cmd', command_pattern: `${name} *`, action: 'allow', priority: 1 });
    expect(decide(`${name} x`).action, name).toBe('allow');
  }
});

describe('sedScriptRisk', () => {
  it('follows addresses, regexes with other delimiters and escaped delimiters, text commands and labels', () => {
    for (const safe of [
      'p',
      '$!N;P;D',
      's/a\\/b/c/g',
      's|x|y|2',
      '\\%re%d',
      '/a/,/b/!d',
      ':top;s/x//;t top',
      'a\\\nappended text with w and e',
      '# comment with e\np',
      'y/ab/cd/',
      'l 40',
      'q5',
    ]) {
      expect(sedScriptRisk(safe), safe).toBeNull();
    }
    for (const [risky, reason] of [
      ['1e id', /runs/],
      ['s/x/y/gew', /runs/],
      ['$w out', /writes/],
      ['/x/R f', /reads/],
      ['s/x/y', /cannot follow/],
      ['k', /cannot follow/],
      ['/unclosed', /cannot follow/],
    ] as const) {
      expect(sedScriptRisk(risky), risky).toMatch(reason);
    }
  });
});
