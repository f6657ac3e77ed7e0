/**
 * The renderer's side of the bridge boundary, the same for both shapes: every event is parsed with its family's
 * schema from the contract before any store sees it (a malformed event is logged and dropped, never half-applied),
 * and a failed call rejects with a `BridgeError` that keeps its code. On desktop each call answers its outcome as
 * data (the preload never throws: Electron's contextBridge would keep only an Error's message), unwrapped here.
 */
import { buildSkaldApi, type ApiTransport, type PreloadApi, type SkaldApi } from '../../../shared/contract/api';
import { splitChannel, unwrapOutcome } from '../../../shared/contract/define';
import { events, type EventFamily } from '../../../shared/contract/index';

export function parseEvent(family: EventFamily, payload: unknown): unknown {
  const parsed = events[family].safeParse(payload);
  if (parsed.success) return parsed.data;
  console.error(`[skald] dropped a malformed ${family} event`, parsed.error.issues);
  return undefined;
}

/** Wraps a transport so its events are parsed at the boundary. */
export function parsedTransport(transport: ApiTransport): ApiTransport {
  return {
    invoke: (channel, request) => transport.invoke(channel, request),
    subscribe: (family, listener) =>
      transport.subscribe(family, (payload) => {
        const event = parseEvent(family, payload);
        if (event !== undefined) listener(event);
      }),
  };
}

/** The renderer's API over the preload's `window.skald` (desktop): outcomes unwrapped (codes kept), events parsed. */
export function fromPreload(exposed: PreloadApi): SkaldApi {
  const byChannel = exposed as unknown as Record<string, Record<string, (request: unknown) => Promise<unknown>>>;
  return buildSkaldApi(
    parsedTransport({
      async invoke(channel, request) {
        const [domain, verb] = splitChannel(channel);
        return unwrapOutcome(await byChannel[domain]![verb]!(request));
      },
      subscribe: (family, listener) => exposed.on[family](listener as never),
    }),
  );
}
