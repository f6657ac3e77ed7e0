/**
 * What our model client adds to a round (docs/performance.md "What keeps the waited-on paths fast"): the app's own
 * client (`core.llm.client.streamRound`: the configured models read by priority, the provider's key opened, the
 * history converted, the tools declared, the kept language model, the fallback's bookkeeping) against the AI SDK's
 * `streamText` called directly with a model and tool declarations built once, both against the scripted LLM over
 * HTTP with the same answer (a line of text and one tool call), the same history and the tools the session offers
 * (read from the app's first request), the two interleaved round by round. Both answers are checked alike.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonSchema, streamText, tool, type JSONSchema7, type Tool } from 'ai';
import { createCore } from '../src/main/core/index';
import { toModelMessages } from '../src/main/core/llm/messages';
import { languageModelFor } from '../src/main/core/llm/provider-factory';
import type { ChatMessage, ToolSpec } from '../src/main/core/llm/types';
import { startScriptedLlm } from '../test/llm-server/index';
import { call, turnInNewSession } from './session-turn';
import { interleaved, median, ms, type BenchOptions, type BenchRow } from './table';

const ANSWER = {
  text: 'Reading the notes first.',
  toolCalls: [{ name: 'read_file', arguments: { path: 'notes/plan.md' } }],
};
const HISTORY: ChatMessage[] = [
  { role: 'system', content: 'You are a careful assistant working in a code repository.' },
  { role: 'user', content: 'Summarize the plan in notes/plan.md and list the open questions.' },
];

export async function run({ quick }: BenchOptions): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'skald-bench-llm-round-'));
  const llm = await startScriptedLlm({ turns: [] });
  const core = await createCore({
    dataDir: join(dir, 'data'),
    workspaceDir: join(dir, 'ws'),
    shape: 'web',
    version: 'bench',
  });
  try {
    const { provider } = await call(core, 'providers:create', {
      kind: 'openai_compatible',
      name: 'scripted',
      baseUrl: llm.baseUrl,
      apiKey: 'k',
    });
    await call(core, 'models:create', { providerId: provider.id, modelId: 'scripted-1' });
    // The tools the session offers, as its first request declared them.
    llm.script([{ text: 'hello' }]);
    await turnInNewSession(core);
    const declared = llm.requests[0]!.body.tools as {
      function: { name: string; description: string; parameters: Record<string, unknown> };
    }[];
    const specs: ToolSpec[] = declared.map((t) => ({
      name: t.function.name,
      description: t.function.description,
      parameters: t.function.parameters,
    }));

    const client = core.llm.client;
    const [record] = core.llm.providers.orderedModels();
    const model = await languageModelFor(record!, 'k');
    const tools: Record<string, Tool> = Object.fromEntries(
      specs.map((s) => [
        s.name,
        tool({ description: s.description, inputSchema: jsonSchema(s.parameters as JSONSchema7) }),
      ]),
    );
    const prompt = toModelMessages(HISTORY, record!.providerKind);
    const wrong: string[] = [];
    const check = (side: string, text: string, calls: string[]) => {
      if (text !== ANSWER.text || calls.join() !== 'read_file')
        wrong.push(`${side}: ${JSON.stringify({ text, calls })}`);
    };
    const ours = async () => {
      llm.script([ANSWER]);
      const turn = await client.streamRound({
        modelSelection: 'auto',
        messages: HISTORY,
        tools: specs,
        signal: new AbortController().signal,
        onTextDelta: () => {},
        onReasoningDelta: () => {},
      });
      check(
        'ours',
        turn.text,
        turn.toolCalls.map((c) => c.name),
      );
    };
    const peer = async () => {
      llm.script([ANSWER]);
      const result = streamText({
        model,
        ...(prompt.system !== undefined ? { system: prompt.system } : {}),
        messages: prompt.messages,
        allowSystemInMessages: true,
        tools,
        maxRetries: 0,
      });
      let text = '';
      const calls: string[] = [];
      for await (const part of result.fullStream) {
        if (part.type === 'text-delta') text += part.text;
        else if (part.type === 'tool-call') calls.push(part.toolName);
        else if (part.type === 'error') throw part.error;
      }
      check('peer', text, calls);
    };
    const runs = quick ? 40 : 400;
    const times = await interleaved(
      async () => {
        await ours();
        (llm.requests as unknown[]).length = 0; // the scripted server keeps every request: not ours to carry
      },
      peer,
      runs,
      quick ? 10 : 50,
    );
    const [oursMs, peerMs] = [median(times.ours), median(times.peer)];
    return [
      {
        name: `model round over HTTP (${specs.length} tools declared, a line of text and one tool call back): our client vs the AI SDK's streamText with a model and tools built once (median of ${runs})`,
        ours: ms(oursMs),
        peer: ms(peerMs),
        ratio: oursMs / peerMs,
        target: '≤ 1.2×',
        pass: oursMs / peerMs <= 1.2,
        ...(wrong.length ? { wrong: wrong.slice(0, 2).join('; ') } : {}),
      },
    ];
  } finally {
    await core.dispose();
    await llm.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
