/**
 * The Security page against the real core: a rule added in the page decides the next call; a deny on a path-less
 * tool takes it out of the model's next request (read from the scripted LLM); the locked guard rows offer nothing
 * to edit; a refused edit shows the core's message at its field and writes nothing. Screens in light and dark.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, startWebApp, stopWebApp, test, type WebApp } from './fixtures';
import { shots } from './screens';
import { configureModel, startLlmProcess, type LlmProcess } from './scripted-llm';

let app: WebApp;
let llm: LlmProcess | undefined;

test.beforeEach(async () => {
  app = await startWebApp();
});
test.afterEach(async () => {
  llm?.stop();
  llm = undefined;
  await stopWebApp(app);
});

const rules = (page: Page, groupId = 'default') =>
  page.evaluate((g) => window.skald!.approval.listRules({ groupId: g }).then((r) => r.rules), groupId);

async function openSecurity(page: Page): Promise<void> {
  await page.getByTestId('open-security').click();
  await expect(page.getByTestId('security-page')).toBeVisible();
  await expect(page.getByTestId('rule-row').first()).toBeVisible();
}

async function addRule(
  page: Page,
  fields: { tool: string; path?: string; command?: string; action: 'allow' | 'require' | 'deny' },
): Promise<void> {
  await page.getByTestId('add-rule').click();
  const form = page.getByTestId('rule-form');
  await form.getByTestId('rule-tool').fill(fields.tool);
  if (fields.path) await form.getByTestId('rule-path').fill(fields.path);
  if (fields.command) await form.getByTestId('rule-command').fill(fields.command);
  await form.getByTestId(`rule-action-${fields.action}`).check();
  await form.getByTestId('save-rule').click();
  await expect(form).toHaveCount(0);
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByTestId('nav-chat').click();
  await page.getByTestId('composer').fill(text);
  await page.getByTestId('send').click();
}

test('an allow rule added in the page lets the next matching call run without asking', async ({ page }) => {
  llm = await startLlmProcess(app.dataDir, [
    { toolCalls: [{ name: 'execute_cmd', arguments: { command: 'echo from-the-rule' } }] },
    { text: 'ran it' },
  ]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  await openSecurity(page);
  await addRule(page, { tool: 'execute_cmd', command: 'echo *', action: 'allow' });
  const added = page.locator('[data-testid="rule-row"][data-action="allow"]', { hasText: 'echo *' });
  await expect(added).toBeVisible();
  // First among the allow rules: priority orders rules of the same action.
  await expect(page.locator('[data-testid="rule-row"][data-action="allow"]').first()).toContainText('echo *');
  await shots(page, 'security-rules');

  await send(page, 'run echo');
  const card = page.locator('[data-testid="tool-card"][data-tool="execute_cmd"]');
  await expect(card).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('approval-card')).toHaveCount(0);
  await expect(page.getByTestId('msg-assistant').last()).toContainText('ran it');
});

test("a deny rule on a path-less tool removes it from the model's next request", async ({ page }) => {
  llm = await startLlmProcess(app.dataDir, [{ text: 'first' }, { text: 'second' }]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  const toolNames = async () => {
    const requests = (await (await fetch(`${llm!.url}/__requests`)).json()) as {
      body: { tools?: { function: { name: string } }[] };
    }[];
    return (requests.at(-1)!.body.tools ?? []).map((t) => t.function.name);
  };
  await send(page, 'hello');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('first');
  expect(await toolNames()).toContain('write_todos');

  await openSecurity(page);
  await addRule(page, { tool: 'write_todos', action: 'deny' });
  await send(page, 'again');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('second');
  const offered = await toolNames();
  expect(offered).not.toContain('write_todos');
  expect(offered).toContain('read_file');
});

test('the locked guard rows cannot be edited, moved or deleted', async ({ page }) => {
  await page.goto(app.url);
  await openSecurity(page);
  const locked = page.getByTestId('locked-row');
  const guardCount = await page.evaluate(() => window.skald!.approval.listGuards({}).then((r) => r.guards.length));
  expect(guardCount).toBeGreaterThanOrEqual(7);
  await expect(locked).toHaveCount(guardCount);
  await expect(locked.filter({ hasText: 'secrets/ folders' })).toContainText('Why it is locked');
  await locked.first().scrollIntoViewIfNeeded();
  await shots(page, 'security-locked');
  for (const row of await locked.all()) {
    await expect(row.locator('button, input, select, textarea, [contenteditable]')).toHaveCount(0);
  }
  // Nor are they rules: the rule list and the core's rules do not hold them.
  const ids = (await rules(page)).map((r) => r.id);
  await expect(page.getByTestId('rule-row')).toHaveCount(ids.length);
});

test("a refused rule edit shows the core's message at the field and writes nothing", async ({ page }) => {
  await page.goto(app.url);
  await openSecurity(page);
  const before = await rules(page);
  const row = page.locator('[data-testid="rule-row"]', { hasText: 'memory/*' });
  await row.getByTestId('edit-rule').click();
  const form = page.getByTestId('rule-form');
  await form.getByTestId('rule-path').fill('mem*ory/x');
  await form.getByTestId('save-rule').click();
  const error = form.getByTestId('field-error-path_pattern');
  await expect(error).toContainText('a * may only stand at the end');
  await expect(form.getByTestId('rule-path')).toHaveAttribute('aria-invalid', 'true');
  await shots(page, 'security-refused-edit');
  expect(await rules(page)).toEqual(before);

  // A new rule refused by the core (a second catch-all) is not written either.
  await form.getByRole('button', { name: 'Cancel' }).click();
  await page.getByTestId('add-rule').click();
  const add = page.getByTestId('rule-form');
  await add.getByTestId('rule-tool').fill('*');
  await add.getByTestId('rule-action-allow').check();
  await add.getByTestId('save-rule').click();
  await expect(add.getByTestId('field-error-tool_pattern')).toContainText('catch-all');
  expect(await rules(page)).toEqual(before);
});

test('groups: create, duplicate, rename, delete; Default cannot be deleted', async ({ page }) => {
  await page.goto(app.url);
  await configureModel(page, 'http://127.0.0.1:9'); // the chat (not the first-run guide) is needed; no call is made
  await openSecurity(page);
  await expect(page.getByTestId('delete-group')).toBeDisabled();
  await page.getByTestId('new-group').click();
  await page.getByTestId('group-name').fill('Client work');
  await page.getByTestId('save-group').click();
  await expect(page.locator('[data-testid="group-item"][data-group="client-work"]')).toHaveAttribute(
    'aria-current',
    'true',
  );
  await addRule(page, { tool: 'read_file', path: 'src/*', action: 'allow' });
  await page.getByTestId('duplicate-group').click();
  await page.getByTestId('save-group').click();
  await expect(page.locator('[data-testid="group-item"][data-group="client-work-copy"]')).toContainText('1');
  expect((await rules(page, 'client-work-copy')).map((r) => r.path_pattern)).toEqual(['src/*']);
  await page.getByTestId('delete-group').click();
  await expect(page.locator('[data-testid="group-item"][data-group="client-work-copy"]')).toHaveCount(0);
  // New sessions start with the chosen group; the chat bar shows and switches a session's group.
  await page.locator('[data-testid="group-item"][data-group="client-work"]').click();
  await page.getByTestId('use-for-new').click();
  await expect(page.locator('[data-testid="group-item"][data-group="client-work"]')).toContainText('new sessions');
  await page.getByTestId('nav-chat').click();
  await page.getByTestId('new-session').click();
  await expect(page.getByTestId('group-picker')).toHaveValue('client-work');
  await page.getByTestId('group-picker').selectOption('default');
  await expect(page.getByTestId('group-picker')).toHaveValue('default');
  const groupOf = await page.evaluate(async () => {
    const s = window.skald!;
    const { sessions } = await s.chat.listSessions({});
    return Promise.all(sessions.map((x) => s.approval.sessionGroup({ sessionId: x.id }).then((g) => g.groupId)));
  });
  expect(groupOf.sort()).toEqual(['default', 'default']);
  await page.getByTestId('open-security').click();
  await page.locator('[data-testid="group-item"][data-group="client-work"]').click();
  await shots(page, 'security-group');
});

/** Approves the one waiting call through the bridge, as the card's "allow for 15 min" does. */
async function approveWithBypass(page: Page): Promise<void> {
  await expect(page.getByTestId('approval-card')).toBeVisible();
  await page.evaluate(async () => {
    const s = window.skald!;
    const { approvals } = await s.inbox.list({});
    const a = approvals[0]!;
    await s.inbox.resolveApproval({
      requestId: a.request_id,
      argsHash: a.args_hash,
      action: 'approve',
      note: '',
      bypassSecs: 900,
    });
  });
}

test("the tester's answer is the decision the gate then makes for that call", async ({ page }) => {
  llm = await startLlmProcess(app.dataDir, [
    { toolCalls: [{ name: 'read_file', arguments: { path: 'secrets/key.txt' } }] },
    { text: 'could not read it' },
    { toolCalls: [{ name: 'execute_cmd', arguments: { command: 'echo tested' } }] },
    { text: 'ran' },
  ]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  await openSecurity(page);
  await page.getByTestId('tab-test').click();
  const sessionTitle = await page.getByTestId('tester-session').locator('option').nth(1).textContent();
  await page.getByTestId('tester-session').selectOption({ label: sessionTitle! });
  await page.getByTestId('tester-path').fill('secrets/key.txt');
  await page.getByTestId('tester-run').click();
  await expect(page.getByTestId('tester-result')).toHaveAttribute('data-action', 'deny');
  await page.getByTestId('tester-tool').fill('execute_cmd');
  await page.getByTestId('tester-command').fill('echo tested');
  await page.getByTestId('tester-run').click();
  await expect(page.getByTestId('tester-result')).toHaveAttribute('data-action', 'require');
  await expect(page.getByTestId('tester-result')).toContainText('command parts');
  await shots(page, 'security-tester');

  await send(page, 'read the key');
  await expect(page.locator('[data-testid="tool-card"][data-tool="read_file"]')).toHaveAttribute(
    'data-status',
    'rejected',
  );
  await expect(page.getByTestId('msg-assistant').last()).toContainText('could not read it');
  await page.getByTestId('composer').fill('run it');
  await page.getByTestId('send').click();
  await expect(page.getByTestId('approval-card')).toBeVisible();
  const logged = await page.evaluate(() =>
    window.skald!.approval.listDecisions({}).then((r) => r.decisions.map((d) => [d.tool_name, d.action])),
  );
  expect(logged).toEqual([
    ['execute_cmd', 'require'],
    ['read_file', 'deny'],
  ]);

  // The log shows both with their why; "make a rule from this" pre-fills the rule that decides it as it was decided
  // (here: it asked), which the person may turn into an allow.
  await page.getByTestId('open-security').click();
  await page.getByTestId('tab-log').click();
  await expect(page.getByTestId('log-row')).toHaveCount(2);
  await page.getByTestId('log-search').fill('echo');
  await expect(page.getByTestId('log-row')).toHaveCount(1);
  await shots(page, 'security-log');
  await page.getByTestId('rule-from-log').click();
  const form = page.getByTestId('rule-form');
  await expect(form.getByTestId('rule-tool')).toHaveValue('execute_cmd');
  await expect(form.getByTestId('rule-command')).toHaveValue('echo tested *');
  await expect(form.getByTestId('rule-action-require')).toBeChecked();
  await form.getByTestId('rule-action-allow').check();
  await form.getByTestId('preview-command').fill('echo tested && rm -rf x');
  await expect(form.getByTestId('command-part')).toHaveCount(2);
  await expect(form.getByTestId('command-part').nth(0)).toHaveAttribute('data-match', 'true');
  await expect(form.getByTestId('command-part').nth(1)).toHaveAttribute('data-match', 'false');
  await expect(form.getByTestId('preview-verdict')).toContainText('Not allowed');
  await shots(page, 'security-command-preview');
});

test('revoking a bypass makes the next call ask', async ({ page }) => {
  llm = await startLlmProcess(app.dataDir, [
    { toolCalls: [{ name: 'execute_cmd', arguments: { command: 'echo one' } }] },
    { text: 'one done' },
    { toolCalls: [{ name: 'execute_cmd', arguments: { command: 'echo two' } }] },
    { text: 'two done' },
  ]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  await send(page, 'first');
  await approveWithBypass(page);
  await expect(page.getByTestId('msg-assistant').last()).toContainText('one done');

  await openSecurity(page);
  await page.getByTestId('tab-bypasses').click();
  const row = page.getByTestId('bypass-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('bypass-left')).toContainText(/1[45]:\d\d left/);
  const first = await row.getByTestId('bypass-left').textContent();
  await expect(row.getByTestId('bypass-left')).not.toHaveText(first!); // it counts down
  await shots(page, 'security-bypasses');
  await row.getByTestId('revoke-bypass').click();
  await expect(page.getByTestId('bypass-row')).toHaveCount(0);
  expect(await page.evaluate(() => window.skald!.approval.listBypasses({}).then((r) => r.bypasses.length))).toBe(0);

  await send(page, 'second');
  await expect(page.getByTestId('approval-card')).toBeVisible();
  await expect(page.locator('[data-testid="tool-card"][data-tool="execute_cmd"]').last()).toHaveAttribute(
    'data-status',
    'pending',
  );
});

test('the File System panel writes its rows as ordinary rules, deeper paths first', async ({ page }) => {
  await page.goto(app.url);
  await openSecurity(page);
  await page.getByTestId('tab-files').click();
  await page.getByTestId('fs-new-path').fill('notes/');
  await page.getByTestId('fs-new-level').selectOption('write');
  await page.getByTestId('fs-add').click();
  await expect(page.locator('[data-testid="fs-row"][data-path="notes/*"]')).toBeVisible();
  await page.getByTestId('fs-new-path').fill('notes/private/');
  await page.getByTestId('fs-new-level').selectOption('deny');
  await page.getByTestId('fs-add').click();
  const paths = page.getByTestId('fs-row');
  await expect(paths.nth(0)).toHaveAttribute('data-path', 'notes/private/*');
  await expect(paths.last()).toHaveAttribute('data-path', ''); // the default row comes last
  const notes = page.locator('[data-testid="fs-row"][data-path="notes/*"]');
  await expect(notes).toHaveAttribute('data-level', 'write');
  await expect(page.locator('[data-testid="fs-row"][data-path="secrets/*"]')).toHaveAttribute('data-level', 'deny');
  await notes.getByText('Read only').click();
  await expect(notes).toHaveAttribute('data-level', 'read');
  const fsRules = (await rules(page))
    .filter((r) => r.path_pattern?.startsWith('notes/'))
    .map((r) => `${r.tool_pattern} ${r.action} ${r.path_pattern}`);
  expect(fsRules).toEqual(['@fs_any deny notes/private/*', '@fs_read allow notes/*', '@fs_write require notes/*']);
  // A refused path keeps everything as it was.
  await page.getByTestId('fs-new-path').fill('../up/');
  await page.getByTestId('fs-add').click();
  await expect(page.getByTestId('fs-error')).toContainText('..');
  expect((await rules(page)).filter((r) => r.path_pattern?.includes('up'))).toEqual([]);
  await shots(page, 'security-files');
  // The rule list shows the same rules.
  await page.getByTestId('tab-rules').click();
  await expect(page.locator('[data-testid="rule-row"]', { hasText: 'notes/private/*' })).toHaveAttribute(
    'data-action',
    'deny',
  );
});

test('in a working folder of their own: a relative Deny denies there, the rows and the log say what the gate does', async ({
  page,
}) => {
  // A folder the person chose, outside the data folder, with the files the calls name.
  const folder = join(app.dataDir, '..', 'my-project');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'notes.md'), 'my notes');
  writeFileSync(join(folder, 'hello.txt'), 'hi');
  llm = await startLlmProcess(app.dataDir, [
    { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.md' } }] },
    { text: 'denied' },
    { toolCalls: [{ name: 'execute_cmd', arguments: { command: 'ls && cat hello.txt' } }] },
    { text: 'listed' },
  ]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  const sessionId = await page.evaluate(async (path) => {
    const { sessions } = await window.skald!.chat.listSessions({});
    await window.skald!.chat.setWorkingDirectory({ sessionId: sessions[0]!.id, path });
    return sessions[0]!.id;
  }, folder);
  await page.reload();
  await expect(page.getByTestId('composer')).toBeVisible();

  await openSecurity(page);
  // Rules on relative paths say what they are relative to: the open session's folder.
  await page.getByTestId('add-rule').click();
  await expect(page.getByTestId('rule-path-hint')).toContainText(folder);
  await page.getByTestId('rule-form').getByText('Cancel').click();
  for (const command of ['ls *', 'cat *']) await addRule(page, { tool: 'execute_cmd', command, action: 'allow' });
  await page.getByTestId('tab-files').click();
  await page.getByTestId('fs-new-path').fill('notes.md');
  await page.getByTestId('fs-new-level').selectOption('deny');
  await page.getByTestId('fs-add').click();
  const notes = page.locator('[data-testid="fs-row"][data-path="notes.md"]');
  await expect(notes.getByTestId('fs-effect')).toHaveAttribute('data-read', 'deny');
  await expect(page.locator('[data-testid="fs-row"][data-path="memory/*"]').getByTestId('fs-effect')).toHaveAttribute(
    'data-write',
    'allow',
  );
  await expect(page.getByTestId('fs-path-hint')).toContainText(folder);
  await shots(page, 'security-files-chosen-folder');
  // The tester answers for the open session, in its folder, guards included.
  await page.getByTestId('tab-test').click();
  for (const [path, guard] of [
    ['notes.md', 'rule'],
    ['secrets/key.txt', 'guard'],
  ] as const) {
    await page.getByTestId('tester-path').fill(path);
    await page.getByTestId('tester-run').click();
    await expect(page.getByTestId('tester-result')).toHaveAttribute('data-action', 'deny');
    await expect(page.getByTestId('tester-why')).toContainText(guard === 'rule' ? 'Denied by rule' : 'secrets/');
  }
  await shots(page, 'security-tester-chosen-folder');

  // The gate does what the row says.
  await send(page, 'read my notes');
  await expect(page.locator('[data-testid="tool-card"][data-tool="read_file"]')).toHaveAttribute(
    'data-status',
    'rejected',
  );
  await send(page, 'list and read');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('listed');
  const card = page.locator('[data-testid="tool-card"][data-tool="execute_cmd"]');
  await expect(card).toHaveAttribute('data-status', 'done');

  // One name per rule: the card's "rule N" is the page's row of that id, in the page's words.
  const decisions = await page.evaluate(() => window.skald!.approval.listDecisions({}).then((r) => r.decisions));
  const allowed = decisions.find((d) => d.tool_name === 'execute_cmd')!;
  expect(allowed).toMatchObject({ action: 'allow', session_id: sessionId });
  expect(allowed.detail).toMatch(/^Allowed by rule \d+: Allow execute_cmd \$ (ls|cat) \*/);
  await openSecurity(page);
  const named = page.locator(`[data-testid="rule-row"][data-rule-id="${allowed.rule_id}"]`);
  await expect(named.getByTestId('rule-name')).toHaveText(`rule ${allowed.rule_id}`);
  await shots(page, 'security-rules');

  // "Make a rule from this" on the allowed command: Allow, one rule per part that decided it.
  await page.getByTestId('tab-log').click();
  await page.getByTestId('log-search').fill('hello.txt');
  await expect(page.getByTestId('log-row')).toHaveCount(1);
  await page.getByTestId('rule-from-log').click();
  const form = page.getByTestId('rule-form');
  await expect(page.getByTestId('suggest-step')).toContainText('1 of 2');
  await expect(form.getByTestId('rule-command')).toHaveValue('ls *');
  await expect(form.getByTestId('rule-action-allow')).toBeChecked();
  await shots(page, 'security-suggested-rule');
  await form.getByTestId('save-rule').click();
  await expect(page.getByTestId('suggest-step')).toContainText('2 of 2');
  await expect(page.getByTestId('rule-form').getByTestId('rule-command')).toHaveValue('cat *');
  await expect(page.getByTestId('rule-form').getByTestId('rule-action-allow')).toBeChecked();
});
