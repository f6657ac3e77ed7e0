/**
 * The LLM client against the scripted server over real HTTP, through the real AI SDK provider clients:
 * streaming, split and parallel tool calls, Anthropic, cancellation, cost, and the history repair.
 */
import { describe, expect, it } from 'vitest';
import { READ_FILE_TOOL, HELLO, llmFixtureForEachTest, type LlmFixture } from '../../../../test/llm-server/fixture';
import { LlmCancelledError } from './errors';
import { INTERRUPTED_TOOL_RESULT } from './messages';
import type { ChatMessage, ToolSpec } from './types';

let f: LlmFixture;
llmFixtureForEachTest((fixture) => (f = fixture));

const hello = HELLO;
const WRITE_TOOL: ToolSpec = {
  name: 'write_file',
  description: 'Write a file',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string' }, content: { type: 'string' } },
    required: ['path', 'content'],
  },
};

describe('LlmClient over OpenAI Chat Completions', () => {
  it.each(['open_ai', 'openai_compatible'] as const)(
    'streams a text-only round as deltas and returns usage (%s)',
    async (kind) => {
      f.addModels(kind, ['gpt-test']);
      f.llm.script([{ text: 'Hello there, friend.', usage: { inputTokens: 12, outputTokens: 5 } }]);
      const { turn, deltas } = await f.round(hello);
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join('')).toBe('Hello there, friend.');
      expect(turn).toMatchObject({
        text: 'Hello there, friend.',
        toolCalls: [],
        usage: { inputTokens: 12, outputTokens: 5 },
        modelId: 'gpt-test',
        finishReason: 'stop',
        cost: null,
      });
      const req = f.llm.requests[0]!;
      expect(req.api).toBe('openai');
      expect(req.headers.authorization).toBe('Bearer test-key');
      expect(req.body).toMatchObject({ model: 'gpt-test', stream: true, stream_options: { include_usage: true } });
      expect(req.body.messages).toEqual([
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Say hello' },
      ]);
    },
  );

  it.each(['open_ai', 'openai_compatible'] as const)(
    'returns split, parallel tool calls whole, with valid JSON, and executes nothing (%s)',
    async (kind) => {
      f.addModels(kind, ['gpt-test']);
      const args0 = { path: 'notes/a long file name.txt' };
      const args1 = { path: 'b.txt', content: 'line one\nline "two"\n' };
      f.llm.script([
        {
          text: 'Reading both.',
          toolCalls: [
            { name: 'read_file', arguments: args0 },
            { name: 'write_file', arguments: args1 },
          ],
        },
      ]);
      const { turn } = await f.round(hello, { tools: [READ_FILE_TOOL, WRITE_TOOL] });
      expect(turn.finishReason).toBe('tool-calls');
      expect(turn.text).toBe('Reading both.');
      expect(turn.toolCalls.map((c) => c.name)).toEqual(['read_file', 'write_file']);
      expect(turn.toolCalls.map((c) => JSON.parse(c.arguments))).toEqual([args0, args1]);
      expect(new Set(turn.toolCalls.map((c) => c.id)).size).toBe(2);
      // Nothing ran the tools: exactly one request, no second step carrying tool results.
      expect(f.llm.requests).toHaveLength(1);
      const tools = f.llm.requests[0]!.body.tools as {
        type: string;
        function: { name: string; parameters: unknown };
      }[];
      expect(tools.map((t) => t.function.name)).toEqual(['read_file', 'write_file']);
      expect(tools[0]!.function.parameters).toMatchObject(READ_FILE_TOOL.parameters);
    },
  );

  it('returns malformed tool arguments verbatim for the loop to report', async () => {
    f.addModels('openai_compatible', ['gpt-test']);
    f.llm.script([{ toolCalls: [{ name: 'read_file', arguments: '{"path": "a.txt"' }] }]);
    const { turn } = await f.round(hello, { tools: [READ_FILE_TOOL] });
    expect(turn.toolCalls).toHaveLength(1);
    expect(turn.toolCalls[0]!.arguments).toBe('{"path": "a.txt"');
  });

  it('streams reasoning_content as reasoning deltas (OpenAI-compatible)', async () => {
    f.addModels('deepseek', ['deepseek-reasoner']);
    f.llm.script([{ reasoning: 'Think about it first.', text: 'Done.' }]);
    const { turn, reasoningDeltas } = await f.round(hello);
    expect(reasoningDeltas.length).toBeGreaterThan(1);
    expect(turn.reasoning).toBe('Think about it first.');
    expect(turn.text).toBe('Done.');
  });

  it('reports a truncated answer as finishReason length', async () => {
    f.addModels('openai_compatible', ['gpt-test']);
    f.llm.script([{ text: 'Cut off', finishReason: 'length' }]);
    expect((await f.round(hello)).turn.finishReason).toBe('length');
  });
});

describe('LlmClient over Anthropic Messages', () => {
  it('streams thinking and text, returns split tool calls whole, sends system up front', async () => {
    f.addModels('anthropic', ['claude-test'], { apiKey: 'sk-ant-test' });
    const args0 = { path: 'src/index.ts' };
    const args1 = { path: 'out.txt', content: 'x'.repeat(40) };
    f.llm.script([
      {
        reasoning: 'Let me look at both files.',
        text: 'Looking.',
        toolCalls: [
          { name: 'read_file', arguments: args0 },
          { name: 'write_file', arguments: args1 },
        ],
        usage: { inputTokens: 30, outputTokens: 9 },
      },
    ]);
    const { turn, deltas, reasoningDeltas } = await f.round(hello, { tools: [READ_FILE_TOOL, WRITE_TOOL] });
    expect(reasoningDeltas.join('')).toBe('Let me look at both files.');
    expect(deltas.join('')).toBe('Looking.');
    expect(turn.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
      ['read_file', args0],
      ['write_file', args1],
    ]);
    expect(turn).toMatchObject({
      finishReason: 'tool-calls',
      usage: { inputTokens: 30, outputTokens: 9 },
      modelId: 'claude-test',
    });
    const req = f.llm.requests[0]!;
    expect(req.api).toBe('anthropic');
    expect(req.headers['x-api-key']).toBe('sk-ant-test');
    expect(req.body.system).toEqual([{ type: 'text', text: 'You are terse.' }]);
    expect(req.body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Say hello' }] }]);
    expect((req.body.tools as { name: string }[]).map((t) => t.name)).toEqual(['read_file', 'write_file']);
    expect(f.llm.requests).toHaveLength(1);
  });
});

describe('cancellation', () => {
  it.each(['openai_compatible', 'anthropic'] as const)(
    'an abort mid-stream rejects as cancellation without fallback (%s)',
    async (kind) => {
      f.addModels(kind, ['m1', 'm2']);
      f.llm.script([{ text: 'Partial answer that never ends', hangUntilAborted: true }, { text: 'never used' }]);
      const controller = new AbortController();
      const round = f.round(hello, { signal: controller.signal, onTextDelta: () => controller.abort() });
      await expect(round).rejects.toBeInstanceOf(LlmCancelledError);
      await expect(round).rejects.toMatchObject({ name: 'AbortError' });
      expect(f.events).toEqual([]);
      expect(f.llm.requests).toHaveLength(1);
      expect(f.llm.remaining()).toBe(1);
    },
  );

  it('an abort while waiting for the response head rejects as cancellation', async () => {
    f.addModels('open_ai', ['m1', 'm2']);
    f.llm.script([{ text: 'late', delayMs: 600_000 }]);
    const controller = new AbortController();
    const round = f.round(hello, { signal: controller.signal });
    await expect.poll(() => f.llm.requests.length).toBe(1);
    controller.abort();
    await expect(round).rejects.toBeInstanceOf(LlmCancelledError);
    expect(f.events).toEqual([]);
  });

  it('an already aborted signal sends nothing', async () => {
    f.addModels('openai_compatible', ['m1']);
    const controller = new AbortController();
    controller.abort();
    await expect(f.round(hello, { signal: controller.signal })).rejects.toBeInstanceOf(LlmCancelledError);
    expect(f.llm.requests).toHaveLength(0);
  });
});

describe('cost', () => {
  it('comes from the configured price per 1M tokens', async () => {
    f.addModels('openai_compatible', ['priced'], { inputPricePerM: 3, outputPricePerM: 15 });
    f.llm.script([{ text: 'ok', usage: { inputTokens: 1_000, outputTokens: 500 } }]);
    const { turn } = await f.round(hello);
    expect(turn.cost).toBeCloseTo((1_000 * 3 + 500 * 15) / 1_000_000, 12);
  });

  it("prefers the provider's reported cost (OpenRouter usage.cost) over the configured price", async () => {
    f.addModels('openrouter', ['openai/gpt-test'], { inputPricePerM: 3, outputPricePerM: 15 });
    f.llm.script([{ text: 'ok', usage: { inputTokens: 1_000, outputTokens: 500, cost: 0.0042 } }]);
    const { turn } = await f.round(hello);
    expect(turn.cost).toBe(0.0042);
    expect(f.llm.requests[0]!.body.usage).toEqual({ include: true });
  });
});

describe('history repair', () => {
  const unanswered: ChatMessage[] = [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'read two files' },
    {
      role: 'assistant',
      content: 'Reading.',
      tool_calls: [
        { id: 'call_done', name: 'read_file', arguments: '{"path":"a.txt"}' },
        { id: 'call_lost', name: 'read_file', arguments: '{"path":"b.txt"}' },
      ],
    },
    { role: 'tool', tool_call_id: 'call_done', content: 'contents of a' },
    { role: 'tool', tool_call_id: 'call_orphan', content: 'answers nothing' },
    { role: 'user', content: 'go on' },
  ];

  it('answers an unanswered tool call with an interrupted result and drops orphan results (OpenAI shape)', async () => {
    f.addModels('openai_compatible', ['m1']);
    f.llm.script([{ text: 'ok' }]);
    await f.round(unanswered, { tools: [READ_FILE_TOOL] });
    const messages = f.llm.requests[0]!.body.messages as Record<string, unknown>[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user']);
    expect((messages[2]!.tool_calls as { id: string }[]).map((c) => c.id)).toEqual(['call_done', 'call_lost']);
    expect(messages[3]).toMatchObject({ tool_call_id: 'call_done', content: 'contents of a' });
    expect(messages[4]).toMatchObject({ tool_call_id: 'call_lost', content: INTERRUPTED_TOOL_RESULT });
  });

  it('does the same for Anthropic: tool_use followed by a user turn of tool_result blocks', async () => {
    f.addModels('anthropic', ['claude-test']);
    f.llm.script([{ text: 'ok' }]);
    await f.round(unanswered, { tools: [READ_FILE_TOOL] });
    const messages = f.llm.requests[0]!.body.messages as {
      role: string;
      content: { type: string; tool_use_id?: string; content?: unknown }[];
    }[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    const results = messages[2]!.content.filter((b) => b.type === 'tool_result');
    expect(results.map((b) => b.tool_use_id)).toEqual(['call_done', 'call_lost']);
    expect(JSON.stringify(results[1]!.content)).toContain('interrupted');
    expect(messages[2]!.content.at(-1)).toMatchObject({ type: 'text', text: 'go on' });
  });
});
