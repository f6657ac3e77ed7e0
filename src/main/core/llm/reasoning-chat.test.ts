/**
 * The reasoning setting on the real path (docs/models.md "Reasoning"): the real core and session, the provider
 * clients and the scripted LLM over HTTP. A model's reasoning streams into the chat as `reasoning_delta` events and
 * is kept with its message; with Anthropic the round after a tool call gets its signed thinking back.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import type { ReasoningLevel } from '../../../shared/contract/providers';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

async function setReasoning(level: ReasoningLevel): Promise<void> {
  const model = (await h!.call('models:list', {})).models[0]!;
  expect((await h!.call('models:update', { id: model.id, reasoning: level })).model.reasoning).toBe(level);
}

it('Anthropic: thinking streams as reasoning, and the round after the tool call carries it back signed', async () => {
  h = await startHarness({
    providerKind: 'anthropic',
    turns: [
      {
        reasoning: 'Look at a.txt first.',
        text: 'Reading.',
        toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }],
      },
      { reasoning: 'It holds one line.', text: 'It says hello.' },
    ],
  });
  writeFileSync(join(h.workspace, 'a.txt'), 'hello\n');
  await setReasoning('high');
  const sessionId = await h.newSession();
  const events = await h.sendAndSettle(sessionId, 'What is in a.txt?');
  expect(events.some((e) => e.type === 'done')).toBe(true);

  const reasoning = events.flatMap((e) => (e.type === 'reasoning_delta' ? [[e.round, e.delta] as const] : []));
  expect(
    reasoning
      .filter(([round]) => round === reasoning[0]![0])
      .map(([, d]) => d)
      .join(''),
  ).toBe('Look at a.txt first.');
  expect(reasoning.map(([, d]) => d).join('')).toBe('Look at a.txt first.It holds one line.');
  expect(reasoning.every(([, d]) => d !== '')).toBe(true);

  expect(h.llm.requests).toHaveLength(2);
  for (const r of h.llm.requests) expect(r.body.thinking).toEqual({ type: 'enabled', budget_tokens: 24_576 });
  const messages = h.llm.requests[1]!.body.messages as {
    role: string;
    content: { type: string; thinking?: string; signature?: string }[];
  }[];
  const assistant = messages.find((m) => m.role === 'assistant')!;
  expect(assistant.content[0]).toEqual({
    type: 'thinking',
    thinking: 'Look at a.txt first.',
    signature: 'scripted-signature',
  });
  expect(assistant.content.at(-1)!.type).toBe('tool_use');

  const history = await h.call('chat:history', { sessionId, limit: 50 });
  expect(history.messages.filter((m) => m.role === 'assistant').map((m) => m.reasoning)).toEqual([
    'Look at a.txt first.',
    'It holds one line.',
  ]);
});

it('OpenAI-compatible: reasoning_content streams as reasoning, with reasoning_effort sent', async () => {
  h = await startHarness({ turns: [{ reasoning: 'Think it over.', text: 'Hello.' }] });
  await setReasoning('medium');
  const sessionId = await h.newSession();
  const events = await h.sendAndSettle(sessionId, 'Say hello');
  expect(
    events
      .filter((e) => e.type === 'reasoning_delta')
      .map((e) => (e.type === 'reasoning_delta' ? e.delta : ''))
      .join(''),
  ).toBe('Think it over.');
  expect(h.llm.requests[0]!.body.reasoning_effort).toBe('medium');
});
