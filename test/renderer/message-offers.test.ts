/**
 * Which messages offer Edit and Regenerate (docs/chat-ui.md "Regenerate and Edit"): the person's newest standing
 * message, and the newest message when it is an answer with text after it; replaced and withdrawn ones never.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryMessage } from '../../src/shared/contract/chat';
import { offeredIds } from '../../src/renderer/src/lib/message-offers';

const m = (id: number, role: HistoryMessage['role'], extra: Partial<HistoryMessage> = {}): HistoryMessage => ({
  id,
  role,
  content: `m${id}`,
  status: 'ok',
  queued: false,
  reasoning: null,
  input_tokens: null,
  output_tokens: null,
  cost: null,
  model: null,
  created_at: 0,
  tools: [],
  ...extra,
});

describe('offeredIds', () => {
  it('the newest message of the person (Edit) and the answer after it (Regenerate)', () => {
    expect(offeredIds([m(1, 'user'), m(2, 'assistant'), m(3, 'user'), m(4, 'assistant')])).toBe('3:4');
    expect(offeredIds([m(1, 'user')])).toBe('1:0');
    expect(offeredIds([])).toBe('0:0');
  });

  it('an answer still in tool calls, or without text, is not regenerated from here', () => {
    const call = {
      tool_call_id: 'k',
      message_id: 2,
      name: 'read_file',
      arguments: '{}',
      status: 'done',
      result: null,
      result_type: 'string',
      label_short: '',
      label_full: '',
      path: null,
      decision: null,
      interrupted: false,
      pending: null,
    } as const;
    expect(offeredIds([m(1, 'user'), m(2, 'assistant', { tools: [call] })])).toBe('1:0');
    expect(offeredIds([m(1, 'user'), m(2, 'assistant', { content: '' })])).toBe('1:0');
  });

  it('replaced rows, a withdrawn message and a queued one are passed over', () => {
    const replaced = { status: 'failed' as const, replaced: true };
    expect(
      offeredIds([
        m(1, 'user', replaced),
        m(2, 'assistant', replaced),
        m(3, 'user'),
        m(4, 'assistant', replaced),
        m(5, 'assistant'),
      ]),
    ).toBe('3:5');
    expect(offeredIds([m(1, 'user'), m(2, 'assistant'), m(3, 'user', { status: 'failed' })])).toBe('1:0');
    expect(offeredIds([m(1, 'user'), m(2, 'assistant'), m(3, 'user', { queued: true })])).toBe('1:0');
  });
});
