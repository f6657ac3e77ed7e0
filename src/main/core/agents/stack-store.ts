/**
 * Child stacks (`chat_sessions_stack`): the one writer of that table. A sync sub-agent gets a stack row for its
 * run (agent, prompt, depth, the parent's tool call); its history rows carry the stack id. When the run ends the
 * stack is closed (`terminated_at`) and its activated tool groups are dropped. After a crash, a stack left open is
 * closed at start and its unfinished calls end `failed` (interrupted): the parent's call, interrupted too, re-runs
 * the whole sub-agent from its intent if the person says so (docs/agents.md "Crash and resume").
 */
import type { Db } from '../db/database';

export interface StackRow {
  id: number;
  session_id: number;
  agent_id: string;
  agent_prompt: string | null;
  depth: number;
  parent_tool_call_id: string | null;
  created_at: number;
  terminated_at: number | null;
}

export interface StackUsage {
  input_tokens: number;
  output_tokens: number;
  /** null when no row of the stack had a price. */
  cost: number | null;
}

export const INTERRUPTED_IN_SUBAGENT =
  'Interrupted when the app stopped, inside a sub-agent; the sub-agent is re-run as a whole if its caller is.';

export class StackStore {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = {
      open: db.prepare(
        'INSERT INTO chat_sessions_stack (session_id, agent_id, agent_prompt, depth, parent_tool_call_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      close: db.prepare('UPDATE chat_sessions_stack SET terminated_at = ? WHERE id = ? AND terminated_at IS NULL'),
      get: db.prepare('SELECT * FROM chat_sessions_stack WHERE id = ?'),
      byParentCall: db.prepare(
        'SELECT * FROM chat_sessions_stack WHERE session_id = ? AND parent_tool_call_id = ? ORDER BY id DESC LIMIT 1',
      ),
      lastAnswer: db.prepare(
        "SELECT content FROM chat_history WHERE stack_id = ? AND role = 'assistant' ORDER BY id DESC LIMIT 1",
      ),
      usage: db.prepare(
        "SELECT coalesce(sum(input_tokens), 0) AS input_tokens, coalesce(sum(output_tokens), 0) AS output_tokens, sum(cost) AS cost FROM chat_history WHERE stack_id = ? AND role = 'assistant'",
      ),
      openStacks: db.prepare('SELECT id FROM chat_sessions_stack WHERE terminated_at IS NULL'),
    };
  }

  open(s: { sessionId: number; agentId: string; prompt: string; depth: number; parentToolCallId: string }): number {
    return Number(
      this.q.open.run(s.sessionId, s.agentId, s.prompt, s.depth, s.parentToolCallId, Date.now()).lastInsertRowid,
    );
  }

  close(stackId: number): void {
    this.q.close.run(Date.now(), stackId);
  }

  get(stackId: number): StackRow | undefined {
    return this.q.get.get(stackId) as StackRow | undefined;
  }

  /** The (latest) stack a tool call started: a re-run call starts a new one. */
  byParentCall(sessionId: number, toolCallId: string): StackRow | undefined {
    return this.q.byParentCall.get(sessionId, toolCallId) as StackRow | undefined;
  }

  finalAnswer(stackId: number): string {
    return (this.q.lastAnswer.get(stackId) as { content: string } | undefined)?.content ?? '';
  }

  usage(stackId: number): StackUsage {
    return this.q.usage.get(stackId) as StackUsage;
  }

  /**
   * At start, before pending calls are re-registered: no turn is running, so every open stack was cut short. Its
   * unfinished calls end `failed` through the session store (the one writer of tool rows), in the same transaction.
   */
  closeInterrupted(failStackTools: (note: string) => void): number {
    return this.db.transaction(() => {
      const open = this.q.openStacks.all() as { id: number }[];
      failStackTools(INTERRUPTED_IN_SUBAGENT);
      for (const s of open) this.q.close.run(Date.now(), s.id);
      return open.length;
    })();
  }
}
