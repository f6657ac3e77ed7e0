/**
 * Anthropic Messages streaming (`POST /v1/messages`, `stream: true`): `message_start`, one content block per
 * thinking / text / tool use (`content_block_start`, deltas, `content_block_stop`), `message_delta` with the
 * stop reason and output usage, `message_stop`. Thinking streams as `thinking_delta` plus a `signature_delta`;
 * tool input streams as `input_json_delta` pieces. Blocks are sequential, as the real API sends them.
 */
import type { StreamIds } from './openai-stream';
import type { SseWriter } from './sse';
import { argumentsJson, estimateTokens, outputText, splitArguments, textPieces, type ScriptedTurn } from './turns';

export async function writeAnthropicStream(
  w: SseWriter,
  turn: ScriptedTurn,
  body: Record<string, unknown>,
  ids: StreamIds,
): Promise<void> {
  const send = (data: { type: string } & Record<string, unknown>) => w.send(data, data.type);
  const input = turn.usage?.inputTokens ?? estimateTokens(JSON.stringify([body.system ?? '', body.messages ?? []]));
  const output = turn.usage?.outputTokens ?? estimateTokens(outputText(turn));
  const text = textPieces(turn.text ?? '');

  w.start();
  await send({
    type: 'message_start',
    message: {
      id: ids.next('msg_'),
      type: 'message',
      role: 'assistant',
      model: String(body.model ?? 'scripted'),
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: input, output_tokens: 1 },
    },
  });
  let index = 0;
  if (turn.hangUntilAborted) {
    await send({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    if (text[0]) await send({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: text[0] } });
    await w.hang();
    return;
  }
  if (turn.reasoning) {
    await send({
      type: 'content_block_start',
      index,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    });
    for (const piece of textPieces(turn.reasoning))
      await send({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } });
    await send({
      type: 'content_block_delta',
      index,
      delta: { type: 'signature_delta', signature: 'scripted-signature' },
    });
    await send({ type: 'content_block_stop', index });
    index++;
  }
  if (text.length) {
    await send({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    for (const piece of text)
      await send({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
    await send({ type: 'content_block_stop', index });
    index++;
  }
  for (const call of turn.toolCalls ?? []) {
    await send({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: call.id ?? ids.next('toolu_'), name: call.name, input: {} },
    });
    for (const piece of splitArguments(argumentsJson(call)))
      await send({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
    await send({ type: 'content_block_stop', index });
    index++;
  }
  const stopReason = turn.toolCalls?.length ? 'tool_use' : turn.finishReason === 'length' ? 'max_tokens' : 'end_turn';
  await send({
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: output },
  });
  await send({ type: 'message_stop' });
  w.end();
}

export function anthropicErrorBody(status: number, message: string): Record<string, unknown> {
  const type =
    status === 429
      ? 'rate_limit_error'
      : status === 529
        ? 'overloaded_error'
        : status >= 500
          ? 'api_error'
          : 'invalid_request_error';
  return { type: 'error', error: { type, message } };
}
