/**
 * The building blocks of the bridge contract. A call is a pair of zod schemas (request, response) keyed by a
 * `domain:verb` channel; an event family is one zod schema keyed by its family name. Everything that crosses the
 * bridge — Electron IPC or the web shape's WebSocket — is described here and parsed at the boundary.
 */
import { z } from 'zod';

export interface CallSpec<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  readonly request: Req;
  readonly response: Res;
}

export function defineCall<Req extends z.ZodType, Res extends z.ZodType>(request: Req, response: Res): CallSpec<Req, Res> {
  return { request, response };
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
 * Errors cross Electron's contextBridge as plain messages, so the code travels inside it: `[code] message`.
 * `bridgeErrorFromMessage` turns it back into a BridgeError on the renderer side.
 */
export function wireErrorMessage(error: BridgeErrorShape): string {
  return `[${error.code}] ${error.message}`;
}

export function bridgeErrorFromMessage(message: string): BridgeError {
  const match = /^\[([a-z_]+)\] ([\s\S]*)$/.exec(message);
  return match ? new BridgeError(match[1]!, match[2]!) : new BridgeError('unknown', message);
}
