/**
 * A long session for the history and memory benches, written through the app's own writers (the session store and
 * the decision audit) in one transaction. Every four messages: the person's question, an assistant message with two
 * finished tool calls (each with its gate decision), one with a third call, and the assistant's answer; texts and
 * results of a realistic size (a few hundred bytes to a kilobyte), so a page weighs what a real one does. `answer`
 * replaces the answers' text (the UI bench writes Markdown there: bench/ui-seed.ts).
 */
import { recordDecision } from '../src/main/core/approval/decisions';
import type { Db } from '../src/main/core/db/database';
import { SessionStore } from '../src/main/core/session/session-store';

const ANSWER = 'The function reads the file once, splits it into lines and keeps the ones that match. '.repeat(5);
const RESULT = JSON.stringify({
  path: 'src/app/module.ts',
  lines: Array.from({ length: 12 }, (_, i) => `${i + 1}: export const value${i} = compute(${i}); // a line of code`),
});
const ALLOW = {
  action: 'allow' as const,
  why: { kind: 'rule' as const, ruleId: 1, text: 'Allowed by rule 1: read_file' },
  actor: 'policy' as const,
};

/** Returns the new session's id; `messages` is rounded down to a multiple of four. */
export function seedSession(
  db: Db,
  messages: number,
  title = `bench ${messages}`,
  answer: (i: number) => string = (i) => `${ANSWER}(${i})`,
): number {
  const store = new SessionStore(db);
  const sessionId = store.createSession(title);
  store.transaction(() => {
    for (let i = 0; i < Math.floor(messages / 4); i++) {
      store.appendMessage({
        sessionId,
        role: 'user',
        content: `Question ${i}: where is value${i} computed, and what reads it?`,
      });
      for (const calls of [2, 1]) {
        const messageId = store.appendMessage({
          sessionId,
          role: 'assistant',
          content: calls === 2 ? 'Let me look.' : '',
          inputTokens: 1_200,
          outputTokens: 80,
          model: 'bench-model',
        });
        const args = Array.from({ length: calls }, (_, c) => ({
          id: `call_${c}`,
          name: 'read_file',
          arguments: JSON.stringify({ path: `src/app/module${i % 50}.ts`, offset: c * 100 }),
        }));
        for (const key of store.insertRoundTools(sessionId, messageId, args)) {
          const decisionId = recordDecision(db, { toolCallId: key, sessionId, decision: ALLOW, argsHash: 'hash' });
          store.prepareTool(key, { effectiveArguments: args[0]!.arguments, argsHash: 'hash', decisionId });
          store.finishTool(key, 'done', RESULT, 'json');
        }
      }
      store.appendMessage({
        sessionId,
        role: 'assistant',
        content: answer(i),
        inputTokens: 1_500,
        outputTokens: 200,
        model: 'bench-model',
      });
    }
  });
  return sessionId;
}
