/**
 * A long turn against a model's context window, on the real path (docs/architecture.md "Fitting the context
 * window"): the real core, the provider client and the scripted LLM over HTTP. Reads that would outgrow the window
 * reach the model with the older results left out, the person is told once, and the database keeps every byte; a
 * provider that still says "too long" gets the request once more at half the size, and when that fails too the
 * person is told what to do.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { hiddenResultNote, OVERFLOW_ADVICE, promptBudgetChars } from '../llm/context-fit';
import type { ToolSpec } from '../llm/types';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

type Body = { messages: { role: string; content: unknown }[]; tools?: { function: ToolSpec }[] };
const bodyOf = (i: number) => h!.llm.requests[i]!.body as Body;
const charsOf = (body: Body) =>
  body.messages.reduce(
    (sum, m) => sum + (typeof m.content === 'string' ? m.content.length : JSON.stringify(m.content ?? '').length),
    0,
  );
const toolResults = (body: Body) => body.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));

async function setWindow(tokens: number | null): Promise<void> {
  const model = (await h!.call('models:list', {})).models[0]!;
  await h!.call('models:update', { id: model.id, contextWindow: tokens });
}

it('three reads that outgrow the window: the last request leaves the oldest result out, the person is told once, the database keeps all', async () => {
  const read = { name: 'read_file', arguments: { path: 'big.txt' } };
  h = await startHarness({
    turns: [{ toolCalls: [read] }, { toolCalls: [read] }, { toolCalls: [read] }, { text: 'Read it three times.' }],
  });
  const line = 'a line of a large file, read again and again by a model that forgot it had read it\n';
  writeFileSync(join(h.workspace, 'big.txt'), line.repeat(500)); // 42 KB, under read_file's 2,000 lines
  await setWindow(48_000); // 108,000 characters, less the tools

  const sessionId = await h.newSession();
  const events = await h.sendAndSettle(sessionId, 'Read big.txt');
  expect(events.some((e) => e.type === 'done')).toBe(true);
  expect(h.llm.requests).toHaveLength(4);

  const tools = (bodyOf(0).tools ?? []).map((t) => t.function);
  const budget = promptBudgetChars(48_000, tools);
  for (let i = 0; i < 4; i++) expect(charsOf(bodyOf(i))).toBeLessThanOrEqual(budget);
  const full = toolResults(bodyOf(2))[0]!;
  expect(full.length).toBeGreaterThan(40_000);
  // The fourth request: the first result left out with a note, the two newer ones whole.
  expect(toolResults(bodyOf(3))).toEqual([hiddenResultNote(full.length), full, full]);

  const told = events.filter((e) => e.type === 'context_fitted');
  expect(told).toEqual([
    expect.objectContaining({
      model: 'scripted-1',
      window_tokens: 48_000,
      window_is_set: true,
      hidden_results: 1,
      dropped_messages: 0,
      cut_messages: 0,
    }),
  ]);
  // Only the request was smaller: the session's history still has every result whole.
  const history = await h.call('chat:history', { sessionId, limit: 50 });
  const results = history.messages.flatMap((m) => m.tools.map((t) => t.result ?? ''));
  expect(results).toEqual([full, full, full]);
});

it('a provider that says the request is too long gets it once more at half the size, and the turn goes on', async () => {
  h = await startHarness({
    turns: [
      {
        status: 400,
        errorMessage:
          "This model's maximum context length is 16385 tokens. However, your messages resulted in 61000 tokens.",
      },
      { text: 'Summarized your paste.' },
    ],
  });
  const sessionId = await h.newSession();
  const paste = 'pasted log line with some words in it\n'.repeat(5_000); // 190,000 characters: fits the assumed 128k window
  const events = await h.sendAndSettle(sessionId, paste);
  expect(events.some((e) => e.type === 'done')).toBe(true);
  expect(h.llm.requests).toHaveLength(2);
  const first = charsOf(bodyOf(0));
  const second = charsOf(bodyOf(1));
  expect(second).toBeLessThanOrEqual(first / 2);
  expect(String(bodyOf(1).messages.at(-1)!.content)).toMatch(
    /\[cut to fit the model's context window: \d+ characters in all\]$/,
  );
  expect(events.filter((e) => e.type === 'context_fitted')).toEqual([
    expect.objectContaining({ window_is_set: false, cut_messages: 1 }),
  ]);
});

it('a local server whose small window is not set: the retry fits the window its error names, not just half', async () => {
  h = await startHarness({
    turns: [
      {
        status: 400,
        errorMessage: 'the request (30000 tokens) exceeds the available context size (4096 tokens), try increasing it',
      },
      { text: 'Read the start.' },
    ],
  });
  const sessionId = await h.newSession();
  const events = await h.sendAndSettle(sessionId, 'log line that repeats\n'.repeat(5_000)); // 110,000 characters
  expect(events.some((e) => e.type === 'done')).toBe(true);
  // Half would have been 55,000 characters, ten times what a 4,096-token window holds: the message is cut to its floor.
  expect(charsOf(bodyOf(1))).toBeLessThan(charsOf(bodyOf(0)) / 10);
  expect(events.filter((e) => e.type === 'context_fitted')).toEqual([
    expect.objectContaining({ window_tokens: 4_096, window_is_set: false }),
  ]);
});

it('when the smaller request is too long as well, the person is told what to do', async () => {
  const tooLong = { status: 400, errorMessage: 'prompt is too long: 250000 tokens > 200000 maximum' };
  h = await startHarness({ turns: [tooLong, tooLong] });
  const sessionId = await h.newSession();
  const events = await h.sendAndSettle(sessionId, 'hello');
  expect(h.llm.requests).toHaveLength(2);
  const failed = events.find((e) => e.type === 'llm_failed');
  expect(failed).toMatchObject({ type: 'llm_failed', tried: ['scripted-1'] });
  expect(failed && 'last_error' in failed ? failed.last_error : '').toContain(OVERFLOW_ADVICE);
});

it('after two busy turns of 19 tool rounds each, the next request still holds the first turn and the person’s words', async () => {
  const round = { toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] };
  const busyTurn = (answer: string) => [...Array.from({ length: 19 }, () => round), { text: answer }];
  h = await startHarness({
    turns: [...busyTurn('First task done.'), ...busyTurn('Second task done.'), { text: 'Both, yes.' }],
  });
  const sessionId = await h.newSession();
  await h.sendAndSettle(sessionId, 'The first task: list the files again and again');
  await h.sendAndSettle(sessionId, 'The second task: the same');
  await h.sendAndSettle(sessionId, 'Did you do both?');
  const last = bodyOf(h.llm.requests.length - 1);
  const users = last.messages.filter((m) => m.role === 'user').map((m) => String(m.content));
  expect(users).toEqual([
    'The first task: list the files again and again',
    'The second task: the same',
    'Did you do both?',
  ]);
  expect(last.messages.filter((m) => m.role === 'tool')).toHaveLength(38);
});

it('/context says how much of the model’s window the last request used, and whether the window was set', async () => {
  h = await startHarness({ turns: [{ text: 'Hi.' }, { text: 'Hi again.' }] });
  const sessionId = await h.newSession();
  await h.sendAndSettle(sessionId, 'hello');
  const reply = async () => (await h!.sendAndSettle(sessionId, '/context')).find((e) => e.type === 'command_reply');
  expect(await reply()).toMatchObject({
    content: expect.stringMatching(
      /the last request used [\d,]+ input tokens of scripted-1's 128,000-token window \(\d+%; assumed: set it in Settings → Models\)/,
    ),
  });
  await setWindow(48_000);
  expect(await reply()).toMatchObject({
    content: expect.stringMatching(/of scripted-1's 48,000-token window \(\d+%\)\. Older parts are left out/),
  });
});
