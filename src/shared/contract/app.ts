/** App-level calls: identity of the running shape and a ping that round-trips a call and an event. */
import { z } from 'zod';
import { defineCall, shortText } from './define';

export const appCalls = {
  'app:info': defineCall(
    z.object({}).strict(),
    z.object({
      version: z.string(),
      shape: z.enum(['desktop', 'web']),
      dataDir: z.string(),
      workspaceDir: z.string(),
    }),
  ),
  /** Answers with the same text and emits an `app` event `pong` carrying it: the bridge's own smoke test. */
  'app:ping': defineCall(z.object({ text: shortText() }).strict(), z.object({ text: z.string(), at: z.number() })),
} as const;

export const AppEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pong'), text: z.string(), at: z.number() }),
  z.object({ type: z.literal('notice'), level: z.enum(['info', 'warn', 'error']), message: z.string() }),
]);
export type AppEvent = z.infer<typeof AppEventSchema>;
