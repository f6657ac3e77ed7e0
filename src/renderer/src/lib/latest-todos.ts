/**
 * The live checklist of a session (docs/agents.md "Session tools"): the todos of the latest call of a checklist tool
 * (its card shows `todos`: `write_todos`) of the latest turn, in the loaded messages. A list belongs to its turn: once the person writes again, the previous turn's
 * list is no longer shown under the chat (it used to stay under every later turn); the new turn shows its own once the
 * agent writes one. A message the person adds while a turn runs starts over the same way. The chat reads it again whenever those change, which in a long session is at every older page
 * (a hundred messages above tens of thousands): `todosAfter` then reads only the page that arrived, since the
 * newer messages, and so their latest list, are the ones it read before (the chat store prepends an older page to
 * the same message objects: stores/chat-store.ts `loadOlder`).
 */
import type { HistoryMessage } from '../../../shared/contract/chat';

export interface Todo {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
}

const STATUSES = ['pending', 'in_progress', 'completed'];

/**
 * The todos of the latest checklist call in `messages[0..end)` after the last message of the person, or null when
 * there is none (allocates nothing on the way).
 */
export function latestTodos(messages: readonly HistoryMessage[], end = messages.length): Todo[] | null {
  for (let i = end - 1; i >= 0; i--) {
    if (messages[i]!.role === 'user') return null;
    const { tools } = messages[i]!;
    for (let j = tools.length - 1; j >= 0; j--) {
      if (tools[j]!.display !== 'todos') continue; // a checklist is what its tool says it is, whatever its name
      try {
        const todos = (JSON.parse(tools[j]!.arguments) as { todos?: unknown }).todos;
        if (Array.isArray(todos))
          return todos.filter((t): t is Todo => typeof t?.content === 'string' && STATUSES.includes(t?.status));
      } catch {
        // arguments still streaming or malformed: an older call may still say something
      }
    }
  }
  return null;
}

/** What `todosAfter` read last: the messages and their latest todos. */
export interface TodosRead {
  messages: readonly HistoryMessage[];
  todos: Todo[] | null;
}

/** Whether the person wrote any of `messages` (read from the newest, where their messages are near). */
function hasUserMessage(messages: readonly HistoryMessage[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user') return true;
  return false;
}

/**
 * The latest todos of `messages`, given what was read from the previous messages. When older messages were only
 * added in front (the last message and the previous first one are the same objects, at the same distance from the
 * end), only those are read, and only if the newer ones had no list and no message of the person (whose turn began
 * there); any other change reads them all.
 */
export function todosAfter(before: TodosRead | null, messages: readonly HistoryMessage[]): TodosRead {
  const added = messages.length - (before?.messages.length ?? 0);
  const prepended =
    before !== null &&
    before.messages.length > 0 &&
    added > 0 &&
    messages.at(-1) === before.messages.at(-1) &&
    messages[added] === before.messages[0];
  if (!prepended) return { messages, todos: latestTodos(messages) };
  if (before.todos !== null || hasUserMessage(before.messages)) return { messages, todos: before.todos };
  return { messages, todos: latestTodos(messages, added) };
}
