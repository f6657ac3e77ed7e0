/**
 * The chat's calls (docs/chat-ui.md): the sessions and their history, sending a message (text and images), Regenerate,
 * Edit, Retry and Stop, a crash-interrupted call's re-run, a session's model, working directory and scratchpad, a
 * sub-agent's card, and search. The shapes they answer with are chat.ts's.
 */
import { z } from 'zod';
import {
  CHAT_IMAGE_TYPES,
  MAX_IMAGE_BASE64_CHARS,
  MAX_IMAGES_PER_MESSAGE,
  MAX_PICKED_PDF_BASE64_CHARS,
} from '../chat-images';
import {
  ChatSearchHitSchema,
  HistoryMessageSchema,
  HistoryPageSchema,
  MAX_MESSAGE_CHARS,
  ScratchpadNoteSchema,
  SessionSummarySchema,
  SubAgentStackSchema,
} from './chat';
import { defineCall, id, longText, shortText } from './define';

const sessionId = id;

export const chatCalls = {
  /**
   * `withNewestHistory`: the answer also carries the newest page of the first session listed (what the first screen
   * opens), so a window's start needs one round trip, not two (docs/performance.md "Performance targets").
   */
  'chat:listSessions': defineCall(
    z.object({ withNewestHistory: z.boolean().optional() }).strict(),
    z.object({
      sessions: z.array(SessionSummarySchema),
      newestHistory: HistoryPageSchema.extend({ sessionId: z.number() }).optional(),
    }),
    { answerBuiltByHandler: true },
  ),
  'chat:createSession': defineCall(
    z.object({ title: shortText(200).optional() }).strict(),
    z.object({ id: z.number() }),
  ),
  'chat:renameSession': defineCall(
    z.object({ sessionId, title: shortText(200) }).strict(),
    z.object({ ok: z.literal(true) }),
  ),
  /**
   * Deletes a chat with everything in it (messages, tool calls, sub-agents' rows, notes, summaries); refused while its
   * turn runs. The approval audit keeps its decisions (docs/chat-ui.md "Sessions"). Every window hears `session_deleted`.
   */
  /** Pins a chat to the top of the list, or unpins it (docs/chat-ui.md "Sessions"). */
  'chat:pinSession': defineCall(
    z.object({ sessionId, pinned: z.boolean() }).strict(),
    z.object({ ok: z.literal(true) }),
  ),
  'chat:deleteSession': defineCall(z.object({ sessionId }).strict(), z.object({ deleted: z.literal(true) })),
  'chat:history': defineCall(
    z.object({ sessionId, beforeId: id.optional(), limit: z.number().int().min(1).max(10_000).optional() }).strict(),
    HistoryPageSchema,
    { answerBuiltByHandler: true },
  ),
  /** Persists and echoes the message first (`user_message`), then runs or queues the turn. Slash commands too. */
  'chat:send': defineCall(
    z
      .object({
        sessionId,
        content: longText(MAX_MESSAGE_CHARS),
        /** Base64 of each image's bytes; the core reads their type from the bytes (src/shared/chat-images.ts). */
        images: z
          .array(z.object({ name: shortText(200), data: z.string().max(MAX_IMAGE_BASE64_CHARS) }).strict())
          .max(MAX_IMAGES_PER_MESSAGE)
          .optional(),
      })
      .strict()
      .refine((r) => r.content.length > 0 || (r.images?.length ?? 0) > 0, 'A message needs text or an image.'),
    z.object({ messageId: z.number().nullable() }),
  ),
  /**
   * Regenerate and Edit (docs/chat-ui.md "Regenerate and Edit"): the newest exchange is replaced (kept, out of the
   * model's context) and asked again; refused while a turn runs (`busy`) and where a call of it may have changed
   * something (`bad_request`, saying which).
   */
  'chat:regenerate': defineCall(z.object({ sessionId }).strict(), z.object({ started: z.literal(true) })),
  'chat:editMessage': defineCall(
    z.object({ sessionId, messageId: id, content: longText(MAX_MESSAGE_CHARS) }).strict(),
    z.object({ messageId: z.number().nullable() }),
  ),
  /** The bytes of one image of a message (base64), for the chat to show. */
  'chat:image': defineCall(
    z.object({ id }).strict(),
    z.object({ media_type: z.enum(CHAT_IMAGE_TYPES), data: z.string() }),
  ),
  /** A PDF put in the message box: its text, page by page, to go into the box (docs/chat-ui.md "Images in a message"). */
  'chat:pdfText': defineCall(
    z.object({ name: shortText(500), data: z.string().max(MAX_PICKED_PDF_BASE64_CHARS) }).strict(),
    z.object({ pages: z.number(), text: z.string() }),
  ),
  'chat:stop': defineCall(z.object({ sessionId }).strict(), z.object({ stopped: z.boolean() })),
  /**
   * Retry / Continue: a turn on the history as it stands, no new message, where the chat waits for the model
   * (src/shared/awaiting-answer.ts); `busy` while a turn runs, `bad_request` where nothing waits.
   */
  'chat:retry': defineCall(z.object({ sessionId }).strict(), z.object({ started: z.literal(true) })),
  /**
   * Re-runs a side-effecting call that a crash interrupted, only after the user said so: a write or a command may
   * have half happened (docs/architecture.md "Crash and resume").
   */
  'chat:rerunTool': defineCall(
    z.object({ sessionId, toolCallId: shortText(200) }).strict(),
    z.object({ started: z.boolean() }),
  ),
  'chat:setModel': defineCall(
    z.object({ sessionId, model: shortText(300).min(1) }).strict(),
    z.object({ model: z.string().nullable(), message: z.string() }),
  ),
  /** The child stack a sub-agent call started (null if none), with its messages: the sub-agent card's content. */
  'chat:subAgent': defineCall(
    z.object({ sessionId, parentToolCallId: shortText(200) }).strict(),
    z.object({ stack: SubAgentStackSchema.nullable(), messages: z.array(HistoryMessageSchema) }),
  ),
  'chat:scratchpad': defineCall(z.object({ sessionId }).strict(), z.object({ notes: z.array(ScratchpadNoteSchema) })),
  /** The person writes a note too (same rules as the agents: same key replaces, empty value deletes). */
  'chat:setScratchpadNote': defineCall(
    z.object({ sessionId, key: shortText(200).min(1), value: longText(20_000) }).strict(),
    z.object({ notes: z.array(ScratchpadNoteSchema) }),
  ),
  'chat:setWorkingDirectory': defineCall(
    z.object({ sessionId, path: shortText(4_000) }).strict(),
    z.object({ working_directory: z.string() }),
  ),
  /** The working directory's AGENTS.md as the model gets it (docs/chat-ui.md "Project instructions"); `path` null: none. */
  'chat:projectInstructions': defineCall(
    z.object({ sessionId }).strict(),
    z.object({ path: z.string().nullable(), included: z.boolean(), note: z.string().nullable() }),
  ),
  /**
   * What was said in the chats (docs/ui.md "Searching chats"): plain text, case-insensitive, newest first, at most 50.
   * A search that a newer one replaced before it ended fails with code `superseded`.
   */
  'chat:search': defineCall(
    z.object({ query: shortText(200).min(1) }).strict(),
    z.object({ hits: z.array(ChatSearchHitSchema) }),
  ),
} as const;
