/**
 * A person chats: types a message, sees the reply stream in, approves a write in its card, and clicks the path
 * to open it in the viewer. The model is the scripted LLM server speaking OpenAI's SSE over real HTTP; the app
 * is configured through the same bridge calls the settings page uses.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, screenshotPath, startApp, stopApp, test, type App } from './fixtures';
import { pickOption } from './controls';
import { makePdf } from '../test/helpers/pdf';
import { makePng } from '../test/helpers/png';
import { shots } from './screens';
import { configureModel as configureModelViaBridge, startLlmProcess, type LlmProcess } from './scripted-llm';

let llm: LlmProcess | undefined;
let llmUrl: string;
let app: App;

async function startLlm(script: unknown[]): Promise<void> {
  llm = await startLlmProcess(app.dataDir, script);
  llmUrl = llm.url;
}

/** As a person would: Settings → add a provider with its key (tested first) → add a model. */
async function configureModelInSettings(page: Page): Promise<void> {
  await page.getByTestId('open-settings').click();
  const settings = page.getByTestId('settings');
  await settings.getByTestId('add-provider').click();
  const form = settings.getByTestId('provider-form');
  await pickOption(form.getByTestId('kind-openai_compatible'));
  await form.getByTestId('provider-name').fill('scripted');
  await form.getByTestId('provider-url').fill(`${llmUrl}/v1`);
  await form.getByTestId('provider-key').fill('test-key');
  await form.getByTestId('provider-probe').click();
  await expect(form.getByTestId('probe-result')).toHaveAttribute('data-ok', 'true');
  await form.getByTestId('provider-save').click();
  await expect(settings.getByTestId('key-state')).toHaveText('Key set');
  await settings.getByTestId('model-id').fill('scripted-1');
  await settings.getByTestId('add-model').click();
  await expect(settings.getByTestId('model-row')).toContainText('scripted-1');
  await page.screenshot({ path: screenshotPath('02a-settings') });
  await settings.getByRole('button', { name: 'Close' }).click();
}

const configureModel = (page: Page) => configureModelViaBridge(page, llmUrl);

test.beforeEach(async ({ page }) => {
  app = await startApp(page);
});

test.afterEach(async () => {
  llm?.stop();
  await stopApp(app);
});

test('a person chats, sees the reply stream, approves a write and opens its path', async ({ page }) => {
  const target = join(app.workspaceDir, 'notes', 'hello.md');
  await startLlm([
    { text: 'Hello! I will **write** the note now.', chunkDelayMs: 15 },
    {
      toolCalls: [
        { name: 'write_file', arguments: { path: 'notes/hello.md', content: '# Hello\n\nWritten by the agent.\n' } },
      ],
    },
    { text: 'Done: the note is in `notes/hello.md`.' },
  ]);
  await page.goto(app.url);
  await configureModelInSettings(page);

  await page.getByTestId('composer').fill('Say hello');
  await page.getByTestId('send').click();
  await expect(page.getByTestId('msg-user')).toContainText('Say hello');
  await expect(page.getByTestId('msg-assistant').first()).toContainText('Hello! I will write the note now.');
  await page.screenshot({ path: screenshotPath('02-chat-streamed-reply') });

  await page.getByTestId('composer').fill('Write the note');
  await page.getByTestId('send').click();
  const card = page.getByTestId('approval-card');
  await expect(card).toBeVisible();
  await expect(card.getByTestId('diff')).toContainText('+ # Hello');
  await expect(card.getByTestId('approval-args')).toContainText('Written by the agent.');
  await page.screenshot({ path: screenshotPath('03-approval-card') });
  await card.getByRole('button', { name: 'Approve once' }).click();

  await expect(page.locator('[data-testid="tool-card"][data-tool="write_file"]')).toHaveAttribute(
    'data-status',
    'done',
  );
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Done: the note is in');
  expect(readFileSync(target, 'utf8')).toBe('# Hello\n\nWritten by the agent.\n');
  // The person's decision, said once ("allowed by you: Decided by you." said it twice).
  await expect(page.getByTestId('tool-why').first()).toHaveText('allowed by you');

  await page.getByTestId('tool-path').first().click();
  await expect(page.getByTestId('viewer-path')).toContainText('hello.md');
  await page.screenshot({ path: screenshotPath('04-path-opened') });
});

test('a paste too long for the model: the request goes again fitted to the window the error names, and the person is told what the model did not see', async ({
  page,
}) => {
  test.setTimeout(120_000); // 2,000 pasted lines typed, sent twice and shown: over a minute beside vitest on 2 loaded cores
  await startLlm([
    {
      status: 400,
      errorMessage:
        "This model's maximum context length is 16385 tokens. However, your messages resulted in 40000 tokens.",
    },
    { text: 'I read the start of your log.' },
  ]);
  await page.goto(app.url);
  await configureModel(page);
  await page
    .getByTestId('composer')
    .fill(`Why does this fail?\n${'ERROR worker 7: connection reset by peer (retrying)\n'.repeat(2_000)}`);
  await page.getByTestId('send').click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('I read the start of your log.');
  await expect(
    page.getByText(
      /To fit scripted-1's context window \(16k tokens, assumed: set it in Settings → Models\), the model did not see the end of 1 long message/,
    ),
  ).toBeVisible();
  await shots(page, 'chat-context-fitted');
});

test('the model request fails; Retry asks again with the same message, and the reply comes (also after a reload)', async ({
  page,
}) => {
  await startLlm([
    { status: 401, errorMessage: 'Incorrect API key provided.' },
    { status: 401, errorMessage: 'Incorrect API key provided.' },
    { text: 'Answered on the retry.' },
  ]);
  await page.goto(app.url);
  await configureModel(page);
  await page.getByTestId('composer').fill('What is in the box?');
  await page.getByTestId('send').click();
  await expect(page.getByTestId('notice').last()).toContainText('Incorrect API key provided.');
  const bar = page.getByTestId('retry-bar');
  await expect(bar).toContainText('The model has not answered this message.');
  await expect(bar).toBeVisible();
  await expect(page.getByTestId('notice')).toHaveCount(1);
  await shots(page, 'chat-retry-bar');
  // The bar follows the history, not the notice: a reload (or a restart) still offers it.
  await page.reload();
  await expect(page.getByTestId('retry-bar')).toBeVisible();
  await page.getByTestId('retry-button').click();
  await expect(page.getByTestId('notice').last()).toContainText('Incorrect API key provided.');
  await expect(page.getByTestId('retry-bar')).toBeVisible();
  await page.getByTestId('retry-button').click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Answered on the retry.');
  await expect(page.getByTestId('retry-bar')).toHaveCount(0);
  await expect(page.getByTestId('msg-user')).toHaveCount(1);
  const asked = (await llm!.requests()).map((r) => (r.body.messages ?? []).filter((m) => m.role === 'user').length);
  expect(asked).toEqual([1, 1, 1]);
});

test('a person pastes and picks images; they go with the message, show in the chat, open full size, and reach the model', async ({
  page,
}) => {
  await startLlm([{ text: 'A sunrise over a red square.' }]);
  await page.goto(app.url);
  await configureModel(page);
  const sunrise = makePng(320, 200, (x, y) => [
    255 - Math.floor(y * 0.6),
    120 + Math.floor(x * 0.4),
    60 + Math.floor(y * 0.8),
  ]);
  const square = makePng(48, 48);
  // Pasted: the clipboard's file, not its name as text.
  await page.getByTestId('composer').focus();
  await page.evaluate((b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
    document
      .querySelector('[data-testid="composer"]')!
      .dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, sunrise.toString('base64'));
  // Picked with the image button's file input; a file that is no image is refused with a sentence.
  await page
    .getByTestId('composer-file')
    .setInputFiles({ name: 'backup.zip', mimeType: 'application/zip', buffer: Buffer.from('PK\u0003\u0004') });
  await expect(page.getByTestId('composer-error')).toHaveText('backup.zip is not an image, a PDF or a text file.');
  await page.getByTestId('composer-file').setInputFiles({ name: 'square.png', mimeType: 'image/png', buffer: square });
  await expect(page.getByTestId('composer-images').locator('img')).toHaveCount(2);
  await expect(page.getByTestId('composer-error')).toHaveCount(0);
  await expect(page.getByTestId('composer')).toHaveValue('');
  await page.getByTestId('composer').fill('What do you see?');
  await shots(page, 'chat-images-picked');
  await page.getByTestId('send').click();

  await expect(page.getByTestId('msg-assistant').last()).toContainText('A sunrise over a red square.');
  await expect(page.getByTestId('composer-images')).toHaveCount(0);
  const thumbs = page.getByTestId('msg-user').getByTestId('msg-image').locator('img');
  await expect(thumbs).toHaveCount(2);
  await expect.poll(() => thumbs.first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
  await shots(page, 'chat-images-sent');
  const [request] = await llm!.requests();
  const user = request!.body.messages!.find((m) => m.role === 'user')!;
  expect(user.content).toEqual([
    { type: 'text', text: 'What do you see?' },
    { type: 'image_url', image_url: { url: `data:image/png;base64,${sunrise.toString('base64')}` } },
    { type: 'image_url', image_url: { url: `data:image/png;base64,${square.toString('base64')}` } },
  ]);

  await page.getByTestId('msg-image').first().click();
  await expect(page.getByTestId('image-overlay').locator('img')).toBeVisible();
  await shots(page, 'chat-image-open');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('image-overlay')).toHaveCount(0);
  // Kept with the chat: a reload shows them again.
  await page.reload();
  await expect(page.getByTestId('msg-user').getByTestId('msg-image').locator('img')).toHaveCount(2);
});

test('a text file put in the message box becomes a code block under its name, which the model reads with the message', async ({
  page,
}) => {
  await startLlm([{ text: 'The build failed on the second step.' }]);
  await page.goto(app.url);
  await configureModel(page);
  await page.getByTestId('composer').fill('Why did this fail?');
  const log = 'step 1 ok\nstep 2 FAILED: ``` not a fence end\n';
  await page.getByTestId('composer-file').setInputFiles({ name: 'build.log', mimeType: '', buffer: Buffer.from(log) });
  await expect(page.getByTestId('composer')).toHaveValue(`Why did this fail?\n\nbuild.log:\n\`\`\`\`\n${log}\`\`\`\``);
  await page
    .getByTestId('composer-file')
    .setInputFiles({ name: 'dump.bin', mimeType: 'text/plain', buffer: Buffer.from([104, 0, 105]) });
  await expect(page.getByTestId('composer-error')).toHaveText('dump.bin is not a text file.');
  await shots(page, 'chat-text-file-in-box');
  await page.getByTestId('send').click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('The build failed on the second step.');
  const [request] = await llm!.requests();
  expect(JSON.stringify(request!.body.messages)).toContain('step 2 FAILED');
});

test('the agent reads an image in the workspace: its card shows it, it opens full size, and the model gets it', async ({
  page,
}) => {
  const chart = makePng(240, 140, (x, y) => (y > 140 - Math.floor(x / 2) ? [40, 120, 220] : [245, 245, 245]));
  writeFileSync(join(app.workspaceDir, 'chart.png'), chart);
  await startLlm([
    { toolCalls: [{ name: 'read_file', arguments: { path: 'chart.png' } }] },
    { text: 'The chart rises steadily to the right.' },
  ]);
  await page.goto(app.url);
  await configureModel(page);
  await page.getByTestId('composer').fill('What does chart.png show?');
  await page.getByTestId('send').click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('The chart rises steadily');
  const card = page.getByTestId('tool-card').filter({ has: page.getByTestId('msg-image') });
  await expect(card).toHaveAttribute('data-tool', 'read_file');
  const thumb = card.getByTestId('msg-image').locator('img');
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);
  await shots(page, 'chat-tool-image');
  const [, second] = await llm!.requests();
  const carrier = second!.body.messages!.find(
    (m) => m.role === 'user' && Array.isArray(m.content) && JSON.stringify(m.content).includes('image_url'),
  );
  expect(JSON.stringify(carrier)).toContain(`data:image/png;base64,${chart.toString('base64')}`);
  await thumb.click();
  await expect(page.getByTestId('image-overlay').locator('img')).toBeVisible();
  await page.keyboard.press('Escape');
  // Kept with the call: a reload shows it again.
  await page.reload();
  await expect(page.getByTestId('tool-card').getByTestId('msg-image').locator('img')).toHaveCount(1);
});

test('the agent reads a PDF in the workspace: its text, page by page, reaches the model and the card', async ({
  page,
}) => {
  writeFileSync(
    join(app.workspaceDir, 'invoice.pdf'),
    makePdf([['Invoice 2026-114', 'Total due: 1,250.00 EUR'], ['Payment within 30 days.']]),
  );
  await startLlm([
    { toolCalls: [{ name: 'read_file', arguments: { path: 'invoice.pdf' } }] },
    { text: 'The invoice asks for 1,250.00 EUR within 30 days.' },
  ]);
  await page.goto(app.url);
  await configureModel(page);
  await page.getByTestId('composer').fill('How much is due on invoice.pdf?');
  await page.getByTestId('send').click();
  // The PDF's text through its worker (pdf.js loaded in it): over 15 s beside vitest on 2 loaded cores.
  await expect(page.getByTestId('msg-assistant').last()).toContainText('1,250.00 EUR within 30 days', {
    timeout: 60_000,
  });
  const [, second] = await llm!.requests();
  const result = second!.body.messages!.find((m) => m.role === 'tool')!;
  expect(result.content).toBe(
    'invoice.pdf: PDF, 2 pages; its text follows (figures, images and layout are not in it).\n1\t[page 1 of 2]\n2\tInvoice 2026-114\n3\tTotal due: 1,250.00 EUR\n4\t[page 2 of 2]\n5\tPayment within 30 days.',
  );
  await page.getByTestId('tool-head').click();
  await expect(page.getByTestId('tool-body')).toContainText('Total due: 1,250.00 EUR');
  await shots(page, 'chat-tool-pdf');
});

test('AGENTS.md in the working directory: the chat bar names it, it opens in the viewer, and the model gets it', async ({
  page,
}) => {
  writeFileSync(join(app.workspaceDir, 'AGENTS.md'), '# House rules\n\nAnswer in French.\n');
  await startLlm([{ text: 'Bonjour.' }]);
  await page.goto(app.url);
  await configureModel(page);
  await page.getByTestId('composer').fill('Hello');
  await page.getByTestId('send').click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Bonjour.');
  const chip = page.getByTestId('instructions-file');
  await expect(chip).toHaveText('AGENTS.md');
  await expect(chip).toHaveAttribute('data-included', 'true');
  const [request] = await llm!.requests();
  expect(String(request!.body.messages![0]!.content)).toContain(
    '<project-instructions>\n# House rules\n\nAnswer in French.\n',
  );
  await chip.click();
  await expect(page.getByTestId('viewer-path')).toContainText('AGENTS.md');
  await expect(page.getByTestId('viewer')).toContainText('Answer in French.');
  await shots(page, 'chat-agents-md');
});

test("a PDF put in the message box: its text goes in, page by page, under its name; a scan's is refused with a sentence", async ({
  page,
}) => {
  await startLlm([{ text: 'The report says sales rose 12%.' }]);
  await page.goto(app.url);
  await configureModel(page);
  await page.getByTestId('composer').fill('Summarize this.');
  await page
    .getByTestId('composer-file')
    .setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: makePdf([[]]) });
  await expect(page.getByTestId('composer-error')).toHaveText(
    'scan.pdf (1 page) has no text to extract: its pages are scanned images or drawings.',
  );
  await page.getByTestId('composer-file').setInputFiles({
    name: 'report.pdf',
    mimeType: 'application/pdf',
    buffer: makePdf([['Quarterly report'], ['Sales rose 12%.']]),
  });
  await expect(page.getByTestId('composer')).toHaveValue(
    'Summarize this.\n\nreport.pdf (PDF, 2 pages):\n```\n[page 1 of 2]\nQuarterly report\n[page 2 of 2]\nSales rose 12%.\n```',
  );
  await expect(page.getByTestId('composer-error')).toHaveCount(0);
  await shots(page, 'chat-pdf-in-box');
  await page.getByTestId('send').click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('sales rose 12%');
  const [request] = await llm!.requests();
  expect(JSON.stringify(request!.body.messages)).toContain('Sales rose 12%.');
});

test('a rejected write is not written and the model is told why', async ({ page }) => {
  await startLlm([
    { toolCalls: [{ name: 'write_file', arguments: { path: 'evil.txt', content: 'nope' } }] },
    { text: 'Understood, I will not write it.' },
  ]);
  await page.goto(app.url);
  await configureModel(page);
  await page.getByTestId('composer').fill('Write evil.txt');
  await page.getByTestId('send').click();
  const card = page.getByTestId('approval-card');
  await expect(card).toBeVisible();
  // The same call waits in the Inbox, with its badge.
  await expect(page.getByTestId('open-inbox')).toContainText('(1)');
  await page.getByTestId('open-inbox').click();
  await expect(page.getByTestId('inbox-item')).toContainText('write_file');
  await page.screenshot({ path: screenshotPath('05-inbox') });
  await page.getByTestId('inbox').getByRole('button', { name: 'Close' }).click();
  await card.getByLabel('Note to the agent').fill('not today');
  await card.getByRole('button', { name: 'Reject' }).click();
  await expect(page.locator('[data-testid="tool-card"][data-tool="write_file"]')).toHaveAttribute(
    'data-status',
    'rejected',
  );
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Understood');
  expect(() => readFileSync(join(app.workspaceDir, 'evil.txt'))).toThrow();
  // What the model was told: its second request carries the rejection, with the person's reason, as the result
  // of exactly the call it made.
  const requests = await llm!.requests();
  expect(requests).toHaveLength(2);
  const messages = requests[1]!.body.messages ?? [];
  const call = messages.find((m) => m.role === 'assistant') as
    | { tool_calls?: { id: string; function: { name: string } }[] }
    | undefined;
  expect(call?.tool_calls?.map((c) => c.function.name)).toEqual(['write_file']);
  const result = messages.find((m) => m.role === 'tool');
  expect(result).toMatchObject({
    tool_call_id: call!.tool_calls![0]!.id,
    content: 'User rejected this tool call. Reason: not today',
  });
});

test('the agent asks a question; the person answers with one click', async ({ page }) => {
  await startLlm([
    {
      toolCalls: [
        {
          name: 'ask_user_clarification',
          arguments: {
            title: 'Pick a format',
            question: 'Markdown or **plain text**?',
            suggested_answers: ['Markdown', 'Plain text'],
          },
        },
      ],
    },
    { text: 'Markdown it is.' },
  ]);
  await page.goto(app.url);
  await configureModel(page);
  await page.getByTestId('composer').fill('Write notes');
  await page.getByTestId('send').click();
  const card = page.getByTestId('question-card');
  await expect(card).toContainText('Pick a format');
  await page.screenshot({ path: screenshotPath('06-question') });
  await card.getByRole('button', { name: 'Markdown' }).click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Markdown it is.');
});

test('the agent outlines a 10,000-line file (in the built app, through its worker threads)', async ({ page }) => {
  // A class and a const every 8 lines: big enough to be cut in two and parsed in parallel. The last class's lines
  // prove the second part's line numbers were joined up.
  const lines = Array.from(
    { length: 1250 },
    (_, i) =>
      `export class Box${i} {\n  open(): number {\n    return ${i};\n  }\n}\n\nexport const size${i} = ${i};\n\n`,
  ).join('');
  writeFileSync(join(app.workspaceDir, 'big.ts'), lines);
  await startLlm([{ toolCalls: [{ name: 'get_ast_outline', arguments: { path: 'big.ts' } }] }, { text: 'Outlined.' }]);
  await page.goto(app.url);
  await configureModel(page);
  await page.getByTestId('composer').fill('Outline big.ts');
  await page.getByTestId('send').click();
  const card = page.locator('[data-testid="tool-card"][data-tool="get_ast_outline"]');
  await expect(card).toHaveAttribute('data-status', 'done');
  await card.locator('.tool-head').click();
  const result = card.locator('pre.result');
  await expect(result).toContainText('big.ts (typescript, oxc):');
  await expect(result).toContainText('L1-5: class Box0');
  await expect(result).toContainText('L9993-9997: class Box1249');
  await expect(result).toContainText('  L9994-9996: open(): number');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Outlined.');
});
