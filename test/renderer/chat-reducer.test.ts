/**
 * reduceChat, the chat view's pure reducer: events of other sessions are ignored, deltas stream, a card follows
 * its row live (a re-run's decision, approval and result clear "interrupted"), a repeated tool_start updates
 * rather than doubles, and approvals move a card between pending and running (the answer arrives as the call's
 * `tool_decision`, the row's own event).
 */
import { describe, expect, it } from 'vitest';
import type { ChatEvent, HistoryMessage, ToolCard } from '../../src/shared/contract/chat';
import { initial, reduceChat, type ChatState } from '../../src/renderer/src/stores/chat-reducer';

const S = 7;
const run = (state: ChatState, ...events: ChatEvent[]) => events.reduce(reduceChat, state);
const open = (messages: HistoryMessage[] = []): ChatState => ({ ...initial, sessionId: S, messages });
const start = (id: string, messageId = 10): ChatEvent => ({
  type: 'tool_start',
  session_id: S,
  tool_call_id: id,
  status: 'queued',
  message_id: messageId,
  name: 'execute_cmd',
  arguments: '{"command":"ls"}',
  label_short: 'execute_cmd `ls`',
  label_full: 'execute_cmd `ls`',
  path: null,
});
const card = (s: ChatState, id: string) => s.messages.flatMap((m) => m.tools).find((t) => t.tool_call_id === id)!;

function historyWith(tool: Partial<ToolCard>): HistoryMessage[] {
  const t: ToolCard = {
    tool_call_id: 'k1',
    message_id: 10,
    name: 'execute_cmd',
    arguments: '{}',
    status: 'running',
    result: null,
    result_type: 'string',
    label_short: 'x',
    label_full: 'x',
    path: null,
    decision: null,
    interrupted: false,
    pending: null,
    ...tool,
  };
  return [
    {
      id: 10,
      role: 'assistant',
      content: '',
      status: 'ok',
      queued: false,
      reasoning: null,
      input_tokens: null,
      output_tokens: null,
      cost: null,
      model: null,
      created_at: 0,
      tools: [t],
    },
  ];
}

describe('reduceChat', () => {
  it('ignores events of another session', () => {
    const s = open();
    expect(reduceChat(s, { type: 'text_delta', session_id: S + 1, round: 1, delta: 'x' })).toBe(s);
  });

  it('streams deltas per round and turns them into a message on done', () => {
    let s = run(
      open(),
      { type: 'text_delta', session_id: S, round: 1, delta: 'Hel' },
      { type: 'text_delta', session_id: S, round: 1, delta: 'lo' },
    );
    expect(s.streaming).toMatchObject({ round: 1, text: 'Hello', reasoning: '' });
    // The same text as its deltas, newest first (a view reads only what is new: lib/markdown-stream.ts).
    expect(s.streaming?.deltas).toEqual({ text: 'lo', before: { text: 'Hel', before: null } });
    s = run(s, { type: 'text_delta', session_id: S, round: 2, delta: 'new' });
    expect(s.streaming?.text).toBe('new');
    expect(s.streaming?.deltas).toEqual({ text: 'new', before: null });
    s = run(s, {
      type: 'done',
      session_id: S,
      round: 2,
      message_id: 11,
      content: 'new round',
      input_tokens: 3,
      output_tokens: 4,
      cost: null,
    });
    expect(s.streaming).toBeNull();
    expect(s.messages.at(-1)).toMatchObject({ id: 11, role: 'assistant', content: 'new round', output_tokens: 4 });
    // A second done for the same message (history already had it) does not add it twice.
    expect(
      run(s, {
        type: 'done',
        session_id: S,
        round: 2,
        message_id: 11,
        content: 'new round',
        input_tokens: 3,
        output_tokens: 4,
        cost: null,
      }).messages,
    ).toHaveLength(1);
  });

  it('a card shows the status its event says, never one it works out', () => {
    // A call written finished in the same commit as its round (a delivered result) starts as done.
    const delivered = run(open(), { ...start('k1'), status: 'done' } as ChatEvent);
    expect(card(delivered, 'k1').status).toBe('done');
    const decided = run(open(), start('k1'), {
      type: 'tool_decision',
      session_id: S,
      tool_call_id: 'k1',
      status: 'pending',
      decision: { action: 'require', why: { kind: 'rule', text: 'asks' }, actor: 'policy' },
      arguments: '{}',
    });
    expect(card(decided, 'k1').status).toBe('pending');
  });

  it('a tool_start for a card it has updates it, never doubles it', () => {
    const s = run(open(), start('k1'), start('k1'));
    expect(s.messages.flatMap((m) => m.tools)).toHaveLength(1);
  });

  it('a new call is queued until its decision; one behind an approval stays queued while the first waits', () => {
    let s = run(open(), start('k1'), start('k2'));
    expect([card(s, 'k1').status, card(s, 'k2').status]).toEqual(['queued', 'queued']);
    s = run(s, {
      type: 'tool_decision',
      session_id: S,
      status: 'running',
      tool_call_id: 'k1',
      decision: { action: 'require', why: { kind: 'rule', text: 'asks' }, actor: 'policy' },
      arguments: '{}',
    });
    s = run(s, {
      type: 'approval_required',
      session_id: S,
      request_id: 3,
      tool_call_id: 'k1',
      status: 'pending',
      tool_name: 'execute_cmd',
      arguments: '{}',
      args_hash: 'h',
    });
    expect([card(s, 'k1').status, card(s, 'k2').status]).toEqual(['pending', 'queued']);
    s = run(s, {
      type: 'tool_decision',
      session_id: S,
      status: 'running',
      tool_call_id: 'k2',
      decision: { action: 'allow', why: { kind: 'rule', text: 'ok' }, actor: 'policy' },
      arguments: '{}',
    });
    expect(card(s, 'k2').status).toBe('running');
  });

  it('an interrupted card follows its re-run live: decision, approval, result', () => {
    let s = open(historyWith({ interrupted: true }));
    s = run(s, {
      type: 'tool_decision',
      session_id: S,
      status: 'running',
      tool_call_id: 'k1',
      decision: { action: 'require', why: { kind: 'rule', text: 'asks' }, actor: 'policy' },
      arguments: '{"command":"ls","workdir":"/w"}',
    });
    // From the decision on, the card shows the normalized arguments the hash covers.
    expect(card(s, 'k1')).toMatchObject({
      interrupted: false,
      status: 'running',
      decision: { action: 'require' },
      arguments: '{"command":"ls","workdir":"/w"}',
    });
    s = run(s, {
      type: 'pending_write',
      session_id: S,
      request_id: 5,
      tool_call_id: 'k1',
      status: 'pending',
      path: '$ execute_cmd',
      old_content: null,
      new_content: '$ ls',
      args_hash: 'h',
    });
    expect(card(s, 'k1')).toMatchObject({ status: 'pending', pending: { request_id: 5, args_hash: 'h' } });
    s = run(s, {
      type: 'tool_decision',
      session_id: S,
      status: 'running',
      tool_call_id: 'k1',
      decision: { action: 'allow', why: { kind: 'human', text: 'Decided by you.' }, actor: 'user' },
      arguments: '{"command":"ls","workdir":"/w"}',
    });
    expect(card(s, 'k1')).toMatchObject({ status: 'running', pending: null, decision: { actor: 'user' } });
    s = run(s, {
      type: 'tool_done',
      session_id: S,
      tool_call_id: 'k1',
      status: 'done',
      result: 'a\n[exit code 0]',
      result_type: 'string',
    });
    expect(card(s, 'k1')).toMatchObject({ status: 'done', result: 'a\n[exit code 0]', interrupted: false });
  });

  it('tool_interrupted marks the card; the ending events of a call all clear it', () => {
    for (const end of [
      { type: 'tool_done', status: 'done', result: 'r', result_type: 'string' },
      { type: 'tool_error', status: 'failed', error: 'e' },
      { type: 'tool_cancelled', status: 'cancelled', note: 'n' },
      { type: 'tool_rejected', status: 'rejected', reason: 'no' },
    ] as const) {
      let s = run(open(historyWith({})), { type: 'tool_interrupted', session_id: S, tool_call_id: 'k1' });
      expect(card(s, 'k1').interrupted).toBe(true);
      s = run(s, { ...end, session_id: S, tool_call_id: 'k1' } as ChatEvent);
      expect(card(s, 'k1').interrupted).toBe(false);
      expect(card(s, 'k1').pending).toBeNull();
    }
  });

  it('a rejected approval keeps the card as it was until the rejection arrives', () => {
    let s = run(open(historyWith({})), {
      type: 'approval_required',
      session_id: S,
      request_id: 9,
      tool_call_id: 'k1',
      status: 'pending',
      tool_name: 'x',
      arguments: '{}',
      args_hash: 'h',
    });
    expect(card(s, 'k1').status).toBe('pending');
    s = run(s, {
      type: 'tool_decision',
      session_id: S,
      tool_call_id: 'k1',
      decision: { action: 'deny', why: { kind: 'human', text: 'Decided by you.' }, actor: 'user' },
      arguments: '{}',
    });
    expect(card(s, 'k1')).toMatchObject({ status: 'pending', pending: null });
    s = run(s, {
      type: 'tool_rejected',
      session_id: S,
      tool_call_id: 'k1',
      status: 'rejected',
      reason: 'User rejected this tool call.',
    });
    expect(card(s, 'k1').status).toBe('rejected');
  });

  it('a turn that ends while a call waits was stopped: the request is gone, so the card offers no answer', () => {
    let s = run(open(historyWith({})), { type: 'turn_running', session_id: S, running: true });
    s = run(s, {
      type: 'approval_required',
      session_id: S,
      request_id: 4,
      tool_call_id: 'k1',
      status: 'pending',
      tool_name: 'x',
      arguments: '{}',
      args_hash: 'h',
    });
    expect(card(s, 'k1').pending).toMatchObject({ request_id: 4 });
    s = run(s, { type: 'turn_running', session_id: S, running: false });
    expect(card(s, 'k1')).toMatchObject({ status: 'pending', pending: null });
    expect(s.running).toBe(false);
  });

  it('only the changed message is a new object (old rows never re-render)', () => {
    const other: HistoryMessage = { ...historyWith({})[0]!, id: 3, tools: [] };
    const s0 = open([other, ...historyWith({})]);
    const s1 = run(s0, {
      type: 'tool_done',
      session_id: S,
      tool_call_id: 'k1',
      status: 'done',
      result: 'r',
      result_type: 'string',
    });
    expect(s1.messages[0]).toBe(s0.messages[0]);
    expect(s1.messages[1]).not.toBe(s0.messages[1]);
  });

  it('notices sit after the last message', () => {
    const s = run(open(historyWith({})), { type: 'error', session_id: S, message: 'boom' });
    expect(s.notices).toMatchObject([{ kind: 'error', text: 'boom', afterMessageId: 10 }]);
  });

  it('a request fitted to the context window is one notice saying what the model did not see', () => {
    const fitted = (e: Partial<Extract<ChatEvent, { type: 'context_fitted' }>>): ChatEvent => ({
      type: 'context_fitted',
      session_id: S,
      model: 'gpt-x',
      window_tokens: 128_000,
      window_is_set: true,
      hidden_results: 0,
      dropped_messages: 0,
      cut_messages: 0,
      ...e,
    });
    expect(run(open(), fitted({ hidden_results: 3, dropped_messages: 1 })).notices).toMatchObject([
      {
        kind: 'info',
        text: "To fit gpt-x's context window (128k tokens), the model did not see 3 older tool results, 1 early message. /compact keeps a summary of older messages.",
      },
    ]);
    expect(run(open(), fitted({ window_is_set: false, cut_messages: 1 })).notices[0]!.text).toBe(
      "To fit gpt-x's context window (128k tokens, assumed: set it in Settings → Models), the model did not see the end of 1 long message. /compact keeps a summary of older messages.",
    );
  });

  it('a failed model request is said once, naming what was tried: "every model" only for several', () => {
    const failed = (tried: string[]): ChatEvent => ({
      type: 'llm_failed',
      session_id: S,
      tried,
      last_error: 'HTTP 401: bad key',
    });
    expect(run(open(), failed(['m1'])).notices.map((n) => n.text)).toEqual([
      'The model request failed (m1): HTTP 401: bad key',
    ]);
    expect(run(open(), failed(['m1', 'm2'])).notices.map((n) => n.text)).toEqual([
      'Every model failed (m1, m2): HTTP 401: bad key',
    ]);
    expect(run(open(), failed([])).notices.map((n) => n.text)).toEqual(['HTTP 401: bad key']);
  });

  it('an answer keeps the reasoning its round streamed (shown folded); a round with calls too', () => {
    const r = (round: number, delta: string): ChatEvent => ({ type: 'reasoning_delta', session_id: S, round, delta });
    const done = run(open(), r(1, 'think '), r(1, 'hard'), {
      type: 'done',
      session_id: S,
      round: 1,
      message_id: 5,
      content: 'Answer.',
      input_tokens: 1,
      output_tokens: 1,
      cost: null,
    });
    expect(done.messages[0]).toMatchObject({ id: 5, content: 'Answer.', reasoning: 'think hard' });
    const called = run(open(), r(1, 'look first'), start('k1', 6));
    expect(called.messages[0]).toMatchObject({ id: 6, reasoning: 'look first' });
    expect(
      run(open(), {
        type: 'done',
        session_id: S,
        round: 1,
        message_id: 7,
        content: 'Plain.',
        input_tokens: 1,
        output_tokens: 1,
        cost: null,
      }).messages[0]!.reasoning,
    ).toBeNull();
  });
});
