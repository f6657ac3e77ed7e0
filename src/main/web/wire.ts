/**
 * The web shape's WebSocket frames. The client sends calls; the server answers each with a result frame and
 * pushes events. Frames are parsed with zod like everything else on the boundary.
 */
import { z } from 'zod';
import { BridgeErrorSchema } from '../../shared/contract/index';

export const ClientFrameSchema = z
  .object({ type: z.literal('call'), id: z.number().int().nonnegative(), channel: z.string().max(100), request: z.unknown() })
  .strict();

export const ServerFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('result'), id: z.number().nullable(), ok: z.literal(true), result: z.unknown() }),
  z.object({ type: z.literal('result'), id: z.number().nullable(), ok: z.literal(false), error: BridgeErrorSchema }),
  z.object({ type: z.literal('event'), family: z.string(), payload: z.unknown() }),
]);
export type ServerFrame = z.infer<typeof ServerFrameSchema>;
