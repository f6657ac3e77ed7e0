/**
 * Bypass scopes through the real gate (real SQLite, real temp workspace with symlinks): a bypass covers exactly
 * what its label says, never lifts a deny rule or a hard guard, never covers a command with unsafe constructs,
 * and can be revoked one by one.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { covers, describeScope, type BypassScope } from './bypass';
import { makeKit, type Kit } from './test-kit';

let k: Kit;
beforeEach(async () => {
  k = await makeKit();
});
afterEach(() => k.close());

const fsCall = (tool: string, rel: string) =>
  k.call(tool, { path: join(k.workspace, rel), content: 'x' }, { category: 'filesystem' });
const shCall = (command: string) => k.call('execute_cmd', { command }, { category: 'shell' });
const decide = (call: ReturnType<Kit['call']>) => {
  const d = k.gate.check(call);
  return `${d.action}:${d.why.kind}`;
};
const folder = (rel: string) => join(k.workspace, rel);

describe('this tool under this folder', () => {
  beforeEach(() => {
    k.file('src/a.ts');
    k.file('src/deep/b.ts');
    k.file('docs/c.md');
    k.bypass.grant(1, { kind: 'tool_path', tool: 'edit_file', folder: folder('src') }, null);
  });

  it('covers the tool anywhere below the folder, and nothing else', () => {
    expect(decide(fsCall('edit_file', 'src/a.ts'))).toBe('allow:bypass');
    expect(decide(fsCall('edit_file', 'src/deep/b.ts'))).toBe('allow:bypass');
    expect(decide(fsCall('edit_file', 'src/new-file.ts'))).toBe('allow:bypass');
    expect(decide(fsCall('edit_file', 'docs/c.md'))).toBe('require:rule');
    expect(decide(fsCall('edit_file', 'src-evil/a.ts'))).toBe('require:rule'); // a whole component, not a prefix
    expect(decide(fsCall('edit_file', 'src/../docs/c.md'))).toBe('require:rule');
    expect(decide(fsCall('write_file', 'src/a.ts'))).toBe('require:rule'); // another tool of the same category
    expect(decide(shCall('rm src/a.ts'))).toBe('require:rule');
    expect(decide(k.call('edit_file', {}, { category: 'filesystem' }))).toBe('require:rule'); // no path, no cover
  });

  it('decides on the real target: a symlink out of the folder is not covered, one into it is', () => {
    k.link('src/out', k.outside);
    // Never allowed: the file tools refuse a path that leads out of the working directory, and the gate denies it.
    expect(decide(fsCall('edit_file', 'src/out/x.ts'))).toBe('deny:guard');
    k.link('alias', folder('src'));
    expect(decide(fsCall('edit_file', 'alias/a.ts'))).toBe('allow:bypass');
  });

  it('never lifts a deny rule or a hard guard inside its folder', () => {
    k.rules.createRule({ tool_pattern: 'edit_file', path_pattern: 'src/deep/*', action: 'deny', priority: 500 });
    expect(decide(fsCall('edit_file', 'src/deep/b.ts'))).toBe('deny:rule');
    expect(decide(fsCall('edit_file', 'src/secrets/key'))).toBe('deny:guard');
    k.bypass.grant(1, { kind: 'tool_path', tool: 'write_file', folder: k.workspace }, null);
    expect(decide(fsCall('write_file', '.git/hooks/pre-commit'))).toMatch(/^(deny|require):guard$/);
    expect(decide(fsCall('write_file', 'AGENTS.md'))).toBe('require:guard');
    expect(decide(fsCall('write_file', 'notes.md'))).toBe('allow:bypass');
  });
});

describe('a command family', () => {
  beforeEach(() => {
    k.bypass.grant(1, { kind: 'command', commands: ['git'] }, null);
  });

  it('covers commands whose every part runs that program, as written', () => {
    expect(decide(shCall('git status'))).toBe('allow:bypass');
    expect(decide(shCall('git add . && git commit -m "x"'))).toBe('allow:bypass');
    expect(decide(shCall('git status && rm -rf x'))).toBe('require:rule');
    expect(decide(shCall('git log | sh'))).toBe('require:rule');
    expect(decide(shCall('gitx status'))).toBe('require:rule');
    expect(decide(shCall('/usr/bin/git status'))).toBe('require:rule');
    // `\git` is `git` once bash removes the backslash (docs/shell-analysis.md): the same program, so covered.
    expect(decide(shCall('\\git status'))).toBe('allow:bypass');
    expect(decide(shCall('"/usr/bin/git" status'))).toBe('require:rule');
    expect(decide(k.call('read_file', { path: folder('git') }))).not.toBe('allow:bypass');
  });

  it('never covers substitution, `bash -c` or a redirect out of the workspace', () => {
    expect(decide(shCall('git commit -m "$(cat /etc/passwd)"'))).toBe('require:rule');
    expect(decide(shCall('git log > /tmp/x'))).toBe('require:rule');
    expect(decide(shCall('bash -c "git status"'))).toBe('require:rule');
  });

  it('never lifts a deny rule', () => {
    k.rules.createRule({ tool_pattern: 'execute_cmd', command_pattern: 'git push*', action: 'deny', priority: 1 });
    expect(decide(shCall('git push origin main'))).toBe('deny:rule');
    expect(decide(shCall('git pull'))).toBe('allow:bypass');
  });
});

describe('the store', () => {
  it('revokes one grant by id, or all of a session', () => {
    const a = k.bypass.grant(1, { kind: 'command', commands: ['git'] }, null, 'c1');
    const b = k.bypass.grant(1, { kind: 'category', category: 'filesystem' }, null, 'c2');
    k.bypass.grant(2, { kind: 'all' }, null);
    expect(k.bypass.revoke(1, a.id)).toBe(1);
    expect(k.bypass.list(1).map((g) => g.id)).toEqual([b.id]);
    expect(decide(shCall('git status'))).toBe('require:rule');
    expect(k.bypass.revoke(1)).toBe(1);
    expect(k.bypass.list(1)).toEqual([]);
    expect(k.bypass.list(2)).toHaveLength(1);
  });

  it('a new grant of the same scope replaces the old one', () => {
    k.bypass.grant(1, { kind: 'command', commands: ['git'] }, k.clock.now + 1_000);
    k.bypass.grant(1, { kind: 'command', commands: ['git'] }, null);
    expect(k.bypass.list(1)).toMatchObject([{ expiresAt: null }]);
  });

  it('labels say exactly what is covered', () => {
    const cases: [BypassScope, string][] = [
      [{ kind: 'tool_path', tool: 'edit_file', folder: folder('src') }, '`edit_file` under `src/`'],
      [{ kind: 'tool_path', tool: 'edit_file', folder: k.workspace }, '`edit_file` anywhere in the workspace'],
      [{ kind: 'tool_path', tool: 'read_file', folder: k.outside }, `\`read_file\` under \`${k.outside}/\``],
      [{ kind: 'command', commands: ['cd', 'npm'] }, '`cd *` and `npm *` commands'],
      [{ kind: 'tool', tool: 'mcp__gh__push' }, '`mcp__gh__push`, any arguments'],
      [{ kind: 'category', category: 'shell' }, 'every shell tool'],
      [{ kind: 'mcp_server', server: 'gh' }, 'every tool of MCP server `gh`'],
      [{ kind: 'all' }, 'every tool'],
    ];
    for (const [scope, label] of cases) expect(describeScope(scope, k.workspace)).toBe(label);
  });

  it('a category scope never covers a tool without a category, an MCP scope only its server', () => {
    const target = { toolName: 'mcp__ghx__push', category: null, path: null, commandParts: null };
    expect(covers({ kind: 'category', category: 'filesystem' }, target)).toBe(false);
    expect(covers({ kind: 'mcp_server', server: 'gh' }, target)).toBe(false);
    expect(covers({ kind: 'mcp_server', server: 'ghx' }, target)).toBe(true);
  });
});
