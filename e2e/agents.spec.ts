/**
 * Agents as a person sees them: a sync sub-agent is a card in the chat that streams its own steps while it works
 * (its text, its tool cards, and its own sub-agent's card nested one level deeper), shows its tokens, and folds when
 * it is done; under the chat the live todo checklist; beside it the scratchpad side panel, which the person edits
 * and the agent then reads. A sub-agent that asks the person a question in its first round says it waits for them
 * (with the tokens its round took, never "0 in · 0 out" or "Starting…"); once answered, the card shows the question and
 * the answer without being opened; the checklist of a turn goes once the person writes again. Screenshots in both
 * themes.
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

test('a sync sub-agent card streams its steps and its own sub-agent nested, shows its tokens, folds when done; the scratchpad side panel', async ({
  page,
}) => {
  llm = await startLlmProcess(app.dataDir, [
    {
      match: 'Find the entry point',
      text: 'I will ask the code explorer.',
      toolCalls: [
        {
          name: 'write_todos',
          arguments: {
            todos: [
              { content: 'Find the entry point', status: 'in_progress' },
              { content: 'Summarise it', status: 'pending' },
            ],
          },
        },
        { name: 'update_scratchpad', arguments: { key: 'goal', value: 'find the entry point' } },
      ],
    },
    {
      match: 'Find the entry point',
      toolCalls: [
        {
          name: 'execute_task',
          arguments: {
            mode: 'sync',
            agent_id: 'code-explorer',
            prompt: 'CARD-1: where does the app start?',
            title: 'Where does the app start?',
          },
        },
      ],
    },
    {
      match: 'CARD-1',
      text: 'Listing the workspace first.',
      chunkDelayMs: 60,
      toolCalls: [{ name: 'list_files', arguments: { path: '.' } }],
    },
    {
      match: 'CARD-1',
      toolCalls: [
        {
          name: 'execute_subtask',
          arguments: { agent_id: 'reviewer', prompt: 'CARD-2: check the entry file', title: 'Check the entry file' },
        },
      ],
    },
    {
      match: 'CARD-2',
      text: 'Checked: **src/index.ts** builds the core first, then opens the window, and nothing else runs before it does.',
      chunkDelayMs: 120,
    },
    {
      match: 'CARD-1',
      text: 'The app starts in **src/index.ts**, which builds the core and opens the window; nothing else runs before it.',
      chunkDelayMs: 120,
    },
    { match: 'Find the entry point', text: 'The explorer found it: `src/index.ts`.' },
    { match: 'What is the goal', text: 'The goal is in the scratchpad.' },
  ]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  // A priced model, so the cards show what each sub-agent cost.
  await page.evaluate(async () => {
    const s = window.skald!;
    const [model] = (await s.models.list({})).models;
    await s.models.update({ id: model!.id, inputPricePerM: 3, outputPricePerM: 15 });
  });

  await page.getByTestId('composer').fill('Find the entry point');
  await page.getByTestId('send').click();

  const card = page.locator('[data-testid="subagent-card"][data-depth="1"]');
  await expect(card).toHaveAttribute('data-status', 'running');
  await expect(card).toContainText('Code explorer');
  await expect(card).toContainText('depth 1');
  // Its own steps stream inside the card, while it runs: its text, then its tool card.
  await expect(card.getByTestId('subagent-streaming')).toBeVisible();
  await expect(card.locator('[data-testid="tool-card"][data-tool="list_files"]')).toBeVisible();
  // Its own sub-agent: a card nested inside it, one level deeper, streaming too.
  const nested = card.locator('[data-testid="subagent-card"][data-depth="2"]');
  await expect(nested).toContainText('Reviewer');
  await expect(nested).toContainText('depth 2');
  await expect(nested.getByTestId('subagent-streaming')).toContainText('Checked');
  await expect(nested.getByTestId('subagent-streaming').locator('strong')).toContainText('src/index.ts'); // Markdown while it streams
  await shots(page, 'agents-subagent-nested');
  await expect(nested).toHaveAttribute('data-status', 'done');
  await expect(card.getByTestId('subagent-streaming')).toContainText('The app starts');
  await expect(page.getByTestId('todo-list')).toContainText('Find the entry point');
  await shots(page, 'agents-subagent-streaming');

  await expect(card).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('The explorer found it');
  // Folded when done; the tokens stay on its head; opening it shows the steps again.
  await expect(card.getByTestId('subagent-body')).toHaveCount(0);
  await expect(card.getByTestId('subagent-usage')).toContainText(/\d+ in · \d+ out · \$0\.\d{4}/);
  await card.getByTestId('subagent-toggle').click();
  await expect(card.getByTestId('subagent-body')).toContainText('src/index.ts');

  // The scratchpad side panel: what the agent wrote, editable by the person, beside the chat.
  await page.getByTestId('toggle-scratchpad').click();
  const panel = page.getByTestId('scratchpad-panel');
  await expect(panel).toBeVisible();
  const [chatBox, panelBox] = [await page.locator('.chat-messages').boundingBox(), await panel.boundingBox()];
  expect(panelBox!.x).toBeGreaterThanOrEqual(chatBox!.x + chatBox!.width - 1); // beside the messages, not under them
  const note = panel.locator('[data-testid="scratchpad-note"][data-key="goal"] textarea');
  await expect(note).toHaveValue('find the entry point');
  await note.fill('find the entry point and the config');
  await note.blur();
  await panel.getByLabel('New note key').fill('owner');
  await panel.getByLabel('New note', { exact: true }).fill('the person');
  await panel.getByRole('button', { name: 'Add' }).click();
  await expect(panel.locator('[data-testid="scratchpad-note"][data-key="owner"] textarea')).toHaveValue('the person');
  await expect(page.getByTestId('toggle-scratchpad')).toHaveText('Scratchpad (2)');
  await shots(page, 'agents-subagent-done');

  // The agent reads the person's notes at its next request.
  await page.getByTestId('composer').fill('What is the goal?');
  await page.getByTestId('send').click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('The goal is in the scratchpad.');
  const last = (await llm.requests()).at(-1)!;
  const system = JSON.stringify(last.body.messages?.filter((m) => m.role === 'system'));
  expect(system).toContain('find the entry point and the config');
  expect(system).toContain('the person');
  await page.getByTestId('close-scratchpad').click();
  await expect(panel).toHaveCount(0);

  // After a reload the card comes back from history, with its steps.
  await page.reload();
  const again = page.locator('[data-testid="subagent-card"][data-depth="1"]');
  await expect(again).toHaveAttribute('data-status', 'done');
  await again.getByTestId('subagent-toggle').click();
  await expect(again.locator('[data-testid="tool-card"][data-tool="list_files"]')).toBeVisible();
  await expect(again.locator('[data-testid="subagent-card"][data-depth="2"]')).toHaveAttribute('data-status', 'done');
  const notes = await page.evaluate(async () => (await window.skald!.chat.scratchpad({ sessionId: 1 })).notes);
  expect(notes).toEqual([
    { key: 'goal', value: 'find the entry point and the config' },
    { key: 'owner', value: 'the person' },
  ]);
});

test("a sub-agent's question: it waits for you with its round's tokens; answered, the card shows question and answer; the next turn drops the old checklist", async ({
  page,
}) => {
  llm = await startLlmProcess(app.dataDir, [
    {
      match: 'Plan it',
      toolCalls: [
        { name: 'write_todos', arguments: { todos: [{ content: 'Ask which folder', status: 'in_progress' }] } },
        {
          name: 'execute_task',
          arguments: { mode: 'sync', agent_id: 'code-explorer', prompt: 'CARD-Q: ask the person', title: 'Ask first' },
        },
      ],
    },
    {
      match: 'CARD-Q',
      toolCalls: [
        {
          name: 'ask_user_clarification',
          arguments: {
            title: 'Which folder?',
            question: 'Which **folder** should I look at?',
            suggested_answers: ['src', 'docs'],
          },
        },
      ],
    },
    { match: 'CARD-Q', text: 'Looked at src.' },
    { match: 'Plan it', text: 'Done.' },
    { match: 'Thanks', text: 'You are welcome.' },
  ]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  await page.getByTestId('composer').fill('Plan it');
  await page.getByTestId('send').click();

  const card = page.locator('[data-testid="subagent-card"][data-depth="1"]');
  const question = card.getByTestId('question-card');
  await expect(question).toContainText('Which folder should I look at?');
  await expect(card.getByTestId('subagent-status')).toHaveText('waiting for you');
  await expect(card.getByTestId('subagent-usage')).toContainText(/^[1-9]\d* in · \d+ out$/);
  await expect(card.getByTestId('subagent-body')).not.toContainText('Starting…');
  await expect(page.getByTestId('todo-list')).toContainText('Ask which folder');
  await shots(page, 'agents-subagent-question');

  await question.getByTestId('suggested-answer').first().click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Done.');
  await card.getByTestId('subagent-toggle').click();
  const asked = card.locator('[data-testid="tool-card"][data-tool="ask_user_clarification"]');
  // Folded, the answered card still says what was asked and what the person answered.
  await expect(asked.getByTestId('tool-body')).toHaveCount(0);
  await expect(asked.getByTestId('answered-question')).toContainText('Which folder should I look at?');
  await expect(asked.getByTestId('question-answer')).toHaveText('Your answer src');
  await shots(page, 'agents-subagent-answered');

  // The checklist belongs to its turn: the person's next message ends it.
  await page.getByTestId('composer').fill('Thanks');
  await page.getByTestId('send').click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('You are welcome.');
  await expect(page.getByTestId('todo-list')).toHaveCount(0);
  // After a reload too (the card from history, the checklist read from it).
  await page.reload();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('You are welcome.');
  await expect(page.getByTestId('todo-list')).toHaveCount(0);
});
