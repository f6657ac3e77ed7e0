/** History conversion rules that the wire tests do not reach directly. */
import { describe, expect, it } from 'vitest';
import { INTERRUPTED_TOOL_RESULT, toModelMessages } from './messages';
import type { ChatMessage } from './types';

const history: ChatMessage[] = [
  { role: 'system', content: 'static' },
  { role: 'user', content: 'u1' },
  { role: 'assistant', content: '' },
  { role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'read_file', arguments: 'not json' }] },
  { role: 'system', content: 'dynamic tail' },
];

describe('toModelMessages', () => {
  it('hoists leading system text, keeps a later one in place for OpenAI shapes, and joins it for Anthropic', () => {
    const openai = toModelMessages(history, 'openai_compatible');
    expect(openai.system).toBe('static');
    expect(openai.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'system']);
    const anthropic = toModelMessages(history, 'anthropic');
    expect(anthropic.system).toBe('static\n\ndynamic tail');
    expect(anthropic.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('drops empty assistant messages, sends malformed arguments as {}, and answers the call as interrupted', () => {
    const { messages } = toModelMessages(history, 'open_ai');
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: {} }],
    });
    expect(messages[2]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'read_file',
          output: { type: 'text', value: INTERRUPTED_TOOL_RESULT },
        },
      ],
    });
  });

  it('a returned image: in the result for Anthropic; after the results in a user message for OpenAI shapes, which a person’s next message joins', () => {
    const image = { mediaType: 'image/png', data: new Uint8Array([1, 2, 3]) };
    const seen: ChatMessage[] = [
      { role: 'user', content: 'look' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'c1', name: 'read_file', arguments: '{"path":"a.png"}' },
          { id: 'c2', name: 'read_file', arguments: '{"path":"b.txt"}' },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'a.png: PNG image', images: [image] },
      { role: 'tool', tool_call_id: 'c2', content: 'text' },
      { role: 'user', content: 'and now?' },
    ];
    const anthropic = toModelMessages(seen, 'anthropic').messages;
    expect(anthropic.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect((anthropic[2] as { content: { output: unknown }[] }).content.map((r) => r.output)).toEqual([
      {
        type: 'content',
        value: [
          { type: 'text', text: 'a.png: PNG image' },
          { type: 'image-data', data: 'AQID', mediaType: 'image/png' },
        ],
      },
      { type: 'text', value: 'text' },
    ]);
    const openai = toModelMessages(seen, 'openai_compatible').messages;
    expect(openai.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(JSON.stringify(openai[2])).not.toContain('image-data');
    expect(openai[3]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'The image returned by read_file (call c1):' },
        { type: 'image', image: image.data, mediaType: 'image/png' },
        { type: 'text', text: 'and now?' },
      ],
    });
  });

  it('moves a result that arrived out of place to right after its call', () => {
    const { messages } = toModelMessages(
      [
        { role: 'user', content: 'u' },
        { role: 'assistant', content: 'x', tool_calls: [{ id: 'c1', name: 't', arguments: '{}' }] },
        { role: 'user', content: 'queued message' },
        { role: 'tool', tool_call_id: 'c1', content: 'late result' },
      ],
      'open_ai',
    );
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(JSON.stringify(messages[2])).toContain('late result');
  });
});
