/** The decision a call runs under is declared beside the tools that run it (tools/sandbox-port.ts). */
export { SANDBOXED_NO_NETWORK, type SandboxDecision } from '../tools/sandbox-port';
