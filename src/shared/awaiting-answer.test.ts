import { describe, expect, it } from 'vitest';
import type { HistoryMessage, ToolCard } from './contract/chat';
import { awaitingAnswer } from './awaiting-answer';

const card = (status: ToolCard['status'], extra: Partial<ToolCard> = {}): ToolCard => ({
  tool_call_id: 'k',
  message_id: 2,
  name: 'read_file',
  arguments: '{}',
  status,
  result: null,
  result_type: 'string',
  label_short: '',
  label_full: '',
  path: null,
  decision: null,
  interrupted: false,
  pending: null,
  ...extra,
});
const message = (role: HistoryMessage['role'], extra: Partial<HistoryMessage> = {}): HistoryMessage => ({
  id: 1,
  role,
  content: 'x',
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
const live = { request_id: 1, args_hash: 'h', old_content: null, new_content: null };

describe('awaitingAnswer (docs/chat-ui.md "Retry and Continue")', () => {
  it("the person's unanswered message asks for a retry, also one queued behind a turn that failed", () => {
    expect(awaitingAnswer([message('user')])).toBe('retry');
    expect(awaitingAnswer([message('user', { queued: true })])).toBe('retry');
  });

  it('a message a stop withdrew ("not sent"), an answer, an empty chat: nothing to do', () => {
    expect(awaitingAnswer([message('user', { status: 'failed' })])).toBeNull();
    expect(awaitingAnswer([message('assistant')])).toBeNull();
    expect(awaitingAnswer([])).toBeNull();
    expect(awaitingAnswer([message('agent')])).toBeNull();
  });

  it('a round whose calls all ended, or whose approval a stop withdrew, asks to continue', () => {
    for (const status of ['done', 'failed', 'cancelled', 'rejected'] as const)
      expect(awaitingAnswer([message('assistant', { tools: [card('done'), card(status)] })])).toBe('continue');
    expect(awaitingAnswer([message('assistant', { tools: [card('done'), card('pending')] })])).toBe('continue');
  });

  it('a call that still runs, waits for a person or for a re-run keeps the button away', () => {
    expect(awaitingAnswer([message('assistant', { tools: [card('done'), card('running')] })])).toBeNull();
    expect(awaitingAnswer([message('assistant', { tools: [card('queued')] })])).toBeNull();
    expect(awaitingAnswer([message('assistant', { tools: [card('pending', { pending: live })] })])).toBeNull();
    expect(awaitingAnswer([message('assistant', { tools: [card('running', { interrupted: true })] })])).toBeNull();
  });

  it('replaced messages are passed over: the newest standing one decides', () => {
    expect(awaitingAnswer([message('user'), message('assistant', { status: 'failed', replaced: true })])).toBe('retry');
    expect(
      awaitingAnswer([message('user'), message('assistant'), message('user', { status: 'failed', replaced: true })]),
    ).toBeNull();
  });
});
