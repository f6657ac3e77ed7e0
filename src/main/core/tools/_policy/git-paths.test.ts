/**
 * Every place git reads hooks or config from is refused to the write tools, on a real workspace: each location of
 * attack-inputs.ts, the folders and files a repository's own config names (core.hooksPath, include.path), a
 * submodule's and a worktree's repository reached through a `.git` pointer file; siblings stay writable.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GIT_CONFIGURED, GIT_PROTECTED_WRITES, GIT_WRITABLE } from '../../approval/attack-inputs';
import { editFileTool } from '../fs/edit-file';
import { writeFileTool } from '../fs/write-file';
import { failed, makeWorkspace, ok, type TestWorkspace } from '../_testing/workspace';
import { gitConfiguredReason, gitProtectedReason } from './git-paths';

let ws: TestWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
  mkdirSync(join(ws.root, '.git/hooks'), { recursive: true });
  writeFileSync(join(ws.root, '.git/config'), '[core]\n\tbare = false\n');
});
afterEach(() => ws.cleanup());

describe('git hooks and config: every location', () => {
  for (const path of GIT_PROTECTED_WRITES) {
    it(`write_file refuses ${path}`, async () => {
      expect(await failed(writeFileTool, { path, content: '#!/bin/sh\ntouch PWNED\n' }, ws.ctx)).toMatch(
        /protected path/,
      );
      expect(gitProtectedReason(path.toLowerCase().split('/'))).not.toBeNull();
    });
  }
  for (const path of GIT_WRITABLE) {
    it(`write_file still writes ${path}`, async () => {
      expect(await ok(writeFileTool, { path, content: 'data' }, ws.ctx)).toMatch(/wrote|created|bytes/i);
    });
  }

  it('edit_file cannot change .git/config either', async () => {
    expect(
      await failed(editFileTool, { path: '.git/config', old_string: 'false', new_string: 'true' }, ws.ctx),
    ).toMatch(/protected path/);
    expect(readFileSync(join(ws.root, '.git/config'), 'utf8')).toContain('bare = false');
  });
});

describe('what a repository config names', () => {
  for (const [config, paths] of GIT_CONFIGURED) {
    it(`${JSON.stringify(config.trim())} protects ${paths.join(', ')}`, async () => {
      writeFileSync(join(ws.root, '.git/config'), config);
      for (const rel of paths) {
        const path = rel === 'shared.gitconfig' ? join(ws.root, 'shared.gitconfig') : rel;
        expect(await failed(writeFileTool, { path, content: '#!/bin/sh\ntouch PWNED\n' }, ws.ctx)).toMatch(
          /protected path/,
        );
      }
      expect(await ok(writeFileTool, { path: 'src/ok.txt', content: 'fine' }, ws.ctx)).toBeTruthy();
    });
  }

  it('a hooksPath set in a submodule whose .git is a pointer file, and in a linked worktree, protects its folder', async () => {
    mkdirSync(join(ws.root, '.git/modules/sub'), { recursive: true });
    writeFileSync(join(ws.root, '.git/modules/sub/config'), '[core]\n\thooksPath = my-hooks\n');
    mkdirSync(join(ws.root, 'sub'));
    writeFileSync(join(ws.root, 'sub/.git'), 'gitdir: ../.git/modules/sub\n');
    mkdirSync(join(ws.root, '.git/worktrees/wt'), { recursive: true });
    writeFileSync(join(ws.root, '.git/worktrees/wt/commondir'), '../..\n');
    writeFileSync(join(ws.root, '.git/worktrees/wt/config.worktree'), '[core]\n\thooksPath = wt-hooks\n');
    mkdirSync(join(ws.root, 'wt'));
    writeFileSync(join(ws.root, 'wt/.git'), `gitdir: ${join(ws.root, '.git/worktrees/wt')}\n`);
    expect(await failed(writeFileTool, { path: 'sub/my-hooks/pre-commit', content: 'x' }, ws.ctx)).toMatch(
      /core\.hooksPath/,
    );
    expect(await failed(writeFileTool, { path: 'wt/wt-hooks/pre-commit', content: 'x' }, ws.ctx)).toMatch(
      /core\.hooksPath/,
    );
    expect(await ok(writeFileTool, { path: 'sub/my-hooks.md', content: 'x' }, ws.ctx)).toBeTruthy();
    expect(existsSync(join(ws.root, 'sub/my-hooks/pre-commit'))).toBe(false);
  });

  it('no repository, no config: nothing extra is protected', () => {
    expect(gitConfiguredReason(join(ws.outside, 'a/b/c.txt'))).toBeNull();
  });
});
