/**
 * Relative means the session's working directory (docs/approval.md "Relative means the working directory"): the same
 * relative calls, under the same rules, in a session at `<data>/workspace` and in one in a folder the person chose
 * outside the data folder, get the same decisions (action, kind, rule, guard), through the real gate, the real bash
 * grammar, real SQLite and a real tree (symlinks, a hard link, git hooks) made alike in both folders. The suites of
 * the gate itself (gate, guards, shell) run in both layouts too (`LAYOUTS` in test-kit.ts); this one compares them.
 */
import { linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Decision } from '../../../shared/contract/approval';
import { forgetGuardedIdentities } from '../tools/_policy/hardlinks';
import { LAYOUTS, makeKit, type Kit } from './test-kit';

/** The same tree in each session's folder; `outside` is a sibling of the data folder in both layouts. */
function plant(k: Kit): void {
  k.file('notes.md', 'my notes');
  k.file('hello.txt', 'hi');
  k.file('secrets/key.txt', 'TOPSECRET');
  k.file('docs/readme.md', 'read me');
  k.file('private/plan.md', 'plan');
  k.file('src/a.ts', 'export {}');
  k.link('leak', k.outside);
  k.link('s2', join(k.workspace, 'secrets'));
  linkSync(join(k.workspace, 'secrets/key.txt'), join(k.workspace, 'key-copy.txt'));
  mkdirSync(join(k.workspace, '.git/hooks'), { recursive: true });
  writeFileSync(join(k.workspace, '.git/config'), '[core]\n');
  // What a person sets on the Security page, relative paths and commands.
  k.rules.createRule({ tool_pattern: '@fs_any', path_pattern: 'notes.md', action: 'deny' });
  k.rules.createRule({ tool_pattern: '@fs_any', path_pattern: 'private/*', action: 'deny' });
  k.rules.createRule({ tool_pattern: '@fs_read', path_pattern: 'docs/*', action: 'allow' });
  k.rules.createRule({ tool_pattern: '@fs_write', path_pattern: 'src/*', action: 'require' });
  for (const command of ['ls *', 'cat *', 'echo *', 'git *'])
    k.rules.createRule({ tool_pattern: 'execute_cmd', command_pattern: command, action: 'allow' });
}

const FS_CALLS: [string, string][] = [
  ['read_file', 'notes.md'],
  ['read_file', './notes.md'],
  ['write_file', 'notes.md'],
  ['read_file', 'hello.txt'],
  ['write_file', 'hello.txt'],
  ['write_file', 'memory/x.md'],
  ['write_file', 'data/table.csv'],
  ['read_file', 'secrets/key.txt'],
  ['read_file', 'SECRETS/key.txt'],
  ['read_file', 'docs/../secrets/key.txt'],
  ['list_files', 's2'],
  ['read_file', 'key-copy.txt'],
  ['read_file', 'docs/readme.md'],
  ['write_file', 'docs/readme.md'],
  ['read_file', 'private/plan.md'],
  ['grep_files', 'private'],
  ['write_file', 'src/a.ts'],
  ['read_file', 'src/a.ts'],
  ['write_file', 'AGENTS.md'],
  ['write_file', '.git/hooks/pre-commit'],
  ['write_file', '.git/config'],
  ['read_file', 'leak/x'],
  ['write_file', 'leak/x'],
  ['list_files', '.'],
];

const COMMANDS = [
  'ls > list.txt',
  'ls && cat hello.txt',
  'cat notes.md',
  'cat secrets/key.txt',
  'cat s2/key.txt',
  'echo hi > out.txt',
  'echo hi >> docs/log.txt',
  // Two levels up: one level up from the default workspace is the data folder, which a chosen folder's parent is not.
  'echo hi > ../../escape.txt',
  'echo hi > leak/x',
  'ls -la docs',
  'git status',
  'cat key-copy.txt',
  'echo x > .git/hooks/post-commit',
  'echo $(id)',
];

/** What must agree: the action and what made it, never the sentence (it names the folder). */
const shape = (d: Decision) => ({
  action: d.action,
  kind: d.why.kind,
  rule: d.why.ruleId ?? null,
  guard: d.why.guard ?? null,
});

const kits = new Map<string, Kit>();
beforeAll(async () => {
  for (const layout of LAYOUTS) {
    const k = await makeKit({ layout });
    plant(k);
    kits.set(layout, k);
  }
  forgetGuardedIdentities();
}, 60_000);
afterAll(() => {
  for (const k of kits.values()) k.close();
});

const decide = (k: Kit, toolName: string, args: Record<string, unknown>) =>
  k.gate.check(k.call(toolName, args, { category: toolName === 'execute_cmd' ? 'shell' : 'filesystem' }));
const both = (toolName: string, args: Record<string, unknown>) =>
  LAYOUTS.map((layout) => shape(decide(kits.get(layout)!, toolName, args)));

describe('the same relative call gets the same decision wherever the session works', () => {
  it('every file call of the corpus', () => {
    for (const [tool, path] of FS_CALLS) {
      const [home, chosen] = both(tool, { path });
      expect(chosen, `${tool} ${path}`).toEqual(home);
    }
  });

  it('every command of the corpus', () => {
    for (const command of COMMANDS) {
      const [home, chosen] = both('execute_cmd', { command });
      expect(chosen, command).toEqual(home);
    }
  });

  it('what a walk leaves out is the same', () => {
    const left = LAYOUTS.map((layout) => {
      const k = kits.get(layout)!;
      const policy = k.gate.walkPolicy(k.call('grep_files', { path: k.workspace }));
      return {
        names: policy.describeUnder(k.workspace).sort(),
        secrets: policy.excludes(join(k.workspace, 'secrets/key.txt')),
        privateFile: policy.excludes(join(k.workspace, 'private/plan.md')),
      };
    });
    expect(left[1]).toEqual(left[0]);
    expect(left[0]).toMatchObject({ secrets: true, privateFile: true });
  });
});

describe.each(LAYOUTS)('in a session in the %s, what the person set is what the gate does', (layout) => {
  const k = () => kits.get(layout)!;

  it('a Deny on a relative path denies it; the seeded relative allows apply', () => {
    expect(decide(k(), 'read_file', { path: 'notes.md' })).toMatchObject({ action: 'deny', why: { kind: 'rule' } });
    expect(decide(k(), 'write_file', { path: 'memory/x.md' })).toMatchObject({
      action: 'allow',
      why: { kind: 'rule' },
    });
  });

  it('a redirect into the working directory is inside the workspace; out of it, it asks', () => {
    expect(decide(k(), 'execute_cmd', { command: 'ls > list.txt' })).toMatchObject({ action: 'allow' });
    expect(decide(k(), 'execute_cmd', { command: 'ls > ../../list.txt' })).toMatchObject({ action: 'require' });
  });

  it("secrets/ of the session's folder is denied to the file tools, and the default workspace's too", () => {
    expect(decide(k(), 'read_file', { path: 'secrets/key.txt' })).toMatchObject({
      action: 'deny',
      why: { kind: 'guard', guard: 'secrets' },
    });
    const elsewhere = join(k().defaultWorkspace, 'secrets/other.txt');
    expect(decide(k(), 'read_file', { path: elsewhere })).toMatchObject({ action: 'deny', why: { guard: 'secrets' } });
  });
});
