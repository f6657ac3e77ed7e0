/**
 * A server-sent-events writer for one HTTP response: paced chunks, early end when the client goes away, and a
 * `hang()` that holds the stream open until the client aborts (or the server closes).
 */
import type { ServerResponse } from 'node:http';

export class SseWriter {
  private gone = false;
  private readonly goneWaiters: (() => void)[] = [];
  private sent = 0;

  constructor(
    private readonly res: ServerResponse,
    private readonly chunkDelayMs = 0,
    /** Destroy the socket after this many messages (scripted mid-stream failure). */
    private readonly dropAfter?: number,
  ) {
    res.on('close', () => this.markGone());
  }

  /** True once the client disconnected (aborted) or the server is shutting down. */
  get isGone(): boolean {
    return this.gone;
  }

  markGone(): void {
    if (this.gone) return;
    this.gone = true;
    for (const w of this.goneWaiters.splice(0)) w();
  }

  start(): void {
    this.res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    // Headers go out now, as a real provider's do, so the client's request resolves before the first chunk.
    this.res.flushHeaders();
  }

  /** Waits `ms`, or less if the client goes away. */
  async pause(ms: number): Promise<void> {
    if (ms <= 0 || this.gone) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.goneWaiters.push(done);
    });
  }

  /** One SSE message; `event` adds the `event:` line Anthropic uses. */
  async send(data: unknown, event?: string): Promise<void> {
    if (this.gone) return;
    await this.pause(this.chunkDelayMs);
    if (this.gone) return;
    const payload = typeof data === 'string' ? data : JSON.stringify(data);
    const text = `${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`;
    if (this.dropAfter !== undefined && ++this.sent >= this.dropAfter) {
      const socket = this.res.socket;
      this.markGone();
      // Destroy only once this message reached the socket, so the client sees it and then a cut connection.
      this.res.write(text, () => socket?.destroy());
      return;
    }
    this.res.write(text);
  }

  /** Holds the response open until the client aborts or the server closes. */
  async hang(): Promise<void> {
    if (this.gone) return;
    await new Promise<void>((resolve) => this.goneWaiters.push(resolve));
  }

  end(): void {
    if (!this.gone) this.res.end();
  }
}
