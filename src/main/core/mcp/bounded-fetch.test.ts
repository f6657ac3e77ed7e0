/**
 * The HTTP transports' bound on one message (docs/mcp.md "Messages too large or too deep"), against a real local
 * HTTP server: a JSON body past the bound is cut off with the reason; an event stream is bounded per event, so many
 * small events pass whatever their total, in any chunking and with CRLF, and one event past the bound is cut off.
 */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { boundedFetch } from './bounded-fetch';

let server: Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** Serves `pieces` as one response of `type`, each piece written on its own. */
async function serve(type: string, pieces: string[]): Promise<string> {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': type });
    for (const piece of pieces) res.write(piece);
    res.end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
}

const LIMIT = 1000;
const fetchWithin = boundedFetch(fetch, LIMIT);

describe('boundedFetch', () => {
  it('a JSON body within the bound is read as sent; past it, cut off with the reason', async () => {
    const small = JSON.stringify({ text: 'x'.repeat(900) });
    expect(await (await fetchWithin(await serve('application/json', [small]))).text()).toBe(small);
    server!.close();
    const url = await serve('application/json', ['{"text":"', 'y'.repeat(600), 'y'.repeat(600), '"}']);
    await expect((await fetchWithin(url)).text()).rejects.toThrow(
      /more than the 0\.0 MB the app reads; it was cut off/,
    );
  });

  it('an event stream passes any number of small events, split anywhere, LF or CRLF', async () => {
    for (const eol of ['\n', '\r\n']) {
      const events = Array.from(
        { length: 50 },
        (_, i) => `event: message${eol}data: ${'z'.repeat(200)} ${i}${eol}${eol}`,
      ).join('');
      const pieces = Array.from({ length: Math.ceil(events.length / 7) }, (_, i) => events.slice(i * 7, i * 7 + 7));
      expect(await (await fetchWithin(await serve('text/event-stream', pieces))).text()).toBe(events);
      server!.close();
    }
  });

  it('one event past the bound is cut off, many data lines or one', async () => {
    const many = Array.from({ length: 60 }, () => `data: ${'w'.repeat(30)}\n`).join('');
    for (const event of [`${many}\n`, `data: ${'w'.repeat(1500)}\n\n`]) {
      const url = await serve('text/event-stream', ['data: ok\n\n', event]);
      await expect((await fetchWithin(url)).text()).rejects.toThrow(/it was cut off/);
      server!.close();
    }
  });
});
