/** The viewer's open-file request: a clicked tool path or `show_file_to_user` (SPEC.md §4). */
import { z } from 'zod';
import { defineCall, shortText } from './define';

export const viewerCalls = {
  'viewer:open': defineCall(z.object({ path: shortText(4_000), toolCallId: shortText(200).optional() }).strict(), z.object({ ok: z.literal(true) })),
} as const;

export const ViewerEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('open_file'), path: z.string(), tool_call_id: z.string().nullable() }),
]);
export type ViewerEvent = z.infer<typeof ViewerEventSchema>;
