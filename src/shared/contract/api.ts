/**
 * Builds the `window.skald` object from the contract: one function per call (grouped by domain) and one subscribe
 * function per event family under `on`. The preload (IPC) and the web client (WebSocket) both use it, so neither
 * can drift from the contract and neither exposes a generic invoke/on/send.
 * Check ids (E2) are listed in docs/security-checks.md.
 */
import {
  callChannels,
  eventFamilies,
  splitChannel,
  type CallChannel,
  type CallRequest,
  type CallResponse,
  type EventFamily,
  type EventPayload,
} from './index';
import type { BridgeOutcome } from './define';

type DomainOf<C extends string> = C extends `${infer D}:${string}` ? D : never;
type VerbOf<C extends string> = C extends `${string}:${infer V}` ? V : never;

export type SkaldApi = {
  [D in DomainOf<CallChannel>]: {
    [C in CallChannel as DomainOf<C> extends D ? VerbOf<C> : never]: (
      request: CallRequest<C>,
    ) => Promise<CallResponse<C>>;
  };
} & {
  on: { [F in EventFamily]: (listener: (payload: EventPayload<F>) => void) => () => void };
};

/**
 * What the desktop preload exposes as `window.skaldBridge`: the same members, but each call answers its `BridgeOutcome`
 * as data instead of throwing, because Electron's contextBridge would pass a thrown error's message only. The
 * renderer's boundary unwraps it (renderer/src/bridge/boundary.ts), so the error keeps its code.
 */
export type PreloadApi = {
  [D in Exclude<keyof SkaldApi, 'on'>]: { [V in keyof SkaldApi[D]]: (request: unknown) => Promise<BridgeOutcome> };
} & { on: SkaldApi['on'] };

export interface ApiTransport {
  invoke(channel: CallChannel, request: unknown): Promise<unknown>;
  subscribe(family: EventFamily, listener: (payload: unknown) => void): () => void;
}

export function buildSkaldApi(transport: ApiTransport): SkaldApi {
  const api: Record<string, Record<string, unknown>> = { on: {} };
  for (const channel of callChannels) {
    const [domain, verb] = splitChannel(channel);
    api[domain] ??= {};
    api[domain][verb] = (request: unknown) => transport.invoke(channel, request ?? {});
  }
  for (const family of eventFamilies) {
    api.on![family] = (listener: (payload: unknown) => void) => transport.subscribe(family, listener);
  }
  // The shape is exactly SkaldApi by construction from the same keys; TS cannot follow the loop.
  return api as unknown as SkaldApi;
}

/** The exact set of top-level keys `window.skald` has: used by the E2 check. */
export function exposedKeys(): string[] {
  return [...new Set(callChannels.map((c) => splitChannel(c)[0])), 'on'].sort();
}
