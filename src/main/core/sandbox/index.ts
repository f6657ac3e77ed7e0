/**
 * The OS sandbox approved commands run in (docs/sandbox.md). A leaf of the core: it imports nothing above the tools'
 * policy (tools/_policy), and what it needs from above (the guards' credential stores) is passed in.
 */
export { SANDBOXED_NO_NETWORK, type SandboxDecision } from './decision';
export type { CredentialStores, SandboxScope } from './plan';
export { Sandbox, type Launch, type SandboxOptions } from './sandbox';
export type { SandboxStatus } from './status';
