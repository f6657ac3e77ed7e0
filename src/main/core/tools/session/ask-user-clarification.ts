/**
 * `ask_user_clarification` (docs/agents.md "Session tools"): waits for a person, so the call driver runs it through
 * the Inbox (session/tool-call.ts `askUser`) rather than through `run`; the answer is the approval, so it is allowed
 * by default, and its card shows the question and the answer.
 */
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { defineInterfaceTool } from './interface-tool';

export const clarificationTool = defineInterfaceTool({
  name: TN.ASK_USER_CLARIFICATION,
  description:
    'Ask the user a question and wait for the answer. Use it when a choice is theirs to make or the task is ambiguous; offer suggested answers when there are obvious options.',
  input: z.object({
    title: z.string().min(1).max(200).describe('A short title for the question.'),
    question: z.string().min(1).max(20_000).describe('The question, in Markdown.'),
    suggested_answers: z
      .array(z.string().max(500))
      .max(10)
      .optional()
      .describe('Answers the user can pick with one click.'),
  }),
  defaultDecision: 'allow',
  card: 'question',
  run: () => ({ kind: 'failed', error: 'ask_user_clarification is answered through the Inbox, not run.' }),
});
