import type { SandboxDecisionDto } from '../../../shared/contract/sandbox';

/**
 * How one call runs (docs/sandbox.md "The decision"): confined by the sandbox, with or without network, or outside it.
 * The gate's decision (an allow rule's network grant, the person's choice on a card; never a bypass) carries it to the run; a run that is given none is
 * sandboxed without network. Running unconfined is its own decision, never a fallback: a bypass does not lift the
 * sandbox, and a sandbox that cannot start fails the call instead of running it with the person's full rights.
 */
export type SandboxDecision = SandboxDecisionDto;

/** What a run gets when nothing decided otherwise: writes only in the working folder, no network. */
export const SANDBOXED_NO_NETWORK: SandboxDecision = Object.freeze({ mode: 'sandboxed', network: false });
