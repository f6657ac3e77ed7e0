/**
 * `show_file_to_user` on what is not a file to show (docs/viewer.md "How a file reaches the viewer"): a missing path,
 * a dangling symlink, a folder and a FIFO each fail with a sentence the model can act on and open nothing; a file
 * (inside the workspace or outside, by a relative or absolute path) opens. Real files in a temp folder.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExecutionOutcome } from '../tool';
import type { InterfaceCall } from './interface-tool';
import { showFileToUserTool } from './show-file-to-user';

let root: string;
let workspace: string;
let opened: string[];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'skald-show-'));
  workspace = join(root, 'workspace');
  mkdirSync(join(workspace, 'docs'), { recursive: true });
  writeFileSync(join(workspace, 'docs', 'a.md'), '# A\n');
  writeFileSync(join(root, 'outside.txt'), 'outside\n');
  symlinkSync(join(workspace, 'gone.md'), join(workspace, 'dangling.md'));
  execFileSync('mkfifo', [join(workspace, 'pipe')]);
  opened = [];
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function show(path: string): Promise<ExecutionOutcome> {
  const call = {
    env: { workingDir: workspace, workspaceDir: workspace, openFile: (p: string) => opened.push(p) },
  } as unknown as InterfaceCall;
  const value = await showFileToUserTool.run({ path }, call);
  return typeof value === 'string' ? { kind: 'completed', result: value } : value;
}

describe('show_file_to_user', () => {
  it.each([
    ['missing.md', /^missing\.md does not exist, so nothing was opened\. Check the path/],
    ['dangling.md', /^dangling\.md does not exist/],
    ['docs', /^docs is a folder; the viewer shows files\. Pass a file inside it/],
    ['pipe', /^pipe is not a regular file/],
  ])('fails on %s, opening nothing', async (path, error) => {
    const outcome = await show(path);
    expect(outcome.kind).toBe('failed');
    expect(outcome.kind === 'failed' && outcome.error).toMatch(error);
    expect(opened).toEqual([]);
  });

  it('opens a file in the workspace by its relative path, and one outside by its absolute path', async () => {
    expect(await show('docs/a.md')).toEqual({ kind: 'completed', result: "Opened docs/a.md in the user's viewer." });
    const outside = join(root, 'outside.txt');
    expect((await show(outside)).kind).toBe('completed');
    expect(opened).toEqual(['docs/a.md', outside]);
  });
});
