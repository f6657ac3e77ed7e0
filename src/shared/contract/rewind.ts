/**
 * Rewind (docs/rewind.md): take a chat back to one of the person's messages, with every file the agent changed since
 * restored. The preview says what will happen; the apply is the person's own act; an interrupted rewind is finished
 * from its journal. The blob store's limits are previewed here too (what a limit would drop).
 */
import { z } from 'zod';
import { defineCall, shortText } from './define';
import { FileImageSchema } from './viewer';

const id = z.number().int().nonnegative();
const path = shortText(4_000);
const hash = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .nullable();

/** What the agent's calls did to a file after the message, first before-image to last after-image. */
export const REWIND_CHANGES = ['edited', 'created', 'deleted'] as const;
/**
 * What the rewind would do with it: `restore` (the file is as the agent left it), `conflict` (someone changed it
 * since: the person chooses), `unchanged` (already as before the message), `unavailable` (no before-image kept).
 */
export const REWIND_FILE_STATES = ['restore', 'conflict', 'unchanged', 'unavailable'] as const;

export const RewindFileSchema = z.object({
  /** The file's real path (the key the apply answers with). */
  path: z.string(),
  /** How the chat shows it (relative to the working directory). */
  shown: z.string(),
  change: z.enum(REWIND_CHANGES),
  state: z.enum(REWIND_FILE_STATES),
  /** What the file holds now, as the preview read it (null: no file); the apply refuses when it moved on since. */
  currentHash: hash,
  /** Why a file is `unavailable` or `conflict`. */
  reason: z.string().optional(),
  /** How many calls wrote it, sub-agents' included. */
  calls: z.number().int(),
  /** Whether a sub-agent's call wrote it. */
  bySubAgent: z.boolean(),
});
export type RewindFile = z.infer<typeof RewindFileSchema>;

export const RewindCommandSchema = z.object({ toolCallId: z.string(), name: z.string(), label: z.string() });

export const RewindPreviewSchema = z.object({
  sessionId: z.number(),
  messageId: z.number(),
  /** The message's text: it goes back into the composer when the chat is rewound. */
  content: z.string(),
  files: z.array(RewindFileSchema),
  /** Commands that ran after the message: their effects are not tracked and are not undone. */
  commands: z.array(RewindCommandSchema),
  /** An interrupted rewind of this session, to be finished first. */
  unfinishedRunId: z.number().nullable(),
});
export type RewindPreview = z.infer<typeof RewindPreviewSchema>;

export const REWIND_MODES = ['files_and_chat', 'files', 'chat'] as const;
export type RewindMode = (typeof REWIND_MODES)[number];

export const RewindOutcomeSchema = z.object({
  path: z.string(),
  shown: z.string(),
  /** `restored`: as before the message; `kept`: left as it is (the person's choice); `failed`: see message. */
  outcome: z.enum(['restored', 'kept', 'failed']),
  message: z.string().optional(),
});
export type RewindOutcome = z.infer<typeof RewindOutcomeSchema>;

export const RewindResultSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('done'),
    runId: z.number(),
    files: z.array(RewindOutcomeSchema),
    /** The message's text for the composer, when the chat was rewound. */
    composer: z.string().nullable(),
  }),
  /** A file moved on after the preview (or a conflict has no choice): nothing was written; preview again. */
  z.object({ status: z.literal('changed'), message: z.string() }),
]);
export type RewindResult = z.infer<typeof RewindResultSchema>;

export const RewindRunSchema = z.object({
  runId: z.number(),
  sessionId: z.number(),
  messageId: z.number(),
  mode: z.enum(REWIND_MODES),
  createdAt: z.number(),
  /** Each file's state on disk now: `restored` (as before the message), `pending` (as it was), `changed`. */
  files: z.array(z.object({ path: z.string(), shown: z.string(), state: z.enum(['restored', 'pending', 'changed']) })),
});
export type RewindRun = z.infer<typeof RewindRunSchema>;

export const StoreUsageSchema = z.object({
  usedBytes: z.number(),
  images: z.number(),
  /** What the given limits would drop at the next start. */
  drops: z.object({ images: z.number(), bytes: z.number(), newestDroppedAt: z.number().nullable() }),
});
export type StoreUsage = z.infer<typeof StoreUsageSchema>;

export const rewindCalls = {
  /** What rewinding to before `messageId` would do (read-only). */
  'rewind:preview': defineCall(z.object({ sessionId: id, messageId: id }).strict(), RewindPreviewSchema),
  /** One file's three versions: before the message, as the agent left it, now. */
  'rewind:diff': defineCall(
    z.object({ sessionId: id, messageId: id, path }).strict(),
    z.object({
      path: z.string(),
      language: z.string(),
      before: FileImageSchema,
      after: FileImageSchema,
      current: FileImageSchema,
    }),
  ),
  /**
   * The person's rewind (their click is the approval). `seen`: each file's hash as the preview showed it; `choices`:
   * for every conflict, restore it or keep it as it is.
   */
  'rewind:apply': defineCall(
    z
      .object({
        sessionId: id,
        messageId: id,
        mode: z.enum(REWIND_MODES),
        seen: z.array(z.object({ path, hash }).strict()).max(100_000),
        choices: z
          .array(z.object({ path, choice: z.enum(['restore', 'keep']) }).strict())
          .max(100_000)
          .optional(),
      })
      .strict(),
    RewindResultSchema,
  ),
  /** Rewinds a crash interrupted, with each file's state on disk. */
  'rewind:unfinished': defineCall(z.object({}).strict(), z.object({ runs: z.array(RewindRunSchema) })),
  /** Finishes an interrupted rewind from its journal. */
  'rewind:resume': defineCall(z.object({ runId: id }).strict(), RewindResultSchema),
  /** The blob store's size and what the given limits would drop (Settings → Checkpoints). */
  'rewind:storeUsage': defineCall(
    z.object({ maxMb: z.number().int().min(1).max(1_000_000), keepDays: z.number().int().min(1).max(36_500) }).strict(),
    StoreUsageSchema,
  ),
};

/** A rewind finished (in this window or another): the chat reloads. */
export const RewindEventSchema = z.object({
  type: z.literal('rewound'),
  sessionId: z.number(),
  runId: z.number(),
  mode: z.enum(REWIND_MODES),
});
