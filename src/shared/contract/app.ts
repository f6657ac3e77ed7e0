/** App-level calls: identity of the running shape and a ping that round-trips a call and an event. */
import { z } from 'zod';
import { defineCall, shortText } from './define';

export const ThemeChoiceSchema = z.enum(['system', 'light', 'dark']);
export const AppSettingsSchema = z.object({
  /** Absolute; null = the workspace. New sessions start here. */
  defaultWorkingDirectory: z.string().nullable(),
  /** The permission group new sessions are judged by. */
  newSessionGroup: z.string(),
  theme: ThemeChoiceSchema,
  /** How much before/after history the viewer keeps for Diff and Revert; pruned when the app starts. */
  diffHistory: z.object({ maxMb: z.number(), keepDays: z.number() }),
  /** The person's standing instructions to the model (docs/chat-ui.md "Your instructions"); '' = none. */
  instructions: z.string(),
  /**
   * While the command sandbox cannot start, run commands outside it (every card and result says so) instead of
   * refusing them (docs/sandbox.md "When it cannot start"). Off by default: nothing silently falls back.
   */
  sandboxUnconfinedWhenUnavailable: z.boolean(),
});

/** The most the person's instructions may hold: about 2,000 tokens of every request. */
export const MAX_INSTRUCTIONS_CHARS = 8_000;
export type AppSettingsDto = z.infer<typeof AppSettingsSchema>;

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
  'app:getSettings': defineCall(z.object({}).strict(), z.object({ settings: AppSettingsSchema })),
  /** Validates every given field (an existing directory outside the data folder, an existing group), then writes all. */
  'app:setSettings': defineCall(
    z
      .object({
        defaultWorkingDirectory: shortText(4_000).min(1).nullable().optional(),
        newSessionGroup: z.string().min(1).max(64).optional(),
        theme: ThemeChoiceSchema.optional(),
        diffHistory: z
          .object({ maxMb: z.number().int().min(16).max(1_000_000), keepDays: z.number().int().min(1).max(3650) })
          .strict()
          .optional(),
        instructions: z.string().max(MAX_INSTRUCTIONS_CHARS).optional(),
        sandboxUnconfinedWhenUnavailable: z.boolean().optional(),
      })
      .strict(),
    z.object({ settings: AppSettingsSchema }),
  ),
  'app:ping': defineCall(z.object({ text: shortText() }).strict(), z.object({ text: z.string(), at: z.number() })),
} as const;

export const AppEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pong'), text: z.string(), at: z.number() }),
  z.object({ type: z.literal('notice'), level: z.enum(['info', 'warn', 'error']), message: z.string() }),
]);
export type AppEvent = z.infer<typeof AppEventSchema>;
