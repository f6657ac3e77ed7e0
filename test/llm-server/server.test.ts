/**
 * The scripted LLM's wire formats, read raw with fetch: the OpenAI stream really splits arguments across chunks
 * and interleaves parallel calls, usage comes only when asked for, Anthropic sends the event sequence of the real
 * API; plus turn matching, control endpoints and the standalone process.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../helpers/temp';
import { startScriptedLlm, type ScriptedLlm } from './index';

let llm: ScriptedLlm | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
  cleanupTempDirs();
});

interface SseMessage {
  event: string | null;
  data: string;
}

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function sse(res: Response): Promise<SseMessage[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? null;
      return { event, data: lines.find((l) => l.startsWith('data: '))!.slice(6) };
    });
}

const chatBody = (extra: Record<string, unknown> = {}) => ({
  model: 'm',
  stream: true,
  messages: [{ role: 'user', content: 'hi' }],
  ...extra,
});

describe('OpenAI Chat Completions stream', () => {
  it('splits tool arguments across several chunks and interleaves parallel calls', async () => {
    llm = await startScriptedLlm();
    llm.script([
      {
        toolCalls: [
          { name: 'a', arguments: { path: 'one.txt', n: 1 } },
          { name: 'b', arguments: { path: 'two.txt' } },
        ],
      },
    ]);
    const messages = await sse(await post(`${llm.baseUrl}/chat/completions`, chatBody()));
    expect(messages.at(-1)!.data).toBe('[DONE]');
    const chunks = messages.slice(0, -1).map(
      (m) =>
        JSON.parse(m.data) as {
          choices: {
            delta: { tool_calls?: { index: number; id?: string; function: { name?: string; arguments: string } }[] };
            finish_reason: string | null;
          }[];
        },
    );
    const deltas = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    const pieces = (index: number) =>
      deltas.filter((d) => d.index === index && d.function.arguments !== '').map((d) => d.function.arguments);
    expect(pieces(0).length).toBeGreaterThanOrEqual(3);
    expect(pieces(1).length).toBeGreaterThanOrEqual(3);
    for (const piece of pieces(0)) expect(() => JSON.parse(piece)).toThrow();
    expect(JSON.parse(pieces(0).join(''))).toEqual({ path: 'one.txt', n: 1 });
    expect(JSON.parse(pieces(1).join(''))).toEqual({ path: 'two.txt' });
    const order = deltas.filter((d) => d.function.arguments !== '').map((d) => d.index);
    expect(order.slice(0, 4)).toEqual([0, 1, 0, 1]);
    expect(deltas.filter((d) => d.id).map((d) => d.function.name)).toEqual(['a', 'b']);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('tool_calls');
    expect(chunks.some((c) => 'usage' in c)).toBe(false);
  });

  it('streams text as several deltas and adds a usage chunk when include_usage is set', async () => {
    llm = await startScriptedLlm({
      turns: [{ text: 'one two three', usage: { inputTokens: 7, outputTokens: 3, cost: 0.01 } }],
    });
    const messages = await sse(
      await post(`${llm.baseUrl}/chat/completions`, chatBody({ stream_options: { include_usage: true } })),
    );
    const chunks = messages
      .slice(0, -1)
      .map((m) => JSON.parse(m.data) as { choices: { delta: { content?: string } }[]; usage?: unknown });
    expect(chunks.flatMap((c) => (c.choices[0]?.delta.content ? [c.choices[0].delta.content] : []))).toEqual([
      'one ',
      'two ',
      'three',
    ]);
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10, cost: 0.01 },
    });
  });

  it('answers scripted errors with the status and a provider-shaped body', async () => {
    llm = await startScriptedLlm({ turns: [{ status: 429, errorMessage: 'slow down' }] });
    const res = await post(`${llm.baseUrl}/chat/completions`, chatBody());
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({ error: { message: 'slow down', type: 'rate_limit_exceeded' } });
  });
});

describe('Anthropic Messages stream', () => {
  it('sends message_start, thinking/text/tool_use blocks with split input_json_delta, message_delta, message_stop', async () => {
    llm = await startScriptedLlm({
      turns: [
        {
          reasoning: 'hmm ok',
          text: 'Sure.',
          toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts' } }],
          usage: { outputTokens: 4 },
        },
      ],
    });
    const messages = await sse(
      await post(`${llm.baseUrl}/messages`, {
        model: 'c',
        stream: true,
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    const types = messages.map((m) => m.event);
    expect(types[0]).toBe('message_start');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    for (const m of messages) expect((JSON.parse(m.data) as { type: string }).type).toBe(m.event);
    const data = messages.map(
      (m) =>
        JSON.parse(m.data) as {
          type: string;
          index?: number;
          content_block?: { type: string };
          delta?: Record<string, unknown>;
          usage?: unknown;
        },
    );
    expect(data.filter((d) => d.type === 'content_block_start').map((d) => d.content_block!.type)).toEqual([
      'thinking',
      'text',
      'tool_use',
    ]);
    expect(data.filter((d) => d.delta?.type === 'thinking_delta').map((d) => d.delta!.thinking)).toEqual([
      'hmm ',
      'ok',
    ]);
    const json = data.filter((d) => d.delta?.type === 'input_json_delta').map((d) => d.delta!.partial_json as string);
    expect(json.length).toBeGreaterThanOrEqual(3);
    expect(JSON.parse(json.join(''))).toEqual({ path: 'src/a.ts' });
    expect(data.filter((d) => d.type === 'content_block_stop')).toHaveLength(3);
    expect(data.at(-2)).toMatchObject({ delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 4 } });
  });
});

describe('turn selection and control', () => {
  it('picks a matching turn by the last user message, else the next unmatched one, else 400', async () => {
    llm = await startScriptedLlm();
    llm.script([{ match: 'weather', text: 'sunny' }, { text: 'generic' }]);
    const ask = async (content: string) => {
      const res = await post(`${llm!.baseUrl}/chat/completions`, chatBody({ messages: [{ role: 'user', content }] }));
      if (res.status !== 200) return res.status;
      const msgs = await sse(res);
      return msgs
        .slice(0, -1)
        .map(
          (m) => (JSON.parse(m.data) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? '',
        )
        .join('');
    };
    expect(await ask('hello')).toBe('generic');
    expect(await ask('what is the weather?')).toBe('sunny');
    expect(await ask('again')).toBe(400);
    expect(llm.requests.map((r) => r.turn?.text ?? null)).toEqual(['generic', 'sunny', null]);
  });

  it('accepts turns and reports requests over its control endpoints', async () => {
    llm = await startScriptedLlm();
    expect(
      await (
        await post(`${llm.url}/__script`, { turns: [{ text: 'added' }], defaultTurn: { text: 'default' } })
      ).json(),
    ).toEqual({ remaining: 1 });
    await sse(await post(`${llm.baseUrl}/chat/completions`, chatBody()));
    await sse(await post(`${llm.baseUrl}/chat/completions`, chatBody()));
    const recorded = (await (await fetch(`${llm.url}/__requests`)).json()) as { turn: { text: string } }[];
    expect(recorded.map((r) => r.turn.text)).toEqual(['added', 'default']);
  });

  it('answers without keeping the requests when asked not to (the benches)', async () => {
    llm = await startScriptedLlm({ turns: [{ text: 'one' }, { text: 'two' }], keepRequests: false });
    await sse(await post(`${llm.baseUrl}/chat/completions`, chatBody()));
    await sse(await post(`${llm.baseUrl}/chat/completions`, chatBody()));
    expect(llm.remaining()).toBe(0);
    expect(llm.requests).toEqual([]);
  });

  it('runs as a standalone process with a script file', async () => {
    const dir = tempDir('skald-llm-cli-');
    const script = join(dir, 'turns.json');
    writeFileSync(script, JSON.stringify([{ text: 'file-turn' }]));
    const child = spawn(
      process.execPath,
      [join(__dirname, '../../node_modules/tsx/dist/cli.mjs'), join(__dirname, 'cli.ts'), '--script', script],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`cli exited with ${code}`)));
      });
      const baseUrl = /^scripted-llm listening (http:\/\/127\.0\.0\.1:\d+\/v1)$/.exec(line)?.[1];
      expect(baseUrl).toBeDefined();
      const msgs = await sse(await post(`${baseUrl}/chat/completions`, chatBody()));
      expect(msgs.some((m) => m.data.includes('file-turn'))).toBe(true);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
