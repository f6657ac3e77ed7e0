/**
 * The building blocks of the bridge contract. A call is a pair of zod schemas (request, response) keyed by a
 * `domain:verb` channel; an event family is one zod schema keyed by its family name. Everything that crosses the
 * bridge — Electron IPC or the web shape's WebSocket — is described here and parsed at the boundary.
 */
import { z } from 'zod';

export interface CallSpec<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  readonly request: Req;
  readonly response: Res;
  /**
   * The handler builds every field of its answer itself (no stored row or outside value passes through as is), so
   * the boundary does not copy the answer through the response schema: on a hot read (a history page) that copy
   * was a third of the call's allocation. Its tests parse the handler's real answers with the schema instead
   * (docs/architecture.md "Layers": the contract). Requests are parsed strictly whatever this says.
   */
  readonly answerBuiltByHandler?: boolean;
}

export function defineCall<Req extends z.ZodType, Res extends z.ZodType>(
  request: Req,
  response: Res,
  options: { answerBuiltByHandler?: boolean } = {},
): CallSpec<Req, Res> {
  return options.answerBuiltByHandler ? { request, response, answerBuiltByHandler: true } : { request, response };
}

/** Channels are `domain:verb`, lower camel case on both sides (`approval:listRules`). */
export const CHANNEL_PATTERN = /^[a-z][a-zA-Z]*:[a-z][a-zA-Z]*$/;

export function splitChannel(channel: string): [domain: string, verb: string] {
  if (!CHANNEL_PATTERN.test(channel)) throw new Error(`bad channel name: ${channel}`);
  const [domain, verb] = channel.split(':') as [string, string];
  return [domain, verb];
}

/** An error that crosses the bridge: a stable code and a message a person can read. Never a stack or a secret. */
export const BridgeErrorSchema = z.object({ code: z.string(), message: z.string() });
export type BridgeErrorShape = z.infer<typeof BridgeErrorSchema>;

export class BridgeError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeError';
  }
  toShape(): BridgeErrorShape {
    return { code: this.code, message: this.message };
  }
}

/** Bounded strings everywhere on the boundary: an oversized payload is refused before any handler runs. */
export const shortText = (max = 1_000) => z.string().max(max);
export const longText = (max = 2_000_000) => z.string().max(max);
export const id = z.number().int().nonnegative();

/**
 * What one call answers across a bridge: its result, or a BridgeError's code and message. Plain data, so it crosses
 * Electron's contextBridge whole (a thrown Error would arrive with its message only) and the WebSocket alike.
 */
export const BridgeOutcomeSchema = z.union([
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({ ok: z.literal(false), error: BridgeErrorSchema }),
]);
export type BridgeOutcome = { ok: true; result: unknown } | { ok: false; error: BridgeErrorShape };

/** The result of an outcome, or its BridgeError thrown with the code it was sent with. */
export function unwrapOutcome(outcome: unknown): unknown {
  const parsed = BridgeOutcomeSchema.safeParse(outcome);
  if (!parsed.success) throw new BridgeError('bad_response', 'The app answered in a shape the contract does not know.');
  if (parsed.data.ok) return parsed.data.result;
  throw new BridgeError(parsed.data.error.code, parsed.data.error.message);
}
