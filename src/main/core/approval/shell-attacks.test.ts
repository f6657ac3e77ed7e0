/**
 * The gate decides on what really runs (docs/shell-analysis.md): attack inputs that got through when words were
 * judged before the shell's expansions and commands ran under another shell, each with its generated variants,
 * through the real gate, the real bash grammar and a real workspace (symlinks, hard links, a data folder around it).
 * Where a command is allowed, it is also run with bash to prove that what ran is what was judged.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forgetGuardedIdentities } from '../tools/_policy/hardlinks';
import {
  DASH_SPLITS,
  HEREDOC_HIDES,
  HEREDOC_LITERAL,
  HEREDOC_RUNS,
  RM_SPELLINGS,
  SECRETS_SPELLINGS,
} from './attack-inputs';
import { LAYOUTS, makeKit, type Kit } from './test-kit';

let k: Kit;

const allow = (...patterns: string[]) =>
  patterns.forEach((p) =>
    k.rules.createRule({ tool_pattern: 'execute_cmd', command_pattern: p, action: 'allow', priority: 1 }),
  );
const decide = (command: string) =>
  k.gate.check(k.call('execute_cmd', { command, workdir: k.workspace }, { category: 'shell' }));
const runBash = (command: string) => {
  try {
    execFileSync('/bin/bash', ['--noprofile', '--norc', '-c', command], {
      cwd: k.workspace,
      stdio: 'ignore',
      timeout: 5000,
    });
  } catch {
    /* the exit status does not matter here, only what ran */
  }
};

describe.each(LAYOUTS)('a session in the %s', (layout) => {
  beforeEach(async () => {
    k = await makeKit({ layout });
    forgetGuardedIdentities();
    k.file('secrets/key.txt', 'TOPSECRET');
    k.file('docs/readme.md', 'hello');
    k.link('notes', join(k.workspace, 'secrets'));
    mkdirSync(join(k.workspace, '.git/hooks'), { recursive: true });
    writeFileSync(join(k.workspace, '.git/config'), '[core]\n');
    writeFileSync(join(k.dataDir, 'settings.json'), '{}');
  });
  afterEach(() => k.close());

  describe('words are judged after the shell expands them', () => {
    const ISSUE = [
      'cat secre*/key.txt',
      'cat s\\ecrets/key.txt',
      'cat "sec"rets/key.txt',
      "cat sec''rets/key.txt",
      'cat ./secret[s]/key.txt',
      'cat notes/key.txt',
    ];
    for (const command of ISSUE) {
      it(`asks (issue input): ${JSON.stringify(command)}`, () => {
        allow('cat *');
        k.bypass.grant(1, { kind: 'all' }, null);
        expect(decide(command)).toMatchObject({ action: 'require', why: { kind: 'guard', guard: 'secrets' } });
      });
    }

    for (const spelling of SECRETS_SPELLINGS) {
      // bash does not glob a word like `--file=secre*` (no file has that name), so that form only for plain spellings.
      const forms = [
        'cat S/key.txt',
        'head -n1 S/key.txt',
        'grep -r TOP S',
        'cp S/key.txt /tmp/x',
        'tar cf /tmp/a.tar docs S',
      ];
      if (!/[*?[{]/.test(spelling)) forms.push('cat --file=S/key.txt', 'dd if=S/key.txt');
      for (const form of forms) {
        const command = form.replace('S', spelling);
        it(`asks: ${JSON.stringify(command)}`, () => {
          allow('cat *', 'head *', 'grep *', 'cp *', 'tar *', 'dd *');
          k.bypass.grant(1, { kind: 'all' }, null);
          expect(decide(command).action).toBe('require');
        });
      }
    }

    it('a hard link to the secret asks; cd into the folder is followed', () => {
      linkSync(join(k.workspace, 'secrets/key.txt'), join(k.workspace, 'hl.txt'));
      allow('cat *', 'cd *');
      for (const command of [
        'cat hl.txt',
        'cat ./h?.txt',
        'cd docs && cat ../hl.txt',
        'cd notes && cat key.txt',
        'cd docs; cd ..; cat notes/*',
      ]) {
        // `../hl.txt` may also be read from the workspace itself (the cd could fail): then it is the data folder.
        expect(decide(command), command).toMatchObject({ action: 'require', why: { kind: 'guard' } });
      }
      expect(decide('cd docs && cat readme.md').action).toBe('allow');
    });

    it('git hooks and config, however the redirect target is spelled, ask or are refused', () => {
      allow('echo *', 'cp *', 'tee *');
      k.bypass.grant(1, { kind: 'all' }, null);
      for (const target of [
        '.git/hooks/pre-commit',
        '.git\\/hooks/pre-commit',
        '.gi\\t/hooks/pre-commit',
        '".git"/hooks/pre-commit',
        ".g'i't/config",
        '.gi?/hooks/pre-commit',
        '.git/h*/pre-commit',
        '.git/modules/sub/hooks/x',
        '.git/worktrees/w/config.worktree',
        '.GIT/config',
        "$'.git'/config",
      ]) {
        for (const command of [
          `echo x > ${target}`,
          `echo x >> ${target}`,
          `cp /tmp/evil ${target}`,
          `echo x | tee ${target}`,
        ]) {
          expect(decide(command).action, command).toBe('require');
        }
      }
      expect(decide('echo x > .git-notes.md').action).toBe('allow');
    });

    it('paths into the data folder ask', () => {
      allow('ls *', 'cat *', 'cp *');
      k.bypass.grant(1, { kind: 'all' }, null);
      // The data folder, relative to the working directory: its parent in the default layout.
      const up = relative(k.workspace, k.dataDir);
      for (const command of [
        `ls > ${up}\\/x`,
        `cat ${up}/settings.json`,
        `cat ${up}\\/settings.json`,
        `cat "${up}/"settings.json`,
        `cat ${up}/sett*`,
        `cat ${up}/s*.json`,
        `cp x ${up}\\/skald.db`,
        `cd ${up} && cat settings.json`,
        `ls ${up}/*`,
      ]) {
        expect(decide(command).action, command).toBe('require');
      }
    });

    it('ordinary commands with quotes, globs and braces still run by rule', () => {
      allow('cat *', 'ls *', 'echo *');
      for (const command of [
        'cat "docs/readme.md"',
        "cat 'docs'/readme.md",
        'cat docs/*.md',
        'ls {docs,src}',
        'echo "a b" c',
        'ls -la',
        'echo $HOME',
      ]) {
        expect(decide(command).action, command).toBe('allow');
      }
    });

    it('a word only known at run time asks', () => {
      allow('cat *', 'echo *');
      for (const command of ['cat $X/key.txt', 'cat ${X:-secrets}/key.txt', 'echo $1', 'read X; cat $X', 'cat $_'])
        expect(decide(command).action, command).toBe('require');
    });
  });

  describe('command names are normalized: a deny on rm catches every way to run rm', () => {
    for (const command of RM_SPELLINGS) {
      it(`denied: ${JSON.stringify(command)}`, () => {
        k.rules.createRule({ tool_pattern: 'execute_cmd', command_pattern: 'rm *', action: 'deny', priority: 1 });
        k.bypass.grant(1, { kind: 'all' }, null);
        expect(decide(command)).toMatchObject({ action: 'deny', why: { kind: 'rule' } });
      });
    }
    it('rm as an argument or in a file name is not rm', () => {
      k.rules.createRule({ tool_pattern: 'execute_cmd', command_pattern: 'rm *', action: 'deny', priority: 1 });
      allow('echo *', 'ls *', 'command *');
      for (const command of ['echo rm -rf x', 'ls rm', 'cat rm.txt'])
        expect(decide(command).action, command).not.toBe('deny');
      expect(decide('command -v rm').action).toBe('require'); // a wrapper: asks, but runs no rm
    });
  });

  describe('the shell that runs is the shell that was parsed', () => {
    for (const command of DASH_SPLITS) {
      it(`bash reading: ${JSON.stringify(command)}`, () => {
        allow('ls *', 'echo *', 'cat *');
        const d = decide(command);
        if (d.action === 'allow') runBash(command);
        expect(existsSync(join(k.workspace, 'PWNED'))).toBe(false);
      });
    }
    for (const command of [...HEREDOC_HIDES, ...HEREDOC_RUNS]) {
      it(`never allowed: ${JSON.stringify(command)}`, () => {
        allow('cat *');
        k.rules.createRule({ tool_pattern: 'execute_cmd', command_pattern: 'touch *', action: 'deny', priority: 1 });
        k.bypass.grant(1, { kind: 'all' }, null);
        // Either the gate sees the touch (and the deny catches it) or it cannot read the here-document as bash does.
        expect(decide(command).action).not.toBe('allow');
        // And what the gate feared is real: bash runs the hidden command.
        runBash(command);
        expect(existsSync(join(k.workspace, 'PWNED'))).toBe(true);
      });
    }
    for (const command of HEREDOC_LITERAL) {
      it(`allows a quoted here-document, and nothing in it runs: ${JSON.stringify(command)}`, () => {
        allow('cat *');
        expect(decide(command).action).toBe('allow');
        runBash(command);
        expect(existsSync(join(k.workspace, 'PWNED'))).toBe(false);
      });
    }
  });
});
