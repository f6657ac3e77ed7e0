/**
 * The reasoning setting on the wire (docs/models.md "Reasoning"), through the real AI SDK provider clients to
 * the scripted server over HTTP: each provider kind gets its own field at each level and nothing extra for `off`;
 * Anthropic gets its signed thinking back on the round that continues a tool use, or no thinking for that round
 * when the thinking is not kept.
 */
import { describe, expect, it } from 'vitest';
import { READ_FILE_TOOL, HELLO, llmFixtureForEachTest, type LlmFixture } from '../../../../test/llm-server/fixture';
import { LlmClient } from './llm-client';
import { THINKING_BUDGETS } from './reasoning';
import type { ChatMessage } from './types';
import type { ProviderKind, ReasoningLevel } from '../../../shared/contract/providers';

let f: LlmFixture;
llmFixtureForEachTest((fixture) => (f = fixture));

const hello = HELLO;
const LEVELS = ['low', 'medium', 'high'] as const;

async function bodyFor(kind: ProviderKind, level: ReasoningLevel): Promise<Record<string, unknown>> {
  const [model] = f.addModels(kind, [`${kind}-model`]);
  f.repo.updateModel({ id: model!.id, reasoning: level });
  f.llm.script([{ text: 'Hi.' }]);
  await f.round(hello);
  return f.llm.requests.at(-1)!.body;
}

const REASONING_FIELDS = ['thinking', 'reasoning_effort', 'reasoning'];
const reasoningFields = (body: Record<string, unknown>) =>
  Object.keys(body).filter((k) => REASONING_FIELDS.includes(k));

describe('the reasoning field each provider kind gets', () => {
  it.each(LEVELS)('Anthropic: thinking enabled with the %s budget, and max_tokens above it', async (level) => {
    const body = await bodyFor('anthropic', level);
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: THINKING_BUDGETS[level] });
    expect(body.max_tokens).toBeGreaterThan(THINKING_BUDGETS[level]);
    expect(body).not.toHaveProperty('temperature');
    expect(reasoningFields(body)).toEqual(['thinking']);
  });

  it.each(LEVELS)('OpenAI: reasoning_effort %s', async (level) => {
    const body = await bodyFor('open_ai', level);
    expect(body.reasoning_effort).toBe(level);
    expect(reasoningFields(body)).toEqual(['reasoning_effort']);
  });

  it.each(['openai_compatible', 'deepseek', 'ollama', 'lm_studio'] as const)(
    'OpenAI-compatible (%s): reasoning_effort at each level',
    async (kind) => {
      const [model] = f.addModels(kind, ['m']);
      for (const level of LEVELS) {
        f.repo.updateModel({ id: model!.id, reasoning: level });
        f.llm.script([{ text: 'Hi.' }]);
        await f.round(hello);
        const body = f.llm.requests.at(-1)!.body;
        expect(body.reasoning_effort).toBe(level);
        expect(reasoningFields(body)).toEqual(['reasoning_effort']);
      }
    },
  );

  it.each(LEVELS)('OpenRouter: its own reasoning.effort %s, beside its usage request', async (level) => {
    const body = await bodyFor('openrouter', level);
    expect(body.reasoning).toEqual({ effort: level });
    expect(body.usage).toEqual({ include: true });
    expect(reasoningFields(body)).toEqual(['reasoning']);
  });

  it.each(['anthropic', 'open_ai', 'openai_compatible', 'openrouter'] as const)(
    'off (%s): nothing extra is sent',
    async (kind) => {
      const [model] = f.addModels(kind, ['plain']);
      expect(model!.reasoning).toBe('off');
      f.llm.script([{ text: 'Hi.' }]);
      await f.round(hello);
      expect(reasoningFields(f.llm.requests[0]!.body)).toEqual([]);
    },
  );
});

describe('Anthropic thinking across a tool use', () => {
  const ask: ChatMessage[] = [{ role: 'user', content: 'Read a.txt' }];
  const continued = (callId: string): ChatMessage[] => [
    ...ask,
    {
      role: 'assistant',
      content: 'Reading.',
      tool_calls: [{ id: callId, name: 'read_file', arguments: '{"path":"a.txt"}' }],
    },
    { role: 'tool', tool_call_id: callId, content: 'contents of a' },
  ];
  type Block = { type: string; thinking?: string; signature?: string };
  const assistantBlocks = (i: number) =>
    (f.llm.requests[i]!.body.messages as { role: string; content: Block[] }[]).find((m) => m.role === 'assistant')!
      .content;

  it('the continuing round carries the signed thinking block before the tool use, with thinking still on', async () => {
    const [model] = f.addModels('anthropic', ['claude-test']);
    f.repo.updateModel({ id: model!.id, reasoning: 'medium' });
    f.llm.script([
      {
        reasoning: 'I should read the file.',
        text: 'Reading.',
        toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }],
      },
      { reasoning: 'It says a.', text: 'It says a.' },
    ]);
    const first = await f.round(ask, { tools: [READ_FILE_TOOL] });
    expect(first.reasoningDeltas.join('')).toBe('I should read the file.');
    expect(first.reasoningDeltas).not.toContain(''); // the signature's empty delta is not shown
    const callId = first.turn.toolCalls[0]!.id;

    const second = await f.round(continued(callId), { tools: [READ_FILE_TOOL] });
    expect(second.turn.text).toBe('It says a.');
    const body = f.llm.requests[1]!.body;
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: THINKING_BUDGETS.medium });
    expect(assistantBlocks(1).map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use']);
    expect(assistantBlocks(1)[0]).toEqual({
      type: 'thinking',
      thinking: 'I should read the file.',
      signature: 'scripted-signature',
    });
  });

  it('without the kept thinking (a restart), the continuing round goes without thinking and stays valid', async () => {
    const [model] = f.addModels('anthropic', ['claude-test']);
    f.repo.updateModel({ id: model!.id, reasoning: 'high' });
    const logged: string[] = [];
    const restarted = new LlmClient({ models: f.repo, log: (message) => logged.push(message) });
    f.llm.script([{ text: 'It says a.' }]);
    await restarted.streamRound({
      modelSelection: 'auto',
      messages: continued('toolu_from_before'),
      tools: [READ_FILE_TOOL],
      signal: new AbortController().signal,
      onTextDelta: () => {},
      onReasoningDelta: () => {},
    });
    const body = f.llm.requests[0]!.body;
    expect(body).not.toHaveProperty('thinking');
    expect(assistantBlocks(0).map((b) => b.type)).toEqual(['text', 'tool_use']);
    expect(logged).toContain('llm: thinking left off for a round continuing a tool use whose thinking is not kept');
  });

  it('thinking another model wrote is not put back: that round goes without thinking', async () => {
    const [first, second] = f.addModels('anthropic', ['claude-a', 'claude-b']);
    f.repo.updateModel({ id: first!.id, reasoning: 'low' });
    f.repo.updateModel({ id: second!.id, reasoning: 'low' });
    f.llm.script([
      { reasoning: 'Read it.', toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
      { text: 'Done.' },
    ]);
    const round = await f.round(ask, { tools: [READ_FILE_TOOL] });
    await f.round(continued(round.turn.toolCalls[0]!.id), { tools: [READ_FILE_TOOL], modelSelection: 'claude-b' });
    expect(f.llm.requests[1]!.body.model).toBe('claude-b');
    expect(f.llm.requests[1]!.body).not.toHaveProperty('thinking');
    expect(assistantBlocks(1).map((b) => b.type)).toEqual(['text', 'tool_use']);
  });

  it('a new turn after a finished tool use needs nothing put back and keeps thinking on', async () => {
    const [model] = f.addModels('anthropic', ['claude-test']);
    f.repo.updateModel({ id: model!.id, reasoning: 'low' });
    f.llm.script([{ reasoning: 'Easy.', text: 'Done.' }]);
    await f.round([
      ...continued('toolu_old'),
      { role: 'assistant', content: 'It says a.' },
      { role: 'user', content: 'Thanks' },
    ]);
    expect(f.llm.requests[0]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: THINKING_BUDGETS.low });
  });
});
