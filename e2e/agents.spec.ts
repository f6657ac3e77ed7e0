/**
 * Agents as a person sees them: a sync sub-agent is a card in the chat that streams its own steps while it works
 * (its text, its tool cards), shows its tokens, and folds when it is done; the session notes show the live todo
 * checklist and the scratchpad, which the person can edit. Screenshots in both themes.
 */
import { expect, startWebApp, stopWebApp, test, type WebApp } from './fixtures';
import { configureModel, startLlmProcess, type LlmProcess } from './scripted-llm';
import { shots } from './screens';

let llm: LlmProcess | undefined;
let app: WebApp;

test.beforeEach(async () => {
  app = await startWebApp();
});

test.afterEach(async () => {
  llm?.stop();
  await stopWebApp(app);
});

test('a sync sub-agent card streams its steps, shows its tokens, and folds when done', async ({ page }) => {
  llm = await startLlmProcess(app.dataDir, [
    {
      match: 'Find the entry point',
      text: 'I will ask the code explorer.',
      toolCalls: [
        { name: 'write_todos', arguments: { todos: [{ content: 'Find the entry point', status: 'in_progress' }, { content: 'Summarise it', status: 'pending' }] } },
        { name: 'update_scratchpad', arguments: { key: 'goal', value: 'find the entry point' } },
      ],
    },
    { match: 'Find the entry point', toolCalls: [{ name: 'execute_task', arguments: { mode: 'sync', agent_id: 'code-explorer', prompt: 'CARD-1: where does the app start?', title: 'Where does the app start?' } }] },
    { match: 'CARD-1', text: 'Listing the workspace first.', chunkDelayMs: 60, toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] },
    { match: 'CARD-1', text: 'The app starts in **src/index.ts**, which builds the core and opens the window; nothing else runs before it.', chunkDelayMs: 120 },
    { match: 'Find the entry point', text: 'The explorer found it: `src/index.ts`.' },
  ]);
  await page.goto(app.url);
  await configureModel(page, llm.url);

  await page.getByTestId('composer').fill('Find the entry point');
  await page.getByTestId('send').click();

  const card = page.getByTestId('subagent-card');
  await expect(card).toHaveAttribute('data-status', 'running');
  await expect(card).toContainText('Code explorer');
  await expect(card).toContainText('depth 1');
  // Its own steps stream inside the card, while it runs: its text, then its tool card.
  await expect(card.getByTestId('subagent-streaming')).toBeVisible();
  await expect(card.locator('[data-testid="tool-card"][data-tool="list_files"]')).toBeVisible();
  await expect(card.getByTestId('subagent-streaming')).toContainText('The app starts');
  await expect(page.getByTestId('todo-list')).toContainText('Find the entry point');
  await shots(page, 'agents-subagent-streaming');

  await expect(card).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('The explorer found it');
  // Folded when done; the tokens stay on its head; opening it shows the steps again.
  await expect(card.getByTestId('subagent-body')).toHaveCount(0);
  await expect(card.getByTestId('subagent-usage')).toContainText(/\d+ in · \d+ out/);
  await card.getByTestId('subagent-toggle').click();
  await expect(card.getByTestId('subagent-body')).toContainText('src/index.ts');

  // The scratchpad: what the agent wrote, editable by the person.
  await page.getByTestId('toggle-scratchpad').click();
  const note = page.locator('[data-testid="scratchpad-note"][data-key="goal"] textarea');
  await expect(note).toHaveValue('find the entry point');
  await note.fill('find the entry point and the config');
  await note.blur();
  await shots(page, 'agents-subagent-done');

  // After a reload the card comes back from history, with its steps.
  await page.reload();
  const again = page.getByTestId('subagent-card');
  await expect(again).toHaveAttribute('data-status', 'done');
  await again.getByTestId('subagent-toggle').click();
  await expect(again.locator('[data-testid="tool-card"][data-tool="list_files"]')).toBeVisible();
  const notes = await page.evaluate(async () => (await window.skald!.chat.scratchpad({ sessionId: 1 })).notes);
  expect(notes).toEqual([{ key: 'goal', value: 'find the entry point and the config' }]);
});
