/**
 * The stdio framing (docs/mcp.md "Messages too large or too deep"): messages split anywhere across chunks, several
 * per chunk, CRLF; an answer too large or too deep becomes an error answer to its id (found at the top level only,
 * first or last); a request or an id-less message that cannot be read is an error; a handler that throws loses
 * nothing else.
 */
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { answerId, MessageFramer } from './stdio-framing';

function framer(limits = { maxBytes: 1024, maxDepth: 8 }) {
  const messages: JSONRPCMessage[] = [];
  const errors: string[] = [];
  const f = new MessageFramer((v) => JSONRPCMessageSchema.parse(v), limits);
  const push = (...pieces: string[]) => {
    for (const p of pieces)
      f.push(
        Buffer.from(p),
        (m) => messages.push(m),
        (e) => errors.push(e.message),
      );
  };
  return { push, messages, errors };
}
const ok = (id: number, text = 'hi') =>
  `{"result":{"content":[{"type":"text","text":"${text}"}]},"jsonrpc":"2.0","id":${id}}`;

describe('MessageFramer', () => {
  it('reads messages split anywhere, several in one chunk, with CRLF, and skips blank lines', () => {
    const bytes = Buffer.from(`${ok(1)}\n\n${ok(2)}\r\n${ok(3, 'é✓')}\n`);
    // Every split point, byte by byte (a multi-byte character cut in two included), and 7-byte pieces.
    const splits = [
      ...Array.from({ length: bytes.length + 1 }, (_, cut) => [bytes.subarray(0, cut), bytes.subarray(cut)]),
      Array.from({ length: Math.ceil(bytes.length / 7) }, (_, i) => bytes.subarray(i * 7, i * 7 + 7)),
    ];
    for (const pieces of splits) {
      const got: JSONRPCMessage[] = [];
      const errors: Error[] = [];
      const f = new MessageFramer((v) => JSONRPCMessageSchema.parse(v));
      for (const piece of pieces)
        f.push(
          piece,
          (m) => got.push(m),
          (e) => errors.push(e),
        );
      expect(errors).toEqual([]);
      expect(got.map((m) => (m as { id: number }).id)).toEqual([1, 2, 3]);
      expect(JSON.stringify(got[2])).toContain('é✓');
    }
  });

  it('an answer over the size limit becomes an error answer to its id, id last (TypeScript SDK) or first (Python SDK)', () => {
    const { push, messages, errors } = framer();
    const big = 'y'.repeat(3000);
    push(ok(7, big).slice(0, 500), ok(7, big).slice(500), '\n', ok(8), '\n');
    push(`{"jsonrpc":"2.0","id":"call-9","result":{"content":[{"type":"text","text":"${big}"}]}}\n`);
    expect(errors).toEqual([]);
    expect(messages).toEqual([
      {
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: -32603,
          message: expect.stringMatching(
            /^The server's message was 0\.0 MB, more than the 0\.0 MB the app reads; the answer was skipped\.$/,
          ),
        },
      },
      expect.objectContaining({ id: 8, result: expect.anything() }),
      { jsonrpc: '2.0', id: 'call-9', error: expect.objectContaining({ code: -32603 }) },
    ]);
  });

  it('an answer nesting deeper than the limit becomes an error answer; one level less is read', () => {
    const { push, messages, errors } = framer();
    const nested = (levels: number) =>
      `{"result":{"v":${'['.repeat(levels)}${']'.repeat(levels)}},"jsonrpc":"2.0","id":4}\n`;
    push(nested(6), nested(7));
    expect(errors).toEqual([]);
    expect(messages[0]).toMatchObject({ id: 4, result: { v: expect.any(Array) } });
    expect(messages[1]).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32603, message: expect.stringMatching(/nests objects or arrays more than 8 levels deep/) },
    });
  });

  it('a request, a notification or a message without an id that cannot be read is an error, never an answer', () => {
    const { push, messages, errors } = framer();
    const big = 'y'.repeat(3000);
    push(`{"method":"sampling/createMessage","params":{"t":"${big}"},"jsonrpc":"2.0","id":3}\n`);
    push(`{"method":"notifications/message","params":{"t":"${big}"},"jsonrpc":"2.0"}\n`);
    push(`{"result":{"t":"${big}"},"jsonrpc":"2.0"}\n`);
    push('not json\n');
    expect(messages).toEqual([]);
    expect(errors).toHaveLength(4);
    expect(errors[0]).toMatch(/more than the 0\.0 MB the app reads; it was skipped\.$/);
  });

  it("a handler that throws is reported, and the chunk's other messages still arrive", () => {
    const errors: string[] = [];
    const seen: unknown[] = [];
    const f = new MessageFramer((v) => JSONRPCMessageSchema.parse(v));
    f.push(
      Buffer.from(`${ok(1)}\n${ok(2)}\n`),
      (m) => {
        seen.push((m as { id: number }).id);
        if (seen.length === 1) throw new Error('handler broke');
      },
      (e) => errors.push(e.message),
    );
    expect(seen).toEqual([1, 2]);
    expect(errors).toEqual(['handler broke']);
  });
});

describe('answerId', () => {
  it('takes the top-level id only: never one inside the result, first or last', () => {
    expect(answerId('{"result":{"id":99,"content":[{"id":5', '"jsonrpc":"2.0","id":12}')).toBe(12);
    expect(answerId('{"jsonrpc":"2.0","id":"a\\"b","result":{"id":99', 'whatever')).toBe('a"b');
    // Nested objects can close the text as `{"id":5}}`; that is not the answer's id.
    expect(answerId('{"result":{"content":[', '"x":{"id":5}}')).toBeNull();
    expect(answerId('{"error":{"code":1,"message":"', ',"jsonrpc":"2.0","id":-3}\n')).toBe(-3);
    expect(answerId('{"method":"x","result":1', '"id":3}')).toBeNull();
    expect(answerId('{"params":{"result":1}', '"id":3}')).toBeNull();
  });
});
