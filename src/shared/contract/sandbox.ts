/**
 * The command sandbox's calls and shapes (docs/sandbox.md): how one call runs (the decision the approval or a rule
 * gives it), the line an approval card says about it, and the Settings → Sandbox page's status.
 */
import { z } from 'zod';
import { defineCall } from './define';

/**
 * How one call runs (docs/sandbox.md "The decision"): confined by the sandbox, with or without network, or outside
 * it. Absent on a decision = sandboxed without network; running unconfined is its own decision, never a fallback.
 */
export const SandboxDecisionSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('sandboxed'), network: z.boolean() }),
  z.object({ mode: z.literal('unconfined') }),
]);
export type SandboxDecisionDto = z.infer<typeof SandboxDecisionSchema>;

/**
 * The choices a card offers besides its plain approval (docs/approval.md "The sandbox on the card"): for this call
 * only, never with a bypass, never kept as a rule.
 */
export const SANDBOX_CHOICES = ['network', 'unconfined'] as const;
export type SandboxChoice = (typeof SANDBOX_CHOICES)[number];

/**
 * What a card says of where a command runs: `sandboxed` ("runs in the sandbox: writes inside <folder>, no network"),
 * `unavailable` (why in one line, `fix` how), `unconfined` (the person chose to run commands outside it while it is
 * unavailable), `unsupported` (Windows).
 */
export const SandboxLineSchema = z.object({
  state: z.enum(['sandboxed', 'unavailable', 'unconfined', 'unsupported']),
  text: z.string(),
  fix: z.string().nullable(),
});
export type SandboxLine = z.infer<typeof SandboxLineSchema>;

/** The Settings → Sandbox page: whether it can start, why not and how to fix it, and what it confines. */
export const SandboxStatusSchema = z.object({
  state: z.enum(['ready', 'unavailable', 'unsupported']),
  /** bubblewrap (Linux), seatbelt (macOS), null when it cannot start. */
  engine: z.enum(['bubblewrap', 'seatbelt']).nullable(),
  reason: z.string().nullable(),
  fix: z.string().nullable(),
  /** What a sandboxed command may and may not do, one sentence each. */
  confines: z.array(z.string()),
});
export type SandboxStatusDto = z.infer<typeof SandboxStatusSchema>;

export const sandboxCalls = {
  /**
   * Whether the sandbox can start here (probed once) and what it confines. The person's choice while it cannot
   * start is an app setting (`sandboxUnconfinedWhenUnavailable`).
   */
  'sandbox:status': defineCall(z.object({}).strict(), SandboxStatusSchema),
} as const;
