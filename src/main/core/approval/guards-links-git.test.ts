/**
 * The gate's hard guards for hard links and for git's hooks and config, on a real temp workspace with real hard
 * links (docs/guards.md): a call through a second name of a guarded file is denied whatever the rules, bypass or
 * fast-path say; every git location of attack-inputs.ts is denied for writes, and reading it stays open.
 */
import { linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forgetGuardedIdentities } from '../tools/_policy/hardlinks';
import { GIT_CONFIGURED, GIT_PROTECTED_WRITES, GIT_WRITABLE } from './attack-inputs';
import { LAYOUTS, makeKit, type Kit } from './test-kit';

let k: Kit;

const openEverything = (k: Kit) => {
  k.rules.createRule({ tool_pattern: '*', path_pattern: '*', action: 'allow', priority: -1_000_000 });
  k.bypass.grant(1, { kind: 'all' }, null);
  return k.rc({ allow_fs_writes: ['.'], allow_fs_reads: [k.dataDir] });
};

describe.each(LAYOUTS)('a session in the %s', (layout) => {
  beforeEach(async () => {
    k = await makeKit({ layout });
    forgetGuardedIdentities();
  });
  afterEach(() => k.close());

  describe('hard links to guarded files', () => {
    const TOOLS = [
      'read_file',
      'search_file',
      'grep_files',
      'get_ast_outline',
      'edit_file',
      'write_file',
      'mcp__fs__read_text_file',
    ];
    const targets: [string, (k: Kit) => string][] = [
      ['secrets/key.txt', (k) => k.file('secrets/key.txt', 'SECRET')],
      ['a nested Secrets folder', (k) => k.file('a/b/Secrets/c/key.pem', 'SECRET')],
      ['the database file', (k) => join(k.dataDir, 'skald.db')],
      [
        'settings.json of the data folder',
        (k) => (writeFileSync(join(k.dataDir, 'settings.json'), '{}'), join(k.dataDir, 'settings.json')),
      ],
    ];
    for (const [label, make] of targets) {
      for (const tool of TOOLS) {
        it(`${tool} through a hard link to ${label} is denied`, () => {
          linkSync(make(k), join(k.workspace, 'hl.txt'));
          const rc = openEverything(k);
          for (const path of ['hl.txt', './hl.txt', join(k.workspace, 'hl.txt'), 'x/../hl.txt']) {
            const key = tool.startsWith('mcp__') ? 'file_path' : 'path';
            expect(k.gate.check(k.call(tool, { [key]: path, pattern: 'S' }, { runContext: rc }))).toMatchObject({
              action: 'deny',
              why: { kind: 'guard', guard: 'secrets' },
            });
          }
        });
      }
    }

    it('a hard link to an ordinary file is judged by its path as before', () => {
      linkSync(k.file('a.txt'), join(k.workspace, 'b.txt'));
      expect(k.gate.check(k.call('read_file', { path: 'b.txt' })).action).toBe('allow');
    });
  });

  describe('git hooks and config, every location', () => {
    beforeEach(() => {
      mkdirSync(join(k.workspace, '.git/hooks'), { recursive: true });
      writeFileSync(join(k.workspace, '.git/config'), '[core]\n');
    });
    for (const path of GIT_PROTECTED_WRITES) {
      it(`writing ${path} is denied; reading it is not`, () => {
        const rc = openEverything(k);
        for (const tool of ['write_file', 'edit_file', 'insert_at_line', 'mcp__fs__write_file']) {
          expect(k.gate.check(k.call(tool, { path }, { runContext: rc }))).toMatchObject({
            action: 'deny',
            why: { kind: 'guard', guard: 'git_config' },
          });
        }
        expect(k.gate.check(k.call('read_file', { path })).action).toBe('allow');
      });
    }
    it('siblings stay writable', () => {
      const rc = k.rc({ allow_fs_writes: ['.'] });
      for (const path of GIT_WRITABLE)
        expect(k.gate.check(k.call('write_file', { path }, { runContext: rc })).action).toBe('allow');
    });
    for (const [config, paths] of GIT_CONFIGURED) {
      it(`a repository config ${JSON.stringify(config.trim())} makes ${paths.join(', ')} denied`, () => {
        writeFileSync(join(k.workspace, '.git/config'), config);
        const rc = openEverything(k);
        for (const rel of paths) {
          const path = rel === 'shared.gitconfig' ? join(k.workspace, 'shared.gitconfig') : rel;
          expect(k.gate.check(k.call('write_file', { path }, { runContext: rc }))).toMatchObject({
            action: 'deny',
            why: { guard: 'git_config' },
          });
        }
      });
    }
  });
});
