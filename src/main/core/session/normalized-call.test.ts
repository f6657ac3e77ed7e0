/**
 * One normalized form of a call's arguments (docs/approval.md "The normalized call"), through the real session path:
 * the scripted LLM over HTTP, the real registry, gate, Inbox and SQLite. Every alias of `path`, for every fs tool,
 * under a deny rule plus a bypass of everything, must be denied (the gate sees the path the tool would use); a
 * steering file reached by an alias still asks; a missing path is the working directory; the card, the Inbox, the
 * hash and the row carry the same arguments.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { argsHash } from '../approval/decisions';
import { TN } from '../../../shared/tool-names';
import { isFileTool } from '../../../shared/tool-traits';
import { createBuiltinTools, createToolRegistry } from '../tools/index';

let h: Harness;
afterEach(async () => {
  await h?.close();
  cleanupTempDirs();
});

const ALIASES = ['file', 'filepath', 'file_path', 'filePath', 'dir', 'directory'] as const;
const SECRET = 'PRIVATE-MARKER-41';

/** The other arguments each fs tool needs, so that only the path decides. */
/** Every file tool, by what it says it is (docs/tools.md "One tool shape"): a new one joins the walk by itself. */
const FS_ANY_TOOLS = createToolRegistry(createBuiltinTools({ requestRestart: () => undefined }))
  .allTraits()
  .filter(isFileTool)
  .map((t) => t.name);

const EXTRA: Record<string, Record<string, unknown>> = {
  [TN.READ_FILE]: {},
  [TN.WRITE_FILE]: { content: 'overwritten' },
  [TN.LIST_FILES]: { recursive: true },
  [TN.GREP_FILES]: { pattern: SECRET },
  [TN.SEARCH_FILE]: { pattern: SECRET },
  [TN.EDIT_FILE]: { old_string: SECRET, new_string: 'edited' },
  [TN.INSERT_AT_LINE]: { line: 1, content: 'inserted' },
  [TN.REPLACE_LINES]: { start_line: 1, end_line: 1, content: 'replaced' },
  [TN.GET_AST_OUTLINE]: {},
};
const isFolderTool = (tool: string) => tool === TN.LIST_FILES || tool === TN.GREP_FILES;

describe('every alias of path, for every fs tool, is decided on the path the tool uses', () => {
  it('a deny rule plus a bypass of everything: each call is denied, nothing read or written', async () => {
    const dataDir = join(tempDir(), 'data');
    const ws = resolve(dataDir, '..', 'ws');
    const spellings = [
      'private/p.ts',
      './private/p.ts',
      'docs/../private/p.ts',
      'PRIVATE/p.ts',
      join(ws, 'private/p.ts'),
    ];
    const calls: { name: string; arguments: Record<string, unknown> }[] = [];
    for (const tool of FS_ANY_TOOLS) {
      for (const alias of ALIASES) {
        for (const spelling of spellings) {
          const path = isFolderTool(tool) ? spelling.replace(/\/p\.ts$/, '') : spelling;
          calls.push({ name: tool, arguments: { [alias]: path, ...EXTRA[tool] } });
        }
      }
    }
    h = await startHarness({ dataDir, turns: [{ toolCalls: calls }, { text: 'done' }] });
    mkdirSync(join(h.workspace, 'private'), { recursive: true });
    writeFileSync(join(h.workspace, 'private/p.ts'), `export const x = '${SECRET}';\n`);
    h.core.approval.rules.createRule({
      tool_pattern: '@fs_any',
      path_pattern: 'private/*',
      action: 'deny',
      priority: 50,
    });
    const sessionId = await h.newSession();
    h.core.approval.bypass.grant(sessionId, { kind: 'all' }, null);
    const events = await h.sendAndSettle(sessionId, 'go');

    const rejected = events.filter((e) => e.type === 'tool_rejected');
    const ran = events.filter((e) => e.type === 'tool_done' || e.type === 'tool_error');
    expect(ran.map((e) => JSON.stringify(e)).slice(0, 3)).toEqual([]);
    expect(rejected).toHaveLength(calls.length);
    for (const r of rejected)
      expect((r as { reason: string }).reason).toMatch(
        /^Denied by policy: Denied by rule \d+: Deny @fs_any private\/\*/,
      );
    expect(readFileSync(join(h.workspace, 'private/p.ts'), 'utf8')).toBe(`export const x = '${SECRET}';\n`);
    // The model never saw the content.
    expect(JSON.stringify(h.llm.requests.at(-1)!.body)).not.toContain(`const x = '${SECRET}'`);
  }, 60_000);

  it('a steering file named through an alias still asks, under an allow rule and a bypass', async () => {
    const extra: Record<string, Record<string, unknown>> = {
      ...EXTRA,
      [TN.EDIT_FILE]: { old_string: 'steer', new_string: 'obey' },
    };
    const calls = [TN.WRITE_FILE, TN.EDIT_FILE, TN.INSERT_AT_LINE, TN.REPLACE_LINES].flatMap((tool) =>
      ALIASES.map((alias) => ({ name: tool, arguments: { [alias]: 'AGENTS.md', ...extra[tool] } })),
    );
    h = await startHarness({ turns: [{ toolCalls: calls }, { text: 'done' }] });
    writeFileSync(join(h.workspace, 'AGENTS.md'), 'steer the agent\n');
    h.core.approval.rules.createRule({ tool_pattern: '@fs_write', action: 'allow', priority: -10 });
    const sessionId = await h.newSession();
    h.core.approval.bypass.grant(sessionId, { kind: 'all' }, null);
    await h.call('chat:send', { sessionId, content: 'steer' });
    for (let i = 0; i < calls.length; i++) {
      const asked = await h.waitForEvent(
        'tool_decision',
        (e) =>
          e.decision.action === 'require' &&
          !h.events.some((x) => x.type === 'tool_rejected' && x.tool_call_id === e.tool_call_id),
      );
      expect(asked.decision).toMatchObject({ why: { kind: 'guard', text: expect.stringMatching(/agent-steering/) } });
      expect(JSON.parse(asked.arguments)).toMatchObject({ path: join(h.workspace, 'AGENTS.md') });
      const waiting = (await h.call('inbox:list', {})).approvals.find((a) => a.tool_call_id === asked.tool_call_id)!;
      await h.call('inbox:resolveApproval', {
        requestId: waiting.request_id,
        action: 'reject',
        note: '',
        argsHash: waiting.args_hash,
      });
      await h.waitForEvent('tool_rejected', (e) => e.tool_call_id === asked.tool_call_id);
    }
    await h.waitForEvent('done');
    expect(readFileSync(join(h.workspace, 'AGENTS.md'), 'utf8')).toBe('steer the agent\n');
  }, 60_000);

  it('an alias that contradicts path is a result the model can read, and nothing runs', async () => {
    h = await startHarness({
      turns: [
        { toolCalls: [{ name: TN.READ_FILE, arguments: { path: 'a.txt', file: 'private/p.ts' } }] },
        { text: 'ok' },
      ],
    });
    writeFileSync(join(h.workspace, 'a.txt'), 'harmless\n');
    const sessionId = await h.newSession();
    const events = await h.sendAndSettle(sessionId, 'read');
    const error = events.find((e) => e.type === 'tool_error') as { error: string } | undefined;
    expect(error?.error).toMatch(/Both "path" and "file" were given, with different values/);
    expect(events.some((e) => e.type === 'tool_decision')).toBe(false);
    expect(JSON.stringify(h.llm.requests[1]!.body)).toContain('Both \\"path\\" and \\"file\\"');
  });

  it('a NUL in a path is refused before the gate, with a short message', async () => {
    h = await startHarness({
      turns: [{ toolCalls: [{ name: TN.READ_FILE, arguments: { file: 'a\u0000b' } }] }, { text: 'ok' }],
    });
    const sessionId = await h.newSession();
    const events = await h.sendAndSettle(sessionId, 'read');
    expect((events.find((e) => e.type === 'tool_error') as { error: string }).error).toMatch(
      /path: must not contain a NUL character/,
    );
  });
});

describe('a missing path is the working directory, decided as such', () => {
  for (const [name, args] of [
    [TN.LIST_FILES, {}],
    [TN.LIST_FILES, { recursive: true }],
    [TN.GREP_FILES, { pattern: 'needle' }],
  ] as const) {
    it(`${name} ${JSON.stringify(args)} runs without asking, like path "."`, async () => {
      h = await startHarness({
        turns: [
          {
            toolCalls: [
              { name, arguments: args },
              { name, arguments: { ...args, path: '.' } },
            ],
          },
          { text: 'ok' },
        ],
      });
      writeFileSync(join(h.workspace, 'n.txt'), 'needle\n');
      const sessionId = await h.newSession();
      const events = await h.sendAndSettle(sessionId, 'list');
      const decisions = events.filter((e) => e.type === 'tool_decision') as unknown as {
        decision: { action: string; why: { kind: string } };
        arguments: string;
      }[];
      expect(decisions.map((d) => d.decision)).toEqual([
        expect.objectContaining({ action: 'allow', why: expect.objectContaining({ kind: 'fast_path' }) }),
        expect.objectContaining({ action: 'allow', why: expect.objectContaining({ kind: 'fast_path' }) }),
      ]);
      expect(decisions[0]!.arguments).toBe(decisions[1]!.arguments); // one normalized form, one hash
      expect(JSON.parse(decisions[0]!.arguments)).toMatchObject({ path: h.workspace });
      expect(events.some((e) => e.type === 'approval_required' || e.type === 'pending_write')).toBe(false);
    });
  }
});

describe('the card, the Inbox, the hash and the row carry the same normalized arguments', () => {
  it('an aliased, coerced write: what is shown is what is hashed, stored and run', async () => {
    h = await startHarness({
      turns: [
        {
          toolCalls: [
            {
              name: TN.INSERT_AT_LINE,
              arguments: { file_path: 'src/a.txt', line_number: '2', text: 'two\n', ignored: 'x' },
            },
          ],
        },
        { text: 'ok' },
      ],
    });
    mkdirSync(join(h.workspace, 'src'));
    writeFileSync(join(h.workspace, 'src/a.txt'), 'one\nthree\n');
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: 'insert' });
    const decided = await h.waitForEvent('tool_decision');
    const shown = JSON.parse(decided.arguments);
    expect(shown).toEqual({ path: join(h.workspace, 'src/a.txt'), line: 2, content: 'two\n' });
    const pending = await h.waitForEvent('pending_write');
    expect(pending.args_hash).toBe(argsHash(shown));
    expect(pending.new_content).toBe('one\ntwo\nthree\n');
    const inbox = (await h.call('inbox:list', {})).approvals[0]!;
    expect(JSON.parse(inbox.arguments)).toEqual(shown);
    const card = (await h.call('chat:history', { sessionId })).messages.flatMap((m) => m.tools)[0]!;
    expect(card.arguments).toBe(decided.arguments);
    await h.call('inbox:resolveApproval', {
      requestId: inbox.request_id,
      action: 'approve',
      note: '',
      argsHash: inbox.args_hash,
    });
    await h.waitForEvent('done');
    expect(readFileSync(join(h.workspace, 'src/a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    const row = h.core.db.prepare('SELECT effective_arguments, args_hash FROM chat_llm_tools').get() as {
      effective_arguments: string;
      args_hash: string;
    };
    expect(row).toEqual({ effective_arguments: decided.arguments, args_hash: pending.args_hash });
    const audit = h.core.db.prepare('SELECT DISTINCT args_hash FROM tool_decisions').all();
    expect(audit).toEqual([{ args_hash: pending.args_hash }]);
    // One decision shape, stored once (the audit): the card reads the latest one, which the row points at; the row
    // keeps no copy.
    expect(h.core.db.prepare('SELECT decision FROM chat_llm_tools').get()).toEqual({ decision: null });
    expect(
      h.core.db
        .prepare('SELECT t.decision_id = (SELECT max(id) FROM tool_decisions) AS latest FROM chat_llm_tools t')
        .get(),
    ).toEqual({ latest: 1 });
    expect(h.core.db.prepare('SELECT action, reason_kind, actor FROM tool_decisions ORDER BY id').all()).toEqual([
      { action: 'require', reason_kind: 'rule', actor: 'policy' },
      { action: 'allow', reason_kind: 'human', actor: 'user' },
    ]);
    const done = (await h.call('chat:history', { sessionId })).messages.flatMap((m) => m.tools)[0]!;
    expect(done.decision).toEqual({
      action: 'allow',
      why: { kind: 'human', ruleId: null, text: 'Decided by you.' },
      actor: 'user',
    });
    expect(decided.decision).toMatchObject({
      action: 'require',
      why: { kind: 'rule', ruleId: expect.any(Number) },
      actor: 'policy',
    });
  });
});

describe("the approval card shows the tool's own dry run", () => {
  it('an edit the tool would refuse shows the refusal and the arguments, no diff', async () => {
    h = await startHarness({
      turns: [
        { toolCalls: [{ name: TN.EDIT_FILE, arguments: { file: 'a.txt', old_string: 'absent', new_string: 'x' } }] },
        { text: 'ok' },
      ],
    });
    writeFileSync(join(h.workspace, 'a.txt'), 'present\n');
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: 'edit' });
    const asked = await h.waitForEvent('approval_required');
    expect(h.events.some((e) => e.type === 'pending_write')).toBe(false);
    const item = (await h.call('inbox:list', {})).approvals[0]!;
    expect(item).toMatchObject({
      request_id: asked.request_id,
      old_content: null,
      new_content: null,
      refusal: expect.stringMatching(/old_string was not found in a\.txt/),
    });
    await h.call('inbox:resolveApproval', {
      requestId: item.request_id,
      action: 'reject',
      note: '',
      argsHash: item.args_hash,
    });
    await h.waitForEvent('done');
  });

  it('a command shows its whole line, by the preview the tool gives', async () => {
    h = await startHarness({
      turns: [{ toolCalls: [{ name: TN.EXECUTE_CMD, arguments: { cmd: 'echo hi && ls' } }] }, { text: 'ok' }],
    });
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: 'run' });
    const shown = await h.waitForEvent('pending_write');
    expect(shown).toMatchObject({ path: '$ execute_cmd', old_content: null, new_content: '$ echo hi && ls' });
    await h.call('inbox:resolveApproval', {
      requestId: shown.request_id,
      action: 'reject',
      note: '',
      argsHash: shown.args_hash,
    });
    await h.waitForEvent('done');
  });
});

describe('normalize', () => {
  const registry = createToolRegistry(createBuiltinTools({ requestRestart: () => undefined }));
  const wd = '/work/space';
  const samples: [string, Record<string, unknown>][] = [
    [TN.READ_FILE, { file: 'a.txt', start_line: '3', line_count: 10 }],
    [TN.LIST_FILES, {}],
    [TN.GREP_FILES, { query: 'x', directory: 'src', mode: 'count' }],
    [TN.EDIT_FILE, { filepath: '../b.txt', old_text: 'a', new_text: 'b' }],
    [TN.EXECUTE_CMD, { cmd: 'ls', timeout_secs: '5' }],
    [TN.GET_AST_OUTLINE, { filePath: '/abs/c.ts' }],
  ];
  for (const [name, args] of samples) {
    it(`${name}: normalizing the normalized form gives it back`, () => {
      const once = registry.normalize(name, args, wd);
      expect(once.ok).toBe(true);
      if (!once.ok) return;
      expect(registry.normalize(name, once.args, wd)).toEqual(once);
      expect(
        Object.keys(once.args).some((k) =>
          ['file', 'filepath', 'file_path', 'filePath', 'dir', 'directory', 'cmd'].includes(k),
        ),
      ).toBe(false);
    });
  }

  it('execute_cmd: a missing workdir is the working directory; a relative one is resolved', () => {
    expect(registry.normalize(TN.EXECUTE_CMD, { command: 'ls' }, wd)).toEqual({
      ok: true,
      args: { command: 'ls', workdir: wd, timeout: 120 },
    });
    expect(registry.normalize(TN.EXECUTE_CMD, { command: 'ls', workdir: 'sub' }, wd)).toMatchObject({
      args: { workdir: join(wd, 'sub') },
    });
  });

  it('a name outside the registry passes through as sent', () => {
    const args = { file: 'x', anything: 1 };
    expect(registry.normalize('mcp__srv__do', args, wd)).toEqual({ ok: true, args });
  });

  it('no file is created by normalizing', () => {
    expect(registry.normalize(TN.WRITE_FILE, { file: 'new.txt', content: 'x' }, wd).ok).toBe(true);
    expect(existsSync(join(wd, 'new.txt'))).toBe(false);
  });
});

describe('a command that cannot run fails its arguments, before the gate reads it', () => {
  it('8 MB of words and a NUL: tool errors the model can read, no card, the grammar never reads them', async () => {
    const { ShellAnalyzer } = await import('../approval/shell');
    const analyze = vi.spyOn(ShellAnalyzer.prototype, 'analyze');
    const huge = `echo ${'ab '.repeat((8 * 1024 * 1024) / 3)}`;
    h = await startHarness({
      turns: [
        {
          toolCalls: [
            { name: TN.EXECUTE_CMD, arguments: { command: huge } },
            { name: TN.EXECUTE_CMD, arguments: { command: 'ls\0; touch PWNED' } },
          ],
        },
        { text: 'done' },
      ],
    });
    const sessionId = await h.newSession();
    analyze.mockClear();
    const events = await h.sendAndSettle(sessionId, 'go');
    const errors = events.filter((e) => e.type === 'tool_error').map((e) => (e as { error: string }).error);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/command: The command is \d+ bytes; one command line can be at most 131071 bytes/);
    expect(errors[1]).toMatch(/command: The command contains a NUL character \(at position 2\)/);
    expect(events.filter((e) => e.type === 'approval_required' || e.type === 'tool_decision')).toEqual([]);
    // The app's own warm-up may analyse its sample commands meanwhile (gate-warm-up.ts): neither of these is read.
    expect(analyze.mock.calls.filter(([command]) => command === huge || command.includes('PWNED'))).toEqual([]);
    expect(existsSync(join(h.workspace, 'PWNED'))).toBe(false);
    analyze.mockRestore();
  }, 60_000);
});

describe('a path longer than the system takes fails its arguments, before anything reads it', () => {
  const tooLong = (text: string) => /the path is \d+ bytes; a path can be at most \d+ bytes/.test(text);

  it("read_file (through an alias), a command's folder (through its alias) and show_file_to_user: tool errors, no card, no guard walks them", async () => {
    const { Guards } = await import('../approval/guards');
    const canonical = vi.spyOn(Guards.prototype, 'canonical');
    const big = `${'a/'.repeat(4 * 1024 * 1024)}x`; // 8 MB: judging it held the gate 2.2 s and took the process past 1.4 GB
    h = await startHarness({
      turns: [
        {
          toolCalls: [
            { name: TN.READ_FILE, arguments: { file_path: big } },
            { name: TN.EXECUTE_CMD, arguments: { command: 'pwd', cwd: `/${big}` } },
            { name: TN.SHOW_FILE_TO_USER, arguments: { path: big } },
            { name: TN.READ_FILE, arguments: { path: `${'b'.repeat(200)}/${'c/'.repeat(2_000)}` } }, // 4,201 bytes
          ],
        },
        { text: 'done' },
      ],
    });
    const sessionId = await h.newSession();
    canonical.mockClear();
    const events = await h.sendAndSettle(sessionId, 'go');
    const errors = events.filter((e) => e.type === 'tool_error').map((e) => (e as { error: string }).error);
    expect(errors).toHaveLength(4);
    for (const error of errors) expect(tooLong(error), error.slice(0, 200)).toBe(true);
    expect(errors[0]).toMatch(/^Invalid arguments for read_file:\n- path: the path is 8388609 bytes/);
    expect(errors[1]).toMatch(/^Invalid arguments for execute_cmd:\n- workdir: the path is 8388610 bytes/);
    expect(events.filter((e) => e.type === 'approval_required' || e.type === 'tool_decision')).toEqual([]);
    expect(canonical).not.toHaveBeenCalled();
    canonical.mockRestore();
  }, 60_000);

  it("an MCP tool's path arguments, as sent: one too long (or one of a list) is refused, one at the limit passes on", async () => {
    const { normalizeToolArgs } = await import('./tool-call');
    const { MAX_PATH_BYTES } = await import('../tools/_policy/paths');
    const tools = { has: () => false, normalize: () => ({ ok: true as const, args: {} }) };
    const atLimit = `/${'é'.repeat((MAX_PATH_BYTES - 1) / 2)}`; // 2 bytes a character: exactly the limit
    expect(Buffer.byteLength(atLimit)).toBe(MAX_PATH_BYTES);
    expect(normalizeToolArgs(tools, 'mcp__fs__read', { path: atLimit }, '/ws')).toEqual({
      ok: true,
      args: { path: atLimit },
    });
    for (const args of [
      { path: `${atLimit}x` },
      { paths: ['/ok', `${atLimit}/y`] },
      { destination: 'z'.repeat(MAX_PATH_BYTES + 1) },
    ]) {
      const n = normalizeToolArgs(tools, 'mcp__fs__write', args, '/ws');
      expect(n.ok).toBe(false);
      if (!n.ok)
        expect(n.error).toMatch(
          /^Invalid arguments for mcp__fs__write:\n- (path|paths|destination): the path is 409[67] bytes/,
        );
    }
  });
});
