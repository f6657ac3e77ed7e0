/**
 * Newline-delimited JSON-RPC read from a stdio server (docs/mcp.md "Messages too large or too deep"), in place of
 * the SDK's `ReadBuffer`, which joins every chunk onto the whole message so far (a 9 MB answer copied about 670 MB)
 * and, past its 10 MB cap, drops the message silently: the call that asked for it then waited for its timeout, two
 * minutes, to fail without saying why.
 *
 * Here chunks are kept as they come and joined once per message; a message over `MAX_MESSAGE_BYTES`, or nesting
 * deeper than `MAX_MESSAGE_DEPTH`, is not read. Its bytes are skipped (only a head and a tail kept) and, when it is
 * an answer whose id can be found at its top level, it becomes an error answer to that id: the call fails at once,
 * saying why. Anything else that cannot be read is reported as the framing's error, as before.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { nestedDeeperThan } from '../../../shared/tool-arguments';

/** Largest message read: a screenshot of a large screen, as base64, with room to spare (the SDK's own cap is 10 MB). */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
/** Deepest nesting read: the SDK's schemas and our results recurse over a message, and a few thousand levels overflow. */
export const MAX_MESSAGE_DEPTH = 512;
/** What is kept of a skipped message's start and end, to find its id. */
const EDGE_BYTES = 4096;
const NEWLINE = 0x0a;
/** The JSON-RPC code the SDK uses for an internal error: the call fails with our message. */
const INTERNAL_ERROR = -32603;

/** The SDK's check of a parsed message's shape (`JSONRPCMessageSchema.parse`). */
export type Parse = (value: unknown) => JSONRPCMessage;

export class MessageFramer {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Set while skipping a message too large to read: its first bytes and its latest. */
  private skipping: { head: Buffer; tail: Buffer; size: number } | null = null;

  constructor(
    private readonly parse: Parse,
    private readonly limits = { maxBytes: MAX_MESSAGE_BYTES, maxDepth: MAX_MESSAGE_DEPTH },
  ) {}

  /** Reads what `chunk` completes: each message, or the error for one that cannot be read. */
  push(chunk: Buffer, onMessage: (message: JSONRPCMessage) => void, onError: (error: Error) => void): void {
    // A handler that throws is reported like a message that cannot be read; the chunk's other messages still count.
    const deliver = (message: JSONRPCMessage) => {
      try {
        onMessage(message);
      } catch (error) {
        onError(error as Error);
      }
    };
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE, start); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      this.take(chunk.subarray(start, end));
      this.finish(deliver, onError);
      start = end + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
    this.skipping = null;
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipping) {
      this.skipping.size += piece.length;
      this.skipping.tail = lastBytes(Buffer.concat([this.skipping.tail, piece]), EDGE_BYTES);
      return;
    }
    this.chunks.push(piece);
    this.size += piece.length;
    if (this.size > this.limits.maxBytes) {
      const whole = Buffer.concat(this.chunks);
      this.skipping = {
        head: Buffer.from(whole.subarray(0, EDGE_BYTES)),
        tail: Buffer.from(lastBytes(whole, EDGE_BYTES)),
        size: this.size,
      };
      this.chunks = [];
      this.size = 0;
    }
  }

  private finish(onMessage: (message: JSONRPCMessage) => void, onError: (error: Error) => void): void {
    const skipped = this.skipping;
    if (skipped) {
      this.skipping = null;
      const why = `The server's message was ${megabytes(skipped.size)}, more than the ${megabytes(this.limits.maxBytes)} the app reads`;
      return this.refuse(skipped.head.toString('utf8'), skipped.tail.toString('utf8'), why, onMessage, onError);
    }
    const line = (this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks))
      .toString('utf8')
      .replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (line.trim() === '') return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      return onError(error as Error);
    }
    if (nestedDeeperThan(raw, this.limits.maxDepth)) {
      const why = `The server's message nests objects or arrays more than ${this.limits.maxDepth} levels deep, more than the app reads`;
      return this.refuse(line.slice(0, EDGE_BYTES), line.slice(-EDGE_BYTES), why, onMessage, onError);
    }
    let message: JSONRPCMessage;
    try {
      message = this.parse(raw);
    } catch (error) {
      return onError(error as Error);
    }
    onMessage(message);
  }

  /** An answer becomes an error answer to its id; anything else (a request, a notification, no id found) an error. */
  private refuse(
    head: string,
    tail: string,
    why: string,
    onMessage: (message: JSONRPCMessage) => void,
    onError: (error: Error) => void,
  ): void {
    const id = answerId(head, tail);
    if (id === null) return onError(new Error(`${why}; it was skipped.`));
    onMessage({ jsonrpc: '2.0', id, error: { code: INTERNAL_ERROR, message: `${why}; the answer was skipped.` } });
  }
}

function lastBytes(buffer: Buffer, count: number): Buffer {
  return buffer.length <= count ? buffer : buffer.subarray(buffer.length - count);
}

/** `40.0 MB`: how a message's size is said in the errors of both transports. */
export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The id of an answer (a message with `result` or `error`, and no `method`) from the start and end of its text: SDK
 * servers in TypeScript write `{"result":…,"jsonrpc":"2.0","id":7}`, in Python `{"jsonrpc":"2.0","id":7,"result":…}`.
 * Only keys of the top-level object count, so an `id` inside the result is never taken for the answer's.
 */
export function answerId(head: string, tail: string): string | number | null {
  const top = topLevelHead(head);
  if (top.keys.has('method') || !(top.keys.has('result') || top.keys.has('error'))) return null;
  if (top.id !== undefined) return top.id;
  // The last member, right before the closing brace: nothing nested can end `"id":7}` at the very end.
  const last = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/.exec(tail);
  return last ? (JSON.parse(last[1]!) as string | number) : null;
}

/** The top-level keys in the start of a message's text, and the id's value if it is among them. */
function topLevelHead(text: string): { keys: Set<string>; id?: string | number } {
  const keys = new Set<string>();
  let id: string | number | undefined;
  let depth = 0;
  let expectingKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (end === -1) break;
      if (depth === 1 && expectingKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        keys.add(key);
        const value = /^\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*[,}]/.exec(text.slice(end + 1, end + 200));
        if (key === 'id' && value) id = JSON.parse(value[1]!) as string | number;
        expectingKey = false;
      }
      i = end;
    } else if (c === '{' || c === '[') {
      depth++;
      expectingKey = depth === 1 && c === '{';
    } else if (c === '}' || c === ']') {
      depth--;
    } else if (c === ',' && depth === 1) {
      expectingKey = true;
    }
  }
  return id === undefined ? { keys } : { keys, id };
}

/** The index of the quote closing the string that opens at `start`, or -1 if the text ends first. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}
