/**
 * The HTTP transports' fetch, with the stdio framing's bound on one message (docs/mcp.md "Messages too large or too
 * deep"). The SDK reads an HTTP server's answer whole (`response.json()`) and an event stream event by event, with no
 * bound on either: a server sending gigabytes took the app's memory with it. Here a body is cut off with an error
 * once one message passes `MAX_MESSAGE_BYTES`: a JSON body as a whole; an event stream per event (the bytes since
 * the last blank line), so a stream that stays open all day with small events is never cut.
 */
import { MAX_MESSAGE_BYTES, megabytes } from './stdio-framing';

const NEWLINE = 0x0a;
const CR = 0x0d;

type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

export function boundedFetch(base: Fetch = fetch, maxBytes = MAX_MESSAGE_BYTES): Fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.body) return response;
    const isEventStream = (response.headers.get('content-type') ?? '').toLowerCase().includes('text/event-stream');
    const limited = response.body.pipeThrough(isEventStream ? eventLimiter(maxBytes) : bodyLimiter(maxBytes));
    return new Response(limited, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function tooLarge(maxBytes: number): Error {
  return new Error(`The server's message was more than the ${megabytes(maxBytes)} the app reads; it was cut off.`);
}

function bodyLimiter(maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let total = 0;
  return new TransformStream({
    transform(chunk, controller) {
      total += chunk.length;
      if (total > maxBytes) controller.error(tooLarge(maxBytes));
      else controller.enqueue(chunk);
    },
  });
}

/** Server-sent events end at a blank line (`\n\n`, or `\r\n\r\n`): no event may run past `maxBytes`. */
function eventLimiter(maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  /** Bytes since the last blank line ended, and whether the line so far (over earlier chunks) holds only `\r`s. */
  let sinceEvent = 0;
  let lineIsEmpty = true;
  return new TransformStream({
    transform(chunk, controller) {
      let from = 0;
      let eventStart = 0; // where in this chunk the event being read began
      for (let nl = chunk.indexOf(NEWLINE, from); nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
        if (lineIsEmpty && onlyCr(chunk, from, nl)) {
          // An event ends here: all of it counts, the part in earlier chunks too.
          if (sinceEvent + (nl + 1 - eventStart) > maxBytes) return controller.error(tooLarge(maxBytes));
          sinceEvent = 0;
          eventStart = nl + 1;
        }
        lineIsEmpty = true;
        from = nl + 1;
      }
      if (from < chunk.length) lineIsEmpty = lineIsEmpty && onlyCr(chunk, from, chunk.length);
      sinceEvent += chunk.length - eventStart;
      if (sinceEvent > maxBytes) controller.error(tooLarge(maxBytes));
      else controller.enqueue(chunk);
    },
  });
}

function onlyCr(chunk: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (chunk[i] !== CR) return false;
  return true;
}
