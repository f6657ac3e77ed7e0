/**
 * The tester is the gate (docs/approval.md "The tester is the gate"): in a real core, for a session whose working
 * directory is a folder the person chose outside the data folder, "what would happen if…" (`approval:explain`) gives
 * each call of a corpus exactly the decision the session's own turn then gets (action, kind, rule, guard), and no
 * call the tester lets run (allowed, or asked and approved) is then refused by the tool's own guards: one answer
 * from one policy. Real SQLite, real files (a symlink out, a hard link to a secret, git hooks), the scripted model.
 */
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { tempDir } from '../../../../test/helpers/temp';
import type { Decision } from '../../../shared/contract/approval';
import { TN } from '../../../shared/tool-names';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const CALLS: { name: string; arguments: Record<string, unknown> }[] = [
  { name: TN.READ_FILE, arguments: { path: 'notes.md' } },
  { name: TN.READ_FILE, arguments: { path: 'hello.txt' } },
  { name: TN.READ_FILE, arguments: { path: 'secrets/key.txt' } },
  { name: TN.READ_FILE, arguments: { path: 'Secrets/../secrets/key.txt' } },
  { name: TN.READ_FILE, arguments: { path: 'key-copy.txt' } },
  { name: TN.READ_FILE, arguments: { path: 'leak/outside.txt' } },
  { name: TN.READ_FILE, arguments: { path: 'private/plan.md' } },
  { name: TN.LIST_FILES, arguments: { path: 'secrets' } },
  { name: TN.GREP_FILES, arguments: { pattern: 'x', path: 'secrets' } },
  { name: TN.WRITE_FILE, arguments: { path: 'memory/x.md', content: 'remember' } },
  { name: TN.WRITE_FILE, arguments: { path: 'out.txt', content: 'new' } },
  { name: TN.WRITE_FILE, arguments: { path: 'secrets/new.txt', content: 'x' } },
  { name: TN.WRITE_FILE, arguments: { path: '.git/hooks/pre-commit', content: 'x' } },
  { name: TN.WRITE_FILE, arguments: { path: 'leak/new.txt', content: 'x' } },
  { name: TN.WRITE_FILE, arguments: { path: '../escape.txt', content: 'x' } },
];

const shape = (d: Decision) => ({
  action: d.action,
  kind: d.why.kind,
  rule: d.why.ruleId ?? null,
  guard: d.why.guard ?? null,
});
/** How the file tools word a refusal of their own guards (tools/_policy/guard.ts). */
const TOOL_REFUSAL = /Access denied|Write refused|hard link/i;

it('in a chosen folder, explain gives each call the decision its turn gets, and the tool refuses none it lets run', async () => {
  h = await startHarness({ turns: [{ toolCalls: CALLS }, { text: 'done' }] });
  const folder = join(tempDir(), 'chosen');
  mkdirSync(join(folder, 'secrets'), { recursive: true });
  mkdirSync(join(folder, 'private'));
  mkdirSync(join(folder, '.git/hooks'), { recursive: true });
  writeFileSync(join(folder, 'notes.md'), 'my notes');
  writeFileSync(join(folder, 'hello.txt'), 'hi');
  writeFileSync(join(folder, 'secrets/key.txt'), 'TOPSECRET');
  writeFileSync(join(folder, 'private/plan.md'), 'plan');
  linkSync(join(folder, 'secrets/key.txt'), join(folder, 'key-copy.txt'));
  const outside = join(tempDir(), 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'outside.txt'), 'out');
  symlinkSync(outside, join(folder, 'leak'));

  const sessionId = await h.newSession();
  await h.call('chat:setWorkingDirectory', { sessionId, path: folder });
  await h.call('approval:createRule', { tool_pattern: '@fs_any', path_pattern: 'notes.md', action: 'deny' });
  await h.call('approval:createRule', { tool_pattern: '@fs_any', path_pattern: 'private/*', action: 'require' });

  const told: Decision[] = [];
  for (const c of CALLS)
    told.push((await h.call('approval:explain', { toolName: c.name, args: c.arguments, sessionId })).decision);
  // The cases, as the person sees them in the tester.
  expect(told[0]).toMatchObject({ action: 'deny', why: { kind: 'rule' } });
  expect(told[2]).toMatchObject({ action: 'deny', why: { kind: 'guard', guard: 'secrets' } });
  expect(told[9]).toMatchObject({ action: 'allow', why: { kind: 'rule' } });

  // The turn: every call asked about is approved, so that the tool's own answer shows.
  const from = h.events.length;
  await h.call('chat:send', { sessionId, content: 'go' });
  const answered = new Set<number>();
  await expect
    .poll(
      async () => {
        for (const a of (await h!.call('inbox:list', {})).approvals) {
          if (answered.has(a.request_id)) continue;
          answered.add(a.request_id);
          await h!.call('inbox:resolveApproval', {
            requestId: a.request_id,
            action: 'approve',
            note: '',
            argsHash: a.args_hash,
          });
        }
        return h!.events.slice(from).some((e) => e.type === 'turn_running' && !e.running);
      },
      { timeout: 30_000 },
    )
    .toBe(true);

  const events = h.events.slice(from);
  const keys = events.filter((e) => e.type === 'tool_start').map((e) => e.tool_call_id);
  expect(keys).toHaveLength(CALLS.length);
  keys.forEach((key, i) => {
    const label = `${CALLS[i]!.name} ${JSON.stringify(CALLS[i]!.arguments)}`;
    const gate = events.find(
      (e): e is Extract<typeof e, { type: 'tool_decision' }> =>
        e.type === 'tool_decision' && e.tool_call_id === key && e.decision.actor === 'policy',
    );
    expect(gate && shape(gate.decision), label).toEqual(shape(told[i]!));
    const refused = events.find((e) => e.type === 'tool_error' && e.tool_call_id === key && TOOL_REFUSAL.test(e.error));
    if (told[i]!.action !== 'deny')
      expect(refused, `${label}: the tool refused what the tester let run`).toBeUndefined();
  });
}, 60_000);
