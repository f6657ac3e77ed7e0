/**
 * A session's run context (docs/approval.md "Evaluation order", the run-context fast path): its permission group, extra
 * system prompts, the folders the file fast-path may auto-allow, and its working directory (absent = the workspace).
 */
import { z } from 'zod';

export const RunContextSchema = z.object({
  security_group: z.string().max(100).optional(),
  system_prompt: z.array(z.string().max(20_000)).max(20).default([]),
  allow_fs_writes: z.array(z.string().max(4_000)).max(100).default([]),
  allow_fs_reads: z.array(z.string().max(4_000)).max(100).default([]),
  working_directory: z.string().max(4_000).optional(),
});
export type RunContext = z.infer<typeof RunContextSchema>;
