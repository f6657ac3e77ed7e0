/**
 * The viewer's calls and events (docs/viewer.md). The renderer never sends a path to fetch bytes: it asks
 * `viewer:resolve` for a file and gets an opaque, short-lived handle bound to that one file; every byte is then
 * served for the handle (`/viewer/file/<handle>` on the app's own origin). A file outside the session's working
 * directory resolves to `confirm` until the person says yes in the viewer.
 */
import { z } from 'zod';
import { defineCall, shortText } from './define';

export const ViewerKindSchema = z.enum(['markdown', 'text', 'image', 'svg', 'pdf', 'latex', 'html', 'binary']);
export type ViewerKind = z.infer<typeof ViewerKindSchema>;

/**
 * Whether the viewer offers "Open with the system app" for a file it has no view for (docs/viewer.md "Open with
 * the system app"): offered on the desktop; unavailable in the web shape; refused for programs, scripts and
 * launchers. The message says why it is not offered.
 */
export const SystemOpenSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('offered') }),
  z.object({ status: z.literal('unavailable'), message: z.string() }),
  z.object({ status: z.literal('refused'), message: z.string() }),
]);
export type SystemOpen = z.infer<typeof SystemOpenSchema>;

export const SystemOpenResultSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('opened'), path: z.string() }),
  z.object({
    status: z.literal('not_opened'),
    reason: z.enum(['unavailable', 'refused', 'failed']),
    message: z.string(),
  }),
]);
export type SystemOpenResult = z.infer<typeof SystemOpenResultSchema>;

/** A handle: what the renderer may fetch, and what it needs to pick and label a renderer. */
export const ViewerFileSchema = z.object({
  handle: z.string(),
  /** Same-origin URL of the bytes (`/viewer/file/<handle>`). */
  url: z.string(),
  name: z.string(),
  /** Relative to the working directory when inside it, absolute otherwise. */
  display: z.string(),
  absolute: z.string(),
  kind: ViewerKindSchema,
  language: z.string(),
  size: z.number(),
  mtimeMs: z.number(),
  /** Bytes the view loads at most; `size > limit` means only the first part is shown. */
  limit: z.number(),
  isOutside: z.boolean(),
  /** Only for a file with no view of its own (kind `binary`); null otherwise. */
  systemOpen: SystemOpenSchema.nullable(),
});
export type ViewerFile = z.infer<typeof ViewerFileSchema>;

export const ResolveResultSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok'), file: ViewerFileSchema }),
  /** Outside the working directory: shown only after the person confirms (then resolve again with allowOutside). */
  z.object({ status: z.literal('confirm'), absolute: z.string(), message: z.string() }),
  z.object({
    status: z.literal('error'),
    code: z.enum(['refused', 'missing', 'not_file', 'too_large', 'unreadable']),
    message: z.string(),
  }),
]);
export type ResolveResult = z.infer<typeof ResolveResultSchema>;

export const LatexResultSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok'), pdfUrl: z.string(), isCached: z.boolean(), ms: z.number() }),
  z.object({
    status: z.literal('failed'),
    error: z.object({ file: z.string().nullable(), line: z.number().nullable(), message: z.string() }),
    log: z.string(),
  }),
  z.object({ status: z.literal('unavailable'), message: z.string() }),
  z.object({ status: z.literal('timeout'), message: z.string() }),
]);
export type LatexResult = z.infer<typeof LatexResultSchema>;

/** One image of a write call (before, after, or the file now); `text` is null when it has none. */
export const FileImageSchema = z.object({ state: z.enum(['file', 'absent', 'skipped']), text: z.string().nullable() });
export type FileImage = z.infer<typeof FileImageSchema>;

export const RevertResultSchema = z.discriminatedUnion('status', [
  /** The revert runs as a `write_file` call in the session (through the approval gate): its card shows there. */
  z.object({ status: z.literal('started'), toolCallId: z.string() }),
  z.object({
    status: z.literal('conflict'),
    message: z.string(),
    before: FileImageSchema,
    after: FileImageSchema,
    current: FileImageSchema,
  }),
  z.object({ status: z.literal('unavailable'), message: z.string() }),
]);
export type RevertResult = z.infer<typeof RevertResultSchema>;

const handle = shortText(100);
const toolCallId = shortText(200);

export const viewerCalls = {
  /** Asks the viewer to open a path (a clicked tool path, a typed path): emits `open_file`. */
  'viewer:open': defineCall(
    z.object({ path: shortText(4_000), toolCallId: shortText(200).optional() }).strict(),
    z.object({ ok: z.literal(true) }),
  ),
  /**
   * Resolves a path to a handle under the read policy. Relative paths resolve against `relativeTo`'s folder (a
   * link inside an open file) or else the session's working directory.
   */
  'viewer:resolve': defineCall(
    z
      .object({
        path: shortText(4_000),
        sessionId: z.number().int().nonnegative().optional(),
        relativeTo: handle.optional(),
        allowOutside: z.boolean().optional(),
      })
      .strict(),
    ResolveResultSchema,
  ),
  /** The HTML preview's URL on its own origin (docs/viewer.md "HTML"). */
  'viewer:preview': defineCall(z.object({ handle }).strict(), z.object({ url: z.string() })),
  /** The before/after images a write call kept. */
  'viewer:diff': defineCall(
    z.object({ toolCallId }).strict(),
    z.object({ path: z.string(), language: z.string(), before: FileImageSchema, after: FileImageSchema }),
  ),
  /** Restores a write call's before-image (a gated write); `force` after a conflict was shown. */
  'viewer:revert': defineCall(z.object({ toolCallId, force: z.boolean().optional() }).strict(), RevertResultSchema),
  /** Compiles a `.tex` handle to PDF (or answers from the cache); the PDF comes as a handle URL. */
  'viewer:compileLatex': defineCall(z.object({ handle }).strict(), LatexResultSchema),
  /**
   * Hands a `binary` handle's file to the system's app for it (desktop only), after the person confirmed in the
   * viewer: a call without `confirmed: true` is refused at the boundary. The read policy runs again first.
   */
  'viewer:openWithSystem': defineCall(
    z.object({ handle, confirmed: z.literal(true) }).strict(),
    SystemOpenResultSchema,
  ),
  /** Lets go of a handle (its tab closed). */
  'viewer:release': defineCall(z.object({ handle }).strict(), z.object({ ok: z.literal(true) })),
} as const;

export const ViewerEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('open_file'), path: z.string(), tool_call_id: z.string().nullable() }),
  /** A watched handle's file changed on disk (debounced). */
  z.object({ type: z.literal('file_changed'), handle: z.string(), path: z.string() }),
]);
export type ViewerEvent = z.infer<typeof ViewerEventSchema>;
