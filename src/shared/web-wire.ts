/**
 * The web shape's WebSocket frames, shared by the server (src/main/web) and the renderer's web client. The client
 * sends calls; the server answers each with a result frame and pushes events. Both ends parse frames with zod.
 */
import { z } from 'zod';
import { BridgeErrorSchema } from './contract/define';

export const ClientFrameSchema = z
  .object({
    type: z.literal('call'),
    id: z.number().int().nonnegative(),
    channel: z.string().max(100),
    request: z.unknown(),
  })
  .strict();

// Two result shapes share `type: 'result'`, so this is a plain union (a discriminated one needs unique values).
// Events come first: a streaming reply sends thousands a second, and a union tries its options in order.
export const ServerFrameSchema = z.union([
  z.object({ type: z.literal('event'), family: z.string(), payload: z.unknown() }),
  z.object({ type: z.literal('result'), id: z.number().nullable(), ok: z.literal(true), result: z.unknown() }),
  z.object({ type: z.literal('result'), id: z.number().nullable(), ok: z.literal(false), error: BridgeErrorSchema }),
]);
export type ServerFrame = z.infer<typeof ServerFrameSchema>;
