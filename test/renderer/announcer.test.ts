/**
 * What a screen reader is told (stores/announcer.ts, docs/ui.md "What is announced"): an approval or a question from
 * any chat, a tool error and the end of a turn of the open chat only, each once (a replayed request is not said
 * again), a failed turn not followed by "finished", and a sentence gone from the live region after a while.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatEvent, ToolCard } from '../../src/shared/contract/chat';
import {
  announceChatEvent,
  announcerStore,
  sentenceOf,
  SPOKEN_MS,
  type ChatContext,
} from '../../src/renderer/src/stores/announcer';

const card = (id: string, label: string): ToolCard => ({
  tool_call_id: id,
  message_id: 1,
  name: label.split(' ')[0]!,
  arguments: '{}',
  status: 'pending',
  result: null,
  result_type: 'string',
  label_short: label,
  label_full: label,
  path: null,
  decision: null,
  interrupted: false,
  pending: null,
});

const OPEN = 7;
const context = (cards: ToolCard[] = [], turnFailed = false): ChatContext => ({
  openSessionId: OPEN,
  cardOf: (id) => cards.find((c) => c.tool_call_id === id),
  turnFailed,
});
const approval = (session: number, request: number): ChatEvent => ({
  type: 'approval_required',
  session_id: session,
  request_id: request,
  tool_call_id: 'c1',
  status: 'pending',
  tool_name: 'write_file',
  arguments: '{"path":"hello.txt"}',
  args_hash: 'h',
});

describe('sentenceOf', () => {
  it('names the call as its card does, its code parts as plain words', () => {
    expect(sentenceOf(approval(OPEN, 1), context([card('c1', 'write_file `hello.txt`')]))).toBe(
      'write_file hello.txt, waiting for your approval.',
    );
  });

  it('says a write or a command waiting with its preview the same way', () => {
    const write: ChatEvent = {
      type: 'pending_write',
      session_id: OPEN,
      request_id: 3,
      tool_call_id: 'c1',
      status: 'pending',
      path: 'notes/a.md',
      old_content: null,
      new_content: 'x',
      args_hash: 'h',
    };
    expect(sentenceOf(write, context([card('c1', 'write_file `notes/a.md`')]))).toBe(
      'write_file notes/a.md, waiting for your approval.',
    );
    expect(sentenceOf({ ...write, session_id: 3, path: '$ execute_cmd' }, context())).toBe(
      'execute_cmd, waiting for your approval in another chat.',
    );
  });

  it('says where an approval or a question of another chat waits, by the tool name alone', () => {
    expect(sentenceOf(approval(3, 1), context([card('c1', 'write_file `hello.txt`')]))).toBe(
      'write_file, waiting for your approval in another chat.',
    );
    const question: ChatEvent = {
      type: 'agent_question',
      session_id: 3,
      request_id: 2,
      tool_call_id: 'q',
      status: 'pending',
      title: 'Pick a format',
      question: 'Markdown?',
      suggested_answers: [],
    };
    expect(sentenceOf(question, context())).toBe('The agent asks in another chat: Pick a format.');
  });

  it("says a tool error and the turn's end for the open chat only, never a sub-agent's", () => {
    const error: ChatEvent = {
      type: 'tool_error',
      session_id: OPEN,
      tool_call_id: 'c2',
      status: 'failed',
      error: 'no such file',
    };
    expect(sentenceOf(error, context([card('c2', 'read_file `missing.txt`')]))).toBe('read_file missing.txt failed.');
    expect(sentenceOf({ ...error, session_id: 3 }, context())).toBeNull();
    expect(sentenceOf({ ...error, stack_id: 4 }, context())).toBeNull();
    const end: ChatEvent = { type: 'turn_running', session_id: OPEN, running: false };
    expect(sentenceOf(end, context())).toBe('The agent finished.');
    expect(sentenceOf(end, context([], true))).toBeNull();
    expect(sentenceOf({ ...end, running: true }, context())).toBeNull();
    expect(sentenceOf({ type: 'error', session_id: OPEN, message: 'Rate limited.\nRetry later.' }, context())).toBe(
      'The turn failed: Rate limited.',
    );
  });

  it('says nothing of what is only shown (text as it streams, a tool done)', () => {
    expect(sentenceOf({ type: 'text_delta', session_id: OPEN, round: 1, delta: 'Hi' }, context())).toBeNull();
    const done: ChatEvent = {
      type: 'tool_done',
      session_id: OPEN,
      tool_call_id: 'c1',
      status: 'done',
      result: 'ok',
      result_type: 'string',
    };
    expect(sentenceOf(done, context())).toBeNull();
  });
});

describe('announceChatEvent', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    announcerStore.setState({ spoken: [] });
  });
  afterEach(() => vi.useRealTimers());
  const chat = { openSessionId: OPEN, cardOf: () => undefined };
  const texts = () => announcerStore.getState().spoken.map((s) => s.text);

  it('says a request once, even when it comes again (a reconnect replays it), and clears it after a while', () => {
    announceChatEvent(approval(OPEN, 41), chat);
    announceChatEvent(approval(OPEN, 41), chat);
    expect(texts()).toEqual(['write_file, waiting for your approval.']);
    vi.advanceTimersByTime(SPOKEN_MS);
    expect(texts()).toEqual([]);
  });

  it('a failed turn is said as failed, and its end adds nothing; the next turn ends "finished" again', () => {
    announceChatEvent({ type: 'turn_running', session_id: OPEN, running: true }, chat);
    announceChatEvent({ type: 'error', session_id: OPEN, message: 'No key.' }, chat);
    announceChatEvent({ type: 'turn_running', session_id: OPEN, running: false }, chat);
    expect(texts()).toEqual(['The turn failed: No key.']);
    announceChatEvent({ type: 'turn_running', session_id: OPEN, running: true }, chat);
    announceChatEvent({ type: 'turn_running', session_id: OPEN, running: false }, chat);
    expect(texts()).toEqual(['The turn failed: No key.', 'The agent finished.']);
  });
});
