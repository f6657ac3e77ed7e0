/**
 * The one boundary every bridge call passes, whatever the transport: the channel must be in the contract, the
 * request is parsed strictly by its zod schema before the handler runs, and errors leave as `{code, message}`
 * only (I3, I4). Nothing thrown here or in a handler can crash the shell.
 * Check ids (I3, I4) are listed in docs/security-checks.md.
 */
import { z } from 'zod';
import {
  BridgeError,
  calls,
  type BridgeOutcome,
  type CallChannel,
  type CallSpec,
} from '../../../shared/contract/index';
import type { BridgeHandlers } from './handlers';
import { DISK_FULL_CALL_TEXT, isDiskFull } from '../db/storage-errors';

/** The contract's outcome of a call (shared/contract/define.ts): what both shells send back as data. */
export type DispatchResult = BridgeOutcome;

export function isCallChannel(channel: unknown): channel is CallChannel {
  return typeof channel === 'string' && Object.prototype.hasOwnProperty.call(calls, channel);
}

export async function dispatchCall(
  handlers: BridgeHandlers,
  channel: unknown,
  request: unknown,
  log: (message: string, error?: unknown) => void = () => {},
): Promise<DispatchResult> {
  if (!isCallChannel(channel)) {
    log(`refused unknown channel ${String(channel).slice(0, 80)}`);
    return { ok: false, error: { code: 'unknown_channel', message: 'No such call.' } };
  }
  const parsed = calls[channel].request.safeParse(request);
  if (!parsed.success) {
    log(`refused bad request on ${channel}`);
    return { ok: false, error: { code: 'bad_request', message: z.prettifyError(parsed.error).slice(0, 2_000) } };
  }
  try {
    const handler = handlers[channel] as (req: unknown) => unknown;
    const result = await handler(parsed.data);
    const spec: CallSpec = calls[channel];
    return { ok: true, result: spec.answerBuiltByHandler ? result : spec.response.parse(result) };
  } catch (error) {
    if (error instanceof BridgeError) return { ok: false, error: error.toShape() };
    if (isDiskFull(error)) return { ok: false, error: { code: 'disk_full', message: DISK_FULL_CALL_TEXT } };
    log(`handler for ${channel} failed`, error);
    return {
      ok: false,
      error: { code: 'internal', message: 'The call failed inside the app; details are in the log.' },
    };
  }
}
