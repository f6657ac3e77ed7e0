/**
 * The chat's live checklist (lib/latest-todos.ts): the latest `write_todos` list of the loaded messages; an older page
 * arriving in front reads only that page, and only when the newer messages had no list; any other change reads all.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryMessage } from '../../src/shared/contract/chat';
import { latestTodos, todosAfter } from '../../src/renderer/src/lib/latest-todos';

let nextId = 1;
function message(todos?: string, role: HistoryMessage['role'] = 'assistant'): HistoryMessage {
  const id = nextId++;
  const tools =
    todos === undefined
      ? []
      : [
          {
            tool_call_id: `c${id}`,
            message_id: id,
            name: 'write_todos',
            arguments: JSON.stringify({ todos: [{ content: todos, status: 'pending' }] }),
            status: 'done',
            result: null,
            result_type: 'string',
            label_short: '',
            label_full: '',
            path: null,
            decision: null,
            interrupted: false,
            pending: null,
            display: 'todos' as const,
          },
        ];
  return {
    id,
    role,
    content: '',
    status: 'ok',
    queued: false,
    reasoning: null,
    input_tokens: null,
    output_tokens: null,
    cost: null,
    model: null,
    created_at: 0,
    tools,
  } as HistoryMessage;
}

/** `messages` whose messages count how often their tools are read. */
function counted(messages: HistoryMessage[]): { messages: HistoryMessage[]; reads: Map<number, number> } {
  const reads = new Map<number, number>();
  for (const m of messages) {
    const tools = m.tools;
    Object.defineProperty(m, 'tools', { get: () => (reads.set(m.id, (reads.get(m.id) ?? 0) + 1), tools) });
  }
  return { messages, reads };
}

describe('latest todos', () => {
  it('is the newest write_todos list, or null', () => {
    expect(latestTodos([message(), message('old'), message('new'), message()])).toEqual([
      { content: 'new', status: 'pending' },
    ]);
    expect(latestTodos([message(), message()])).toBeNull();
  });

  it("belongs to its turn: a message of the person after it ends it, the next turn's own list shows", () => {
    const user = () => message(undefined, 'user');
    expect(latestTodos([user(), message('first turn'), message(), user()])).toBeNull();
    expect(latestTodos([user(), message('first turn'), user(), message()])).toBeNull();
    expect(latestTodos([user(), message('first turn'), user(), message('second turn')])).toEqual([
      { content: 'second turn', status: 'pending' },
    ]);
    // An older page arriving in front of a turn that has no list yet reads nothing of it: its lists are older turns'.
    const { messages: page, reads } = counted([message('older turn'), message()]);
    const newest = [user(), message()];
    const read = todosAfter(todosAfter(null, newest), page.concat(newest));
    expect(read.todos).toBeNull();
    expect(reads.size).toBe(0);
  });

  it('reads only an older page arriving in front, and nothing of it once the newer messages have a list', () => {
    const newest = [message(), message('mine'), message()];
    let read = todosAfter(null, newest);
    expect(read.todos).toEqual([{ content: 'mine', status: 'pending' }]);
    const { messages: page, reads } = counted([message('older'), message()]);
    read = todosAfter(read, page.concat(newest));
    expect(read.todos).toEqual([{ content: 'mine', status: 'pending' }]);
    expect(reads.size).toBe(0);
  });

  it('finds a list in the older page when the newer messages have none', () => {
    const { messages: newest, reads } = counted([message(), message()]);
    let read = todosAfter(null, newest);
    expect(read.todos).toBeNull();
    reads.clear();
    read = todosAfter(read, [message('older'), message()].concat(newest));
    expect(read.todos).toEqual([{ content: 'older', status: 'pending' }]);
    expect(reads.size).toBe(0);
  });

  it('reads everything again on any other change', () => {
    const first = [message(), message('a')];
    const read = todosAfter(null, first);
    // A new message at the end, a message replaced (same length), a message removed: all read again.
    expect(todosAfter(read, [...first, message('b')]).todos).toEqual([{ content: 'b', status: 'pending' }]);
    expect(todosAfter(read, [first[0]!, message()]).todos).toBeNull();
    expect(todosAfter(read, [first[1]!]).todos).toEqual([{ content: 'a', status: 'pending' }]);
  });
});
