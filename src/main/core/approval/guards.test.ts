/**
 * Hard guards and always-prompt classes through the real gate, on a real temp workspace with real symlinks:
 * F3 (secrets through symlinks, `..`, letter case), X4 (a path deny catches every spelling), X5 (symlink escapes,
 * protected paths, the data folder), C1 (data dir and DB), C3 (agent-steering files), F7 (siblings stay open).
 * Check ids (C1, C3, F3, F7, X4, X5) are listed in docs/security-checks.md.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { writeFileTool } from '../tools/fs/write-file';
import { Guards } from './guards';
import { LAYOUTS, makeKit, type Kit } from './test-kit';

let k: Kit;

const TOOLS = ['read_file', 'write_file', 'list_files', 'grep_files', 'edit_file'];

describe.each(LAYOUTS)('a session in the %s', (layout) => {
  beforeEach(async () => {
    k = await makeKit({ layout });
    k.file('secrets/api.key', 'SECRET');
    k.file('private/plan.md');
    k.file('notes.md');
  });
  afterEach(() => k.close());

  describe('F3: secrets/ is denied for every fs tool and every spelling', () => {
    const spellings: [string, (k: Kit) => string][] = [
      ['absolute', (k) => join(k.workspace, 'secrets/api.key')],
      ['the folder itself', (k) => join(k.workspace, 'secrets')],
      ['relative', () => 'secrets/api.key'],
      ['./-prefixed', () => './secrets/api.key'],
      ['..-laden', () => 'notes/../secrets/api.key'],
      ['upper case', () => 'SECRETS/api.key'],
      ['mixed case', () => 'Secrets/new.txt'],
      ['nested secrets folder', () => 'project/a/secrets/x'],
      [
        'through a symlink to the folder (s2 -> secrets)',
        (k) => (k.link('s2', join(k.workspace, 'secrets')), join(k.workspace, 's2/api.key')),
      ],
      [
        'through a relative symlink (s3 -> ../<workspace>/secrets)',
        (k) => (k.link('s3', `../${basename(k.workspace)}/secrets`), 's3'),
      ],
      [
        'a not-yet-existing file under a symlinked secrets',
        (k) => (k.link('deep/s4', join(k.workspace, 'secrets')), 'deep/s4/new/dir/file.txt'),
      ],
    ];
    for (const tool of TOOLS) {
      for (const [label, path] of spellings) {
        it(`${tool}: ${label}`, () => {
          // Even an allow at the highest priority, a bypass and a write fast-path over the whole workspace lift nothing.
          k.rules.createRule({ tool_pattern: '*', path_pattern: '*', action: 'allow', priority: -1_000_000 });
          k.bypass.grant(1, { kind: 'all' }, null);
          const d = k.gate.check(k.call(tool, { path: path(k) }, { runContext: k.rc({ allow_fs_writes: ['.'] }) }));
          expect(d).toMatchObject({ action: 'deny', why: { kind: 'guard', guard: 'secrets' } });
        });
      }
    }

    it('a secrets path inside another path-like argument is denied too (MCP-style args)', () => {
      const d = k.gate.check(
        k.call('mcp__fs__move_file', {
          source: join(k.workspace, 'secrets/api.key'),
          destination: join(k.workspace, 'x'),
        }),
      );
      expect(d).toMatchObject({ action: 'deny', why: { guard: 'secrets' } });
    });

    it('siblings with similar names stay open', () => {
      expect(k.gate.check(k.call('read_file', { path: 'secrets.md' })).action).toBe('allow');
      expect(k.gate.check(k.call('read_file', { path: 'my-secrets/x' })).action).toBe('allow');
    });

    it('a shell command naming secrets/ always asks, even under an allow', () => {
      k.rules.createRule({ tool_pattern: 'execute_cmd', command_pattern: 'cat *', action: 'allow', priority: 1 });
      k.bypass.grant(1, { kind: 'all' }, null);
      expect(k.gate.check(k.call('execute_cmd', { command: 'cat secrets/api.key' })).action).toBe('require');
      expect(k.gate.check(k.call('execute_cmd', { command: 'cat notes.md' })).action).toBe('allow');
    });
  });

  describe('X4: a deny rule on a path matches every spelling of it', () => {
    const spellings: [string, (k: Kit) => string][] = [
      ['absolute', (k) => join(k.workspace, 'private/plan.md')],
      ['./-prefixed', () => './private/plan.md'],
      ['..-laden', () => 'notes/../x/../private/plan.md'],
      ['symlinked', (k) => (k.link('p', join(k.workspace, 'private')), 'p/plan.md')],
      ['other letter case', () => 'Private/plan.md'],
      ['the directory itself', () => 'private'],
    ];
    for (const [label, path] of spellings) {
      it(label, () => {
        const rule = k.rules.createRule({
          tool_pattern: '@fs_any',
          path_pattern: 'private/*',
          action: 'deny',
          priority: 1,
        });
        const d = k.gate.check(k.call('read_file', { path: path(k) }));
        expect(d).toMatchObject({ action: 'deny', why: { kind: 'rule', ruleId: rule.id } });
      });
    }

    it('an allow does not widen to other letter cases', () => {
      k.rules.createRule({ tool_pattern: 'write_file', path_pattern: 'build/*', action: 'allow', priority: 1 });
      expect(k.gate.check(k.call('write_file', { path: 'build/out.js' })).action).toBe('allow');
      expect(k.gate.check(k.call('write_file', { path: 'BUILD/out.js' })).action).toBe('require');
    });
  });

  describe('X5 / F2: symlink escapes never run unasked', () => {
    // The file tools work only inside the working directory (they refuse the rest themselves): the gate denies them,
    // as the tool would. Any other tool with a path (an MCP server's) asks.
    it('a symlink out of the workspace: the file tools are denied, an MCP tool asks; whatever the rules, bypass or fast-path', () => {
      k.link('leak', k.outside);
      k.rules.createRule({ tool_pattern: '*', path_pattern: 'leak/*', action: 'allow', priority: -1 });
      k.bypass.grant(1, { kind: 'all' }, null);
      const rc = k.rc({ allow_fs_writes: ['.', k.outside] });
      for (const tool of ['read_file', 'write_file']) {
        const d = k.gate.check(k.call(tool, { path: 'leak/id_rsa' }, { runContext: rc }));
        expect(d).toMatchObject({ action: 'deny', why: { kind: 'guard', guard: 'outside_working_dir' } });
      }
      for (const tool of ['mcp__fs__read_file', 'mcp__fs__write_file']) {
        const d = k.gate.check(k.call(tool, { path: 'leak/id_rsa' }, { runContext: rc }));
        expect(d).toMatchObject({ action: 'require', why: { kind: 'guard', guard: 'symlink_escape' } });
      }
    });

    it('F4: a not-yet-existing path below an escaping link too', () => {
      k.link('link', k.outside);
      const rc = k.rc({ allow_fs_writes: ['.'] });
      const at = { path: 'link/new/dir/file.txt' };
      expect(k.gate.check(k.call('write_file', at, { runContext: rc })).why).toMatchObject({
        kind: 'guard',
        guard: 'outside_working_dir',
      });
      expect(k.gate.check(k.call('mcp__fs__write_file', at, { runContext: rc })).why).toMatchObject({
        kind: 'guard',
        guard: 'symlink_escape',
      });
    });
  });

  describe('F7 / C3: protected and agent-steering paths', () => {
    it('.git/config and .git/hooks/** are denied for writes; .git/objects stays writable', () => {
      mkdirSync(join(k.workspace, '.git/hooks'), { recursive: true });
      const rc = k.rc({ allow_fs_writes: ['.'] });
      for (const path of [
        '.git/config',
        '.git/hooks/pre-commit',
        '.git/hooks/new/x',
        'sub/.git/config',
        '.GIT/Config',
      ]) {
        expect(k.gate.check(k.call('write_file', { path }, { runContext: rc })).why).toMatchObject({
          kind: 'guard',
          guard: 'git_config',
        });
      }
      expect(k.gate.check(k.call('write_file', { path: '.git/objects/ab/cd' }, { runContext: rc })).action).toBe(
        'allow',
      );
      expect(k.gate.check(k.call('read_file', { path: '.git/config' })).action).toBe('allow');
    });

    it('agent-steering files always ask for writes, never auto-approved; their siblings stay writable', () => {
      const rc = k.rc({ allow_fs_writes: ['.'] });
      k.rules.createRule({ tool_pattern: '@fs_write', action: 'allow', priority: -1 });
      k.bypass.grant(1, { kind: 'all' }, null);
      for (const path of [
        'AGENTS.md',
        'sub/CLAUDE.md',
        '.mcp.json',
        '.vscode/settings.json',
        '.cursor/rules/x.mdc',
        '.husky/pre-commit',
        '.envrc',
        '.bashrc',
        '.github/copilot-instructions.md',
      ]) {
        expect(k.gate.check(k.call('write_file', { path }, { runContext: rc }))).toMatchObject({
          action: 'require',
          why: { kind: 'guard', guard: 'steering_file' },
        });
      }
      expect(k.gate.check(k.call('write_file', { path: 'notes.md' }, { runContext: rc })).action).toBe('allow');
      expect(k.gate.check(k.call('read_file', { path: 'AGENTS.md' })).action).toBe('allow');
    });
  });

  describe('folders above the workspace do not count', () => {
    it('a workspace inside ~/.skald (the web default) or below a .git folder stays writable', () => {
      const guards = new Guards({
        workspaceDir: '/home/u/.skald/workspace',
        dataDir: '/home/u/.skald',
        dbFile: '/home/u/.skald/skald.db',
      });
      const roots = guards.roots();
      expect(
        guards.checkPath(roots, writeFileTool, '/home/u/.skald/workspace/a.txt', '/home/u/.skald/workspace/a.txt'),
      ).toBeNull();
      expect(
        guards.checkPath(
          roots,
          writeFileTool,
          '/home/u/.skald/workspace/AGENTS.md',
          '/home/u/.skald/workspace/AGENTS.md',
        ),
      ).toMatchObject({ guard: 'steering_file' });
      expect(
        guards.checkPath(roots, writeFileTool, '/home/u/.skald/settings.json', '/home/u/.skald/settings.json'),
      ).toMatchObject({ action: 'deny', guard: 'app_data_write' });
      const inGit = new Guards({ workspaceDir: '/r/.git/hooks/ws', dataDir: '/d', dbFile: '/d/skald.db' });
      expect(
        inGit.checkPath(inGit.roots(), writeFileTool, '/r/.git/hooks/ws/x.txt', '/r/.git/hooks/ws/x.txt'),
      ).toBeNull();
      // Outside the workspace the whole path is judged (for a tool that may go there: the file tools may not).
      expect(guards.checkPath(roots, writeFileTool, '/home/u/.bashrc', '/home/u/.bashrc')).toMatchObject({
        guard: 'outside_working_dir',
      });
      expect(
        guards.checkPath(
          roots,
          null /* mcp__fs__write_file: a tool the core does not know */,
          '/home/u/.bashrc',
          '/home/u/.bashrc',
        ),
      ).toMatchObject({
        guard: 'steering_file',
      });
    });
  });

  describe("C1: the app's data folder and database", () => {
    it('writing the data folder is denied; the workspace inside it stays writable', () => {
      const rc = k.rc({ allow_fs_writes: [k.dataDir, k.workspace] });
      for (const path of [
        join(k.dataDir, 'skald.db'),
        join(k.dataDir, 'skald.db-wal'),
        join(k.dataDir, 'settings.json'),
        relative(k.workspace, join(k.dataDir, 'skald.db')),
      ]) {
        expect(k.gate.check(k.call('write_file', { path }, { runContext: rc })).why).toMatchObject({
          kind: 'guard',
          guard: 'app_data_write',
        });
      }
      expect(k.gate.check(k.call('write_file', { path: 'ok.txt' }, { runContext: rc })).action).toBe('allow');
    });

    it('reading the data folder always asks (the file tools, outside the working directory, are denied)', () => {
      k.bypass.grant(1, { kind: 'all' }, null);
      const rc = k.rc({ allow_fs_reads: [k.dataDir] });
      const db = { path: join(k.dataDir, 'skald.db') };
      const d = k.gate.check(k.call('show_file_to_user', db, { runContext: rc })); // a tool that only reads and may go there
      expect(d).toMatchObject({ action: 'require', why: { guard: 'app_data_touch' } });
      expect(k.gate.check(k.call('read_file', db, { runContext: rc }))).toMatchObject({
        action: 'deny',
        why: { guard: 'outside_working_dir' },
      });
    });

    it('a shell command that names the data folder or the database always asks, even when allowed', () => {
      k.rules.createRule({ tool_pattern: 'execute_cmd', action: 'allow', priority: 1 });
      k.bypass.grant(1, { kind: 'all' }, null);
      for (const command of [
        `sqlite3 ${join(k.dataDir, 'skald.db')} "delete from approval_rules"`,
        'cp x ../skald.db',
        `rm -rf ${k.dataDir}`,
        `ls ${k.dataDir}/`,
      ]) {
        expect(k.gate.check(k.call('execute_cmd', { command, workdir: k.workspace }))).toMatchObject({
          action: 'require',
          why: { kind: 'guard', guard: 'app_data_touch' },
        });
      }
      // Naming a file in the workspace (which lives inside the data folder) is fine.
      expect(
        k.gate.check(k.call('execute_cmd', { command: `cat ${join(k.workspace, 'notes.md')}`, workdir: k.workspace }))
          .action,
      ).toBe('allow');
      expect(k.gate.check(k.call('execute_cmd', { command: 'ls', workdir: k.dataDir })).why).toMatchObject({
        guard: 'app_data_touch',
      });
    });
  });
});
