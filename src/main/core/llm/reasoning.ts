/**
 * A model's reasoning setting on the wire, and the Anthropic thinking a tool-use round leaves for the next one
 * (docs/models.md "Reasoning").
 *
 * The setting goes with every request to the model in its provider's form, which its kind's descriptor gives
 * (docs/providers.md): Anthropic's `thinking` with a token budget, OpenAI's `reasoning_effort`, OpenRouter's
 * `reasoning.effort`, and `reasoning_effort` for every other OpenAI-compatible endpoint. `off` sends nothing extra.
 *
 * Anthropic (a kind whose descriptor `replaysSignedThinking`), with thinking on, refuses a round that continues a tool-use turn unless the assistant message carrying
 * the tool use starts with the thinking block it came with, signature and all. The history keeps the reasoning text
 * but not its signature, so the client keeps each such round's signed blocks in memory (`KeptThinking`, the last
 * few dozen rounds), by the round's first tool call id and the model that wrote them. A continuing round gets them
 * back; without them (the app restarted, another model answered the round before, the setting was just turned on)
 * that round goes without thinking, which Anthropic accepts.
 */
import type { AssistantModelMessage } from 'ai';
import type { ProviderKind, ReasoningLevel } from '../../../shared/contract/providers';
import { THINKING_BUDGETS } from '../../../shared/providers/anthropic';
import { providerDescriptor } from '../../../shared/providers/registry';
import { RecentMap } from '../../../shared/recent-map';
import type { ChatMessage } from './types';

export type ReasoningPart = Extract<Exclude<AssistantModelMessage['content'], string>[number], { type: 'reasoning' }>;
type ProviderOptions = NonNullable<ReasoningPart['providerOptions']>;

/** Anthropic's thinking budget per level (its descriptor's reasoning form). */
export { THINKING_BUDGETS };

/** The request's `providerOptions` for the level, in the kind's own form (its descriptor); undefined for `off`. */
export function reasoningOptions(kind: ProviderKind, level: ReasoningLevel): ProviderOptions | undefined {
  return level === 'off' ? undefined : providerDescriptor(kind).reasoning(level);
}

export interface ReasoningPlan {
  providerOptions?: ProviderOptions;
  /** Signed thinking to put back before the tool use it came with, by the key of the assistant message's first call. */
  replay?: ReadonlyMap<string, ReasoningPart[]>;
  /** Thinking was asked for but left off for this round: it continues a tool-use turn whose thinking is not kept. */
  leftOff?: boolean;
}

interface Kept {
  modelId: number;
  parts: ReasoningPart[];
}

/** Rounds whose thinking is kept: enough for a few sub-agents working at once. */
const KEPT_ROUNDS = 32;

export class KeptThinking {
  private readonly kept = new RecentMap<string, Kept>(KEPT_ROUNDS);

  /** What a round to `model` sends for its reasoning setting, given the history it continues. */
  plan(
    model: { id: number; providerKind: ProviderKind; reasoning: ReasoningLevel },
    history: readonly ChatMessage[],
  ): ReasoningPlan {
    const providerOptions = reasoningOptions(model.providerKind, model.reasoning);
    if (!providerOptions || !providerDescriptor(model.providerKind).replaysSignedThinking)
      return providerOptions ? { providerOptions } : {};
    const last = history.findLast((m) => m.role === 'assistant');
    const firstCall = last?.role === 'assistant' ? last.tool_calls?.[0] : undefined;
    if (firstCall === undefined) return { providerOptions }; // a new turn: nothing to put back
    // Kept under the id the provider gave the round's first call (`keep`); put back by the call's own key.
    const kept = this.kept.get(firstCall.providerId ?? firstCall.id);
    if (!kept || kept.modelId !== model.id) return { leftOff: true };
    return { providerOptions, replay: new Map([[firstCall.id, kept.parts]]) };
  }

  /**
   * Keeps a thinking round's blocks for the round that continues it. A round with no block, or one without its
   * signature, keeps nothing: with thinking on, Anthropic would refuse its continuation without one.
   */
  keep(firstToolCallId: string, modelId: number, collected: ThinkingCollector): void {
    const parts = collected.parts();
    if (parts?.length) this.kept.set(firstToolCallId, { modelId, parts });
  }
}

interface Block {
  text: string;
  signature?: string;
  redactedData?: string;
}

function anthropicMetadata(metadata: unknown): { signature?: unknown; redactedData?: unknown } | undefined {
  if (metadata === null || typeof metadata !== 'object') return undefined;
  const entry = (metadata as Record<string, unknown>).anthropic;
  return entry !== null && typeof entry === 'object'
    ? (entry as { signature?: unknown; redactedData?: unknown })
    : undefined;
}

/** One round's thinking blocks as the stream gives them: text by block, the signature in a delta's metadata. */
export class ThinkingCollector {
  private readonly blocks = new Map<string, Block>();

  start(id: string, metadata: unknown): void {
    const redacted = anthropicMetadata(metadata)?.redactedData;
    this.blocks.set(id, { text: '', ...(typeof redacted === 'string' ? { redactedData: redacted } : {}) });
  }

  delta(id: string, text: string, metadata: unknown): void {
    const block = this.blocks.get(id) ?? { text: '' };
    block.text += text;
    const signature = anthropicMetadata(metadata)?.signature;
    if (typeof signature === 'string') block.signature = signature;
    this.blocks.set(id, block);
  }

  /** The blocks as prompt parts, in order; null when one cannot be sent back (no signature, not redacted). */
  parts(): ReasoningPart[] | null {
    const parts: ReasoningPart[] = [];
    for (const b of this.blocks.values()) {
      if (b.signature !== undefined)
        parts.push({ type: 'reasoning', text: b.text, providerOptions: { anthropic: { signature: b.signature } } });
      else if (b.redactedData !== undefined)
        parts.push({ type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: b.redactedData } } });
      else return null;
    }
    return parts;
  }
}
