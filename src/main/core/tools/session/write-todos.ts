/**
 * `write_todos`: the calling agent's private checklist. Stateless: the agent re-sends the whole list each time and
 * the formatted list lives only in its own tool result (so a sub-agent's list never mixes with its caller's). The
 * chat shows the latest list of each agent as a live checklist, read from these calls' arguments.
 */
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { defineInterfaceTool } from './interface-tool';

const todoItem = z.object({
  content: z.string().min(1).max(2_000),
  status: z.enum(['pending', 'in_progress', 'completed']),
});

export const writeTodosTool = defineInterfaceTool({
  name: TN.WRITE_TODOS,
  description:
    'Keep your private task list for this task: send the WHOLE list with statuses each time. It is not stored or shared; it lives in your own tool results.',
  input: z.object({ todos: z.array(todoItem).max(100) }),
  defaultDecision: 'allow',
  card: 'todos',
  run({ todos }) {
    const mark = { pending: '[ ]', in_progress: '[~]', completed: '[x]' } as const;
    return todos.length === 0 ? 'Todo list is empty.' : todos.map((t) => `${mark[t.status]} ${t.content}`).join('\n');
  },
});
