/**
 * Walks skip what is protected (docs/approval.md): with `@fs_any deny private/*` and no bypass, `grep_files` and a
 * recursive `list_files` on "." are allowed by the working-directory fast path, yet return nothing from private/,
 * with both grep engines, and say that they left something out. With the data folder inside the working directory,
 * neither lists nor reads the database, the key file or the settings. Real core, scripted LLM, real files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { TN } from '../../../shared/tool-names';
import { createGrepFilesTool } from '../tools/fs/grep-files';
import { listFilesTool } from '../tools/fs/list-files';
import { makeKit } from '../approval/test-kit';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  cleanupTempDirs();
});

const MARK = 'WALK-MARKER-77';

function results(events: { type: string }[]): string[] {
  return events.filter((e) => e.type === 'tool_done').map((e) => (e as unknown as { result: string }).result);
}

describe('a deny rule on a subtree, no bypass', () => {
  const calls = [
    { name: TN.GREP_FILES, arguments: { path: '.', pattern: MARK } },
    { name: TN.GREP_FILES, arguments: { pattern: MARK, output_mode: 'files_only' } },
    { name: TN.GREP_FILES, arguments: { pattern: MARK, output_mode: 'count' } },
    { name: TN.GREP_FILES, arguments: { pattern: MARK, context_lines: 2 } },
    { name: TN.LIST_FILES, arguments: { path: '.', recursive: true } },
    { name: TN.LIST_FILES, arguments: { recursive: true } },
    { name: TN.LIST_FILES, arguments: { path: '.' } },
    { name: TN.LIST_FILES, arguments: { path: 'nested', recursive: true } },
  ];
  for (const pattern of ['private/*', 'private', 'priv*', 'PRIVATE/*']) {
    it(`@fs_any deny ${pattern}: grep_files and list_files on "." return nothing from private/`, async () => {
      h = await startHarness({ turns: [{ toolCalls: calls }, { text: 'ok' }] });
      mkdirSync(join(h.workspace, 'private/deep'), { recursive: true });
      mkdirSync(join(h.workspace, 'nested/private'), { recursive: true });
      writeFileSync(join(h.workspace, 'private/p.txt'), `${MARK} private\n`);
      writeFileSync(join(h.workspace, 'private/deep/q.txt'), `${MARK} deep\n`);
      writeFileSync(join(h.workspace, 'nested/private/r.txt'), `${MARK} nested\n`); // not covered: the rule is workspace-relative
      writeFileSync(join(h.workspace, 'public.txt'), `${MARK} public\n`);
      h.core.approval.rules.createRule({
        tool_pattern: '@fs_any',
        path_pattern: pattern,
        action: 'deny',
        priority: 50,
      });
      const sessionId = await h.newSession();
      const events = await h.sendAndSettle(sessionId, 'search');
      const decisions = events.flatMap((e) => (e.type === 'tool_decision' ? [e.decision] : []));
      expect(decisions.every((d) => d.action === 'allow' && d.why.kind === 'fast_path')).toBe(true);
      const out = results(events);
      expect(out).toHaveLength(calls.length);
      for (const r of out.slice(0, 7)) {
        expect(r).not.toMatch(/(^|\n)private(\/|:|$)|private\/p\.txt|deep\/q\.txt/);
        expect(r).not.toContain(`${MARK} private`);
        expect(r).not.toContain(`${MARK} deep`);
      }
      // The root-level calls say that they left something out; what is not protected is still found.
      for (const r of out.slice(0, 7)) expect(r).toMatch(/left out because a rule or guard protects them: private/);
      expect(out[0]).toContain(`public.txt:1:${MARK} public`);
      expect(out[0]).toContain(`nested/private/r.txt:1:${MARK} nested`);
      expect(out[4]).toContain('public.txt');
      expect(out[7]).toContain('private/r.txt'); // listing nested/: its own private/ is not what the rule names
      expect(JSON.stringify(h.llm.requests.at(-1)!.body)).not.toContain(`${MARK} private`);
    });
  }

  it('an explicit ask rule on a subtree is skipped by a walk too (nobody could be asked mid-walk)', async () => {
    h = await startHarness({
      turns: [{ toolCalls: [{ name: TN.GREP_FILES, arguments: { pattern: MARK } }] }, { text: 'ok' }],
    });
    mkdirSync(join(h.workspace, 'drafts'));
    writeFileSync(join(h.workspace, 'drafts/d.txt'), `${MARK} draft\n`);
    h.core.approval.rules.createRule({ tool_pattern: 'grep_files', path_pattern: 'drafts/*', action: 'require' });
    const sessionId = await h.newSession();
    const [r] = results(await h.sendAndSettle(sessionId, 'grep'));
    expect(r).toMatch(/^No matches/);
    expect(r).toMatch(/left out because a rule or guard protects them: drafts \(rule \d+: Ask grep_files drafts\/\*\)/);
  });

  it('an allow rule on a subtree excludes nothing; a rule for another tool excludes nothing', async () => {
    h = await startHarness({
      turns: [{ toolCalls: [{ name: TN.GREP_FILES, arguments: { pattern: MARK } }] }, { text: 'ok' }],
    });
    mkdirSync(join(h.workspace, 'docs'));
    writeFileSync(join(h.workspace, 'docs/a.txt'), `${MARK} docs\n`);
    h.core.approval.rules.createRule({ tool_pattern: '@fs_any', path_pattern: 'docs/*', action: 'allow' });
    h.core.approval.rules.createRule({ tool_pattern: 'read_file', path_pattern: 'docs/*', action: 'deny' });
    const sessionId = await h.newSession();
    const [r] = results(await h.sendAndSettle(sessionId, 'grep'));
    expect(r).toContain(`docs/a.txt:1:${MARK} docs`);
    expect(r).not.toMatch(/left out/);
  });
});

describe('the data folder inside the working directory', () => {
  it('grep_files and list_files on "." neither list nor read skald.db, secret.key or settings.json', async () => {
    // The data folder is <root>/data and the workspace its parent's sibling: make the working directory the root.
    const root = tempDir();
    const dataDir = join(root, 'data');
    h = await startHarness({
      dataDir,
      turns: [
        {
          toolCalls: [
            { name: TN.GREP_FILES, arguments: { path: root, pattern: '.', output_mode: 'files_only', limit: 5000 } },
            { name: TN.LIST_FILES, arguments: { path: root, recursive: true, limit: 10_000 } },
          ],
        },
        { text: 'ok' },
      ],
    });
    writeFileSync(join(dataDir, 'secret.key'), 'KEY-MATERIAL-1234\n');
    writeFileSync(join(dataDir, 'settings.json'), '{"token":"SETTINGS-9"}\n');
    writeFileSync(join(h.workspace, 'w.txt'), 'workspace file\n');
    const sessionId = await h.newSession();
    // The whole root is readable for this session: the data folder inside it must still be left out.
    await h.call('chat:setWorkingDirectory', { sessionId, path: root });
    const events = await h.sendAndSettle(sessionId, 'look around');
    const decided = events
      .filter((e) => e.type === 'tool_decision')
      .map((e) => (e as { decision: { action: string } }).decision.action);
    expect(decided).toEqual(['allow', 'allow']);
    const [grep, list] = results(events);
    for (const r of [grep!, list!]) {
      expect(r).not.toMatch(/skald\.db|secret\.key|settings\.json|KEY-MATERIAL|SETTINGS-9/);
      expect(r).toMatch(/left out because a rule or guard protects them: data \(the app's data folder\)/);
    }
    expect(grep).toContain('ws/w.txt');
    expect(list).toContain('ws/w.txt');
  });
});

describe('both grep engines leave out the same and say the same', () => {
  it('ripgrep and the JS engine give the same answer under a deny rule', async () => {
    const k = await makeKit();
    try {
      k.file('private/a.txt', `${MARK}\n`);
      k.file('private/sub/b.txt', `${MARK}\n`);
      k.file('open/c.txt', `${MARK}\n`);
      k.rules.createRule({ tool_pattern: '@fs_any', path_pattern: 'private/*', action: 'deny' });
      const call = k.call(TN.GREP_FILES, { path: resolve(k.workspace), pattern: MARK });
      const ctx = {
        workingDir: k.workspace,
        workspaceDir: k.workspace,
        signal: new AbortController().signal,
        log: () => undefined,
        protectedPaths: k.gate.walkPolicy(call),
      };
      const answers = [];
      for (const ripgrepPath of ['/usr/bin/rg', null]) {
        // jsPrefixMs 0: ripgrep answers alone, so its own filtering of protected hits is what is tested.
        const out = await createGrepFilesTool({ ripgrepPath, jsPrefixMs: 0 }).executeAsync(
          { pattern: MARK, path: k.workspace },
          ctx,
        );
        answers.push(out);
      }
      expect(answers[0], JSON.stringify(answers)).toEqual(answers[1]);
      expect(answers[0]).toMatchObject({ kind: 'completed', result: expect.stringContaining('open/c.txt:1:') });
      expect(JSON.stringify(answers[0])).not.toContain('private/a.txt');
      const listed = await listFilesTool.executeAsync({ path: k.workspace, recursive: true }, ctx);
      expect(listed).toMatchObject({ kind: 'completed', result: expect.stringMatching(/^open\/c\.txt$/m) });
      expect((listed as { result: string }).result).not.toMatch(/^private/m);
    } finally {
      k.close();
    }
  });
});
