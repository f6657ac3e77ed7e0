/**
 * OpenAI Chat Completions streaming (`POST /v1/chat/completions`, `stream: true`): `data: {chunk}` lines ending in
 * `data: [DONE]`. Reasoning goes out as `delta.reasoning_content` (the DeepSeek/OpenRouter shape the
 * OpenAI-compatible client reads). Tool calls: every call's head (`id`, `name`, empty `arguments`) first, then
 * the argument pieces of all calls interleaved by index, so parallel calls and split arguments are both exercised.
 * A final usage chunk (`choices: []`) follows when the request asked for `stream_options.include_usage`.
 */
import type { SseWriter } from './sse';
import { argumentsJson, estimateTokens, outputText, splitArguments, textPieces, type ScriptedTurn } from './turns';

export interface StreamIds {
  next(prefix: string): string;
}

export async function writeOpenAiStream(
  w: SseWriter,
  turn: ScriptedTurn,
  body: Record<string, unknown>,
  ids: StreamIds,
): Promise<void> {
  const base = {
    id: ids.next('chatcmpl-'),
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: String(body.model ?? 'scripted'),
  };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  const text = textPieces(turn.text ?? '');

  w.start();
  await w.send(chunk({ role: 'assistant', content: '' }));
  if (turn.hangUntilAborted) {
    if (text[0]) await w.send(chunk({ content: text[0] }));
    await w.hang();
    return;
  }
  for (const piece of textPieces(turn.reasoning ?? '')) await w.send(chunk({ reasoning_content: piece }));
  for (const piece of text) await w.send(chunk({ content: piece }));

  const calls = (turn.toolCalls ?? []).map((call, index) => ({
    index,
    id: call.id ?? ids.next('call_'),
    name: call.name,
    pieces: splitArguments(argumentsJson(call)),
  }));
  for (const c of calls) {
    await w.send(
      chunk({
        tool_calls: [{ index: c.index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }],
      }),
    );
  }
  const rounds = Math.max(0, ...calls.map((c) => c.pieces.length));
  for (let i = 0; i < rounds; i++) {
    for (const c of calls) {
      const piece = c.pieces[i];
      if (piece !== undefined)
        await w.send(chunk({ tool_calls: [{ index: c.index, function: { arguments: piece } }] }));
    }
  }

  const finish = calls.length ? 'tool_calls' : turn.finishReason === 'length' ? 'length' : 'stop';
  await w.send(chunk({}, finish));
  const options = body.stream_options as { include_usage?: unknown } | undefined;
  if (options?.include_usage === true) {
    const input = turn.usage?.inputTokens ?? estimateTokens(JSON.stringify(body.messages ?? []));
    const output = turn.usage?.outputTokens ?? estimateTokens(outputText(turn));
    const usage: Record<string, number> = {
      prompt_tokens: input,
      completion_tokens: output,
      total_tokens: input + output,
    };
    if (turn.usage?.cost !== undefined) usage.cost = turn.usage.cost;
    await w.send({ ...base, choices: [], usage });
  }
  await w.send('[DONE]');
  w.end();
}

export function openAiErrorBody(status: number, message: string): Record<string, unknown> {
  const type = status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message, type, param: null, code: null } };
}
