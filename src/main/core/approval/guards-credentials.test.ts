/**
 * The credential-store guard (docs/guards.md "Credential stores") through the real gate, the real bash grammar and a
 * home folder of its own (HOME points at a temp folder with `.ssh`, `.aws`, `.netrc`): a shell command an allow
 * rule and a bypass let through still asks when its words reach a credential store, however spelled; so does an MCP
 * tool with such a path; neighbours with similar names and the rest of the home folder stay allowed.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/temp';
import { TN } from '../../../shared/tool-names';
import { createGrepFilesTool } from '../tools/fs/grep-files';
import { listFilesTool } from '../tools/fs/list-files';
import { isCredentialPath } from './guards';
import { makeKit, type Kit } from './test-kit';

let k: Kit;
let home: string;
let savedHome: string | undefined;

beforeEach(async () => {
  savedHome = process.env.HOME;
  home = tempDir();
  process.env.HOME = home;
  for (const [rel, text] of <[string, string][]>[
    ['.ssh/id_ed25519', 'PRIVATE'],
    ['.aws/credentials', '[default]'],
    ['.netrc', 'machine x'],
    ['.config/gh/hosts.yml', 'token'],
    ['.sshx/notes', 'n'],
    ['.config/ghost/x', 'g'],
    ['notes.txt', 'hi'],
  ]) {
    mkdirSync(join(home, rel, '..'), { recursive: true });
    writeFileSync(join(home, rel), text);
  }
  k = await makeKit();
  k.file('README.md', 'hello');
  for (const p of ['cat *', 'cp *', 'ls *', 'tar *', 'grep *', 'head *'])
    k.rules.createRule({ tool_pattern: 'execute_cmd', command_pattern: p, action: 'allow', priority: 1 });
  k.rules.createRule({ tool_pattern: 'mcp__fs__read_file', action: 'allow', priority: 1 });
  k.bypass.grant(1, { kind: 'all' }, null);
});
afterEach(() => {
  k.close();
  if (savedHome === undefined) delete process.env.HOME;
  else process.env.HOME = savedHome;
});

const decide = (command: string) =>
  k.gate.check(k.call('execute_cmd', { command, workdir: k.workspace }, { category: 'shell' }));

describe('a command that reaches a credential store asks, whatever the rules', () => {
  const REACH = [
    'cat ~/.ssh/id_ed25519',
    'cat $HOME/.ssh/id_ed25519',
    'cat "${HOME}/.aws/credentials"',
    'cp ~/.netrc copy.txt',
    'tar cf keys.tar ~/.ssh',
    'ls ~/.ssh',
    'cat ~/.ss?/id_*',
    'grep -r token ~/.config/gh',
    'head ~/.SSH/id_ed25519',
    'cat /etc/shadow',
    'cat /etc/ssh/ssh_host_ed25519_key',
    'cat README.md && cat ~/.aws/credentials',
  ];
  for (const command of REACH) {
    it(`asks: ${command}`, () => {
      expect(decide(command)).toMatchObject({ action: 'require', why: { kind: 'guard', guard: 'credentials' } });
    });
  }

  it('through a symlink in the workspace that leads into one', () => {
    symlinkSync(join(home, '.ssh'), join(k.workspace, 'keys'));
    expect(decide('cat keys/id_ed25519').action).toBe('require');
  });

  it('an MCP tool given such a path asks too', () => {
    const d = k.gate.check(k.call('mcp__fs__read_file', { path: join(home, '.aws/credentials') }));
    expect(d).toMatchObject({ action: 'require', why: { kind: 'guard', guard: 'credentials' } });
  });
});

describe('the rest of the home folder is not a credential store', () => {
  for (const command of ['cat ~/notes.txt', 'ls ~', 'cat ~/.sshx/notes', 'cat ~/.config/ghost/x', 'cat README.md']) {
    it(`allows: ${command}`, () => {
      expect(decide(command).action).toBe('allow');
    });
  }

  it('isCredentialPath: folders cover what is below them, on a component boundary', () => {
    expect(isCredentialPath('/h/.ssh', '/h')).toBe(true);
    expect(isCredentialPath('/h/.docker/config.json', '/h')).toBe(true);
    expect(isCredentialPath('/h/.docker/other.json', '/h')).toBe(false);
    expect(isCredentialPath('/h/.npmrc.bak', '/h')).toBe(false);
    expect(isCredentialPath('/h', '/h')).toBe(false);
    expect(isCredentialPath('/etc/sshd_config', '/h')).toBe(false);
    expect(isCredentialPath('/etc/ssh/sshd_config', '/h')).toBe(true);
  });
});

describe('a working directory that is the home folder', () => {
  it('walks leave the credential stores out, with both grep engines, and say so; reading one asks', async () => {
    // The home folder is the workspace here: what the file tools may read without asking.
    process.env.HOME = k.workspace;
    const MARK = 'CRED-MARK-31';
    k.file('.ssh/id_ed25519', `${MARK} private key\n`);
    k.file('.aws/credentials', `${MARK} aws\n`);
    k.file('project/notes.md', `${MARK} notes\n`);
    const call = k.call(TN.GREP_FILES, { path: k.workspace, pattern: MARK });
    expect(k.gate.check(call).action).toBe('allow');
    const ctx = {
      workingDir: k.workspace,
      workspaceDir: k.workspace,
      signal: new AbortController().signal,
      log: () => undefined,
      protectedPaths: k.gate.walkPolicy(call),
    };
    const answers = [];
    for (const ripgrepPath of ['/usr/bin/rg', null])
      answers.push(
        await createGrepFilesTool({ ripgrepPath, jsPrefixMs: 0 }).executeAsync(
          { pattern: MARK, path: k.workspace },
          ctx,
        ),
      );
    expect(answers[0], JSON.stringify(answers)).toEqual(answers[1]);
    const text = JSON.stringify(answers[0]);
    expect(text).toContain('project/notes.md:1:');
    expect(text).not.toContain('private key');
    expect(text).not.toContain(`${MARK} aws`);
    expect(text).toMatch(/\.ssh \(a credential store\)/);
    const listed = JSON.stringify(await listFilesTool.executeAsync({ path: k.workspace, recursive: true }, ctx));
    expect(listed).toContain('project/notes.md');
    expect(listed).not.toContain('id_ed25519');
    expect(k.gate.check(k.call(TN.READ_FILE, { path: '.ssh/id_ed25519' }))).toMatchObject({
      action: 'require',
      why: { kind: 'guard', guard: 'credentials' },
    });
  });
});
