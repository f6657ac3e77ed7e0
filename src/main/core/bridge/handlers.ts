/**
 * One handler per contract call, joined from the domains. The type makes a missing or extra handler a compile
 * error; `assertHandlersMatchContract` makes it a startup error too (I1).
 * Check ids (I1) are listed in docs/security-checks.md.
 */
import { callChannels, type CallChannel, type CallResponse, type ParsedRequest } from '../../../shared/contract/index';

export type BridgeHandlers = {
  [C in CallChannel]: (request: ParsedRequest<C>) => Promise<CallResponse<C>> | CallResponse<C>;
};

export function assertHandlersMatchContract(handlers: Record<string, unknown>): void {
  const missing = callChannels.filter((c) => typeof handlers[c] !== 'function');
  const extra = Object.keys(handlers).filter((k) => !(callChannels as string[]).includes(k));
  if (missing.length || extra.length) {
    throw new Error(
      `bridge handlers do not match the contract: missing [${missing.join(', ')}], extra [${extra.join(', ')}]`,
    );
  }
}
