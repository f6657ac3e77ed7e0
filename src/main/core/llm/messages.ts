/**
 * Our OpenAI-shape history → AI SDK ModelMessages, in the message shape of the kind's descriptor (docs/providers.md:
 * `anthropic` or `openai`). The rules keep every request valid for every provider:
 * - leading system messages become the `system` option; a later one stays in place for OpenAI-shape providers
 *   and joins `system` for Anthropic (which accepts system text only up front);
 * - each assistant tool call is followed, at once, by its result: taken from the history's `tool` message with
 *   that id wherever it sits, or, when there is none, a synthesized "interrupted" error result — a call without a
 *   result would make the provider refuse the whole request. The id is the app's own key of the call (its row's):
 *   a provider hands out the same id again (a restarted local server, some gateways), so a result is never matched
 *   by the provider's id, which is only sent back (`wireIds`), made unique within the request: Anthropic refuses a
 *   request whose tool_use ids repeat, and an OpenAI-shape server pairs results by id;
 * - `tool` messages answering no known call are dropped, as are empty assistant messages;
 * - a person's images go as image parts after the message's text;
 * - a tool's images (read_file on an image file) go in its result for Anthropic, whose tool results hold images; the
 *   OpenAI-shape wires take text only in a tool message, so there the images follow the round's results in a user
 *   message that says which call returned them (docs/chat-ui.md "Images a tool returns");
 * - arguments the session refused as a call (not a JSON object, or nested too deep: `parseToolArguments`) are sent
 *   as `{}` (the tool result already told the model they were bad);
 * - kept signed thinking (`replay`, by the message's first call id) goes first in the assistant message it came with
 *   (docs/models.md "Reasoning").
 */
import type { AssistantModelMessage, ModelMessage, ToolModelMessage, UserModelMessage } from 'ai';
import type { ProviderKind } from '../../../shared/contract/providers';
import { providerDescriptor } from '../../../shared/providers/registry';
import { parseToolArguments } from '../../../shared/tool-arguments';
import type { ReasoningPart } from './reasoning';
import type { ChatMessage, ChatToolCall } from './types';

export const INTERRUPTED_TOOL_RESULT =
  'Error: this call was interrupted before it returned a result. Check the current state (files, processes) before retrying it.';

export interface ConvertedPrompt {
  system: string | undefined;
  messages: ModelMessage[];
}

type UserParts = Exclude<UserModelMessage['content'], string>;

const base64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

function argumentsOrEmpty(raw: string): Record<string, unknown> {
  const parsed = parseToolArguments(raw);
  return parsed.ok ? parsed.args : {};
}

/**
 * The ids a request sends for its calls, in order (`ids`: each call's provider id, or its key without one): the
 * provider's own while no earlier call of the request has it; else one of the same length and characters but its
 * last ones (`call_1` → `call_2`, a 9-character Mistral id stays 9 alphanumerics), unused by any call of the request.
 */
export function wireIds(ids: readonly string[]): string[] {
  const all = new Set(ids);
  const sent = new Set<string>();
  return ids.map((id, i) => {
    let out = id;
    for (let n = 1; out === '' || sent.has(out); n++) {
      const tail = n.toString(36);
      const candidate =
        id.length > tail.length + 2 ? id.slice(0, id.length - tail.length) + tail : `call_${i + 1}_${n}`;
      if (!all.has(candidate) && !sent.has(candidate)) out = candidate;
    }
    sent.add(out);
    return out;
  });
}

export function toModelMessages(
  history: readonly ChatMessage[],
  kind: ProviderKind,
  replay?: ReadonlyMap<string, ReasoningPart[]>,
): ConvertedPrompt {
  // Results by the call's own key: the first result of a key answers it (a key is never reused).
  const anthropicShape = providerDescriptor(kind).messages === 'anthropic';
  const results = new Map<string, Extract<ChatMessage, { role: 'tool' }>>();
  for (const m of history) if (m.role === 'tool' && !results.has(m.tool_call_id)) results.set(m.tool_call_id, m);
  const allCalls = history.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []));
  const sentIds = wireIds(allCalls.map((c) => c.providerId ?? c.id));
  const wire = new Map<ChatToolCall, string>(allCalls.map((c, i) => [c, sentIds[i]!]));
  /** The user message carrying a round's tool images (OpenAI shape): a person's message right after it joins it. */
  let carrier: UserModelMessage | null = null;

  const system: string[] = [];
  const messages: ModelMessage[] = [];
  for (const m of history) {
    switch (m.role) {
      case 'system':
        if (messages.length === 0 || anthropicShape) system.push(m.content);
        else messages.push({ role: 'system', content: m.content });
        break;
      case 'user': {
        // A person's images follow the text as image parts (docs/chat-ui.md "Images in a message").
        const parts: UserParts = m.content ? [{ type: 'text', text: m.content }] : [];
        for (const image of m.images ?? [])
          parts.push({ type: 'image', image: image.data, mediaType: image.mediaType });
        if (carrier && messages.at(-1) === carrier) (carrier.content as UserParts).push(...parts);
        else messages.push(m.images?.length ? { role: 'user', content: parts } : { role: 'user', content: m.content });
        break;
      }
      case 'tool':
        break; // placed right after its call below
      case 'assistant': {
        const calls = m.tool_calls ?? [];
        const content: AssistantModelMessage['content'] = [...((calls[0] && replay?.get(calls[0].id)) ?? [])];
        if (m.content) content.push({ type: 'text', text: m.content });
        for (const c of calls)
          content.push({
            type: 'tool-call',
            toolCallId: wire.get(c)!,
            toolName: c.name,
            input: argumentsOrEmpty(c.arguments),
          });
        if (content.length === 0) break;
        messages.push({ role: 'assistant', content });
        if (calls.length) {
          const shown: UserParts = [];
          const tool: ToolModelMessage = {
            role: 'tool',
            content: calls.map((c) => {
              const result = results.get(c.id);
              const text = result?.content ?? INTERRUPTED_TOOL_RESULT;
              const images = result?.images ?? [];
              if (images.length && !anthropicShape) {
                shown.push({
                  type: 'text',
                  text: `The ${images.length === 1 ? 'image' : `${images.length} images`} returned by ${c.name} (call ${wire.get(c)}):`,
                });
                for (const image of images)
                  shown.push({ type: 'image', image: image.data, mediaType: image.mediaType });
              }
              return {
                type: 'tool-result' as const,
                toolCallId: wire.get(c)!,
                toolName: c.name,
                output:
                  images.length && anthropicShape
                    ? {
                        type: 'content' as const,
                        value: [
                          { type: 'text' as const, text },
                          ...images.map((image) => ({
                            type: 'image-data' as const,
                            data: base64(image.data),
                            mediaType: image.mediaType,
                          })),
                        ],
                      }
                    : { type: 'text' as const, value: text },
              };
            }),
          };
          messages.push(tool);
          if (shown.length) messages.push((carrier = { role: 'user', content: shown }));
        }
        break;
      }
    }
  }
  return { system: system.length ? system.join('\n\n') : undefined, messages };
}
