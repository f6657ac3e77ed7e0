/**
 * The turns that start without a message from the chat box (docs/architecture.md "Crash and resume",
 * docs/scheduler.md): a background run's prompt, a result delivered by itself, the person's re-run of a call a crash
 * interrupted, a revert asked from the viewer, and the resume after a restart (R2). SessionManager holds the turns
 * (one at a time per session); these act through its host, as the person's messages do (message-actions.ts).
 * Check ids (R2) are listed in docs/security-checks.md.
 */
import type { ChatEventBody } from '../../../shared/contract/chat';
import { BridgeError } from '../../../shared/contract/define';
import type { SessionRow } from '../db/session-rows';
import type { ToolsPort } from './ports';
import type { SessionStore } from './session-store';
import { executeCall, startRound } from './tool-call';
import { runTurn, type TurnEnv, type TurnResult } from './turn';
import { continueUnfinished } from './unfinished-calls';

/** The arguments of a call that delivered a result by itself (its card's label says so; docs/scheduler.md). */
const DELIVERED_ARGS = '{"delivered":true}';

export interface TurnHost {
  store: SessionStore;
  tools: ToolsPort;
  /** The session's row; a BridgeError `not_found` for an unknown id. */
  session(sessionId: number): SessionRow;
  isRunning(sessionId: number): boolean;
  emitter(sessionId: number): (body: ChatEventBody) => void;
  /** Starts a turn running `body`; resolves with how it ended. */
  startTurn(sessionId: number, body: (env: TurnEnv) => Promise<TurnResult>): Promise<TurnResult>;
  /** Waits for the session's running turn. */
  settle(sessionId: number): Promise<TurnResult | null>;
  /** The app is quitting (`stopAll`): nothing delivered by itself starts a turn any more. */
  closing(): boolean;
}

/**
 * A background run's prompt (docs/scheduler.md): persisted and echoed like a person's message (never read as a
 * slash command), then a turn; resolves with how the turn ended. The session must not be running.
 */
export function runPrompt(host: TurnHost, sessionId: number, content: string): Promise<TurnResult> {
  host.session(sessionId);
  if (host.isRunning(sessionId)) throw new BridgeError('busy', `Session ${sessionId} is already running a turn.`);
  const messageId = host.store.appendMessage({ sessionId, role: 'user', content });
  host.emitter(sessionId)({ type: 'user_message', message_id: messageId, content, queued: false });
  return host.startTurn(sessionId, (env) => runTurn(env));
}

/**
 * Something that arrived by itself (an async task's `task_completed`, a batch of notifications) as a finished
 * call of `toolName` in the session's own history, then a turn so its agent reads it (docs/scheduler.md
 * "Delivery"). A running turn is waited for first: rows are never slipped into the middle of a round.
 * Resolves once the rows are written (the turn it starts runs on).
 */
export async function deliverResult(
  host: TurnHost,
  sessionId: number,
  toolName: string,
  result: string,
): Promise<void> {
  host.session(sessionId);
  while (host.isRunning(sessionId)) await host.settle(sessionId);
  if (host.closing()) return; // the app is quitting: no new turn (the result stays in its run's row)
  const emit = host.emitter(sessionId);
  const { messageId, key } = host.store.transaction(() => {
    const messageId = host.store.appendMessage({ sessionId, role: 'assistant', content: '' });
    const [key] = host.store.insertRoundTools(sessionId, messageId, [
      { id: 'delivered', name: toolName, arguments: DELIVERED_ARGS },
    ]);
    host.store.finishTool(key!, 'done', result, 'json');
    return { messageId, key: key! };
  });
  const label = host.tools.describeCall(toolName, { delivered: true }, 'short');
  emit({
    type: 'tool_start',
    tool_call_id: key,
    status: 'done', // written finished, in the transaction above
    message_id: messageId,
    name: toolName,
    arguments: DELIVERED_ARGS,
    label_short: label,
    label_full: label,
    path: null,
    display: host.tools.traitsOf(toolName)?.card ?? 'none',
  });
  emit({ type: 'tool_done', tool_call_id: key, status: 'done', result, result_type: 'json' });
  host.startTurn(sessionId, (env) => runTurn(env));
}

/** The user said "re-run" for a call a crash interrupted: back through the gate, then the turn continues. */
export function rerunTool(host: TurnHost, sessionId: number, toolCallId: string): boolean {
  const row = host.store.getTool(toolCallId);
  if (!row || row.session_id !== sessionId) throw new BridgeError('not_found', 'No such tool call in this session.');
  if (row.status !== 'running' || host.isRunning(sessionId)) return false;
  host.startTurn(sessionId, async (env) => {
    if ((await executeCall(env, { id: row.tool_call_id, name: row.name, arguments: row.arguments })) === 'cancelled')
      return 'cancelled';
    // The calls that waited behind it come next, in order.
    return continueUnfinished(env);
  });
  return true;
}

/**
 * A write the person asked for from the viewer (a revert): a real `write_file` call under the message of the
 * call it undoes, through the gate and its approval like any other write; no model round follows. Returns the
 * new call's id when its row is already written (its card shows in the chat).
 */
export function runPersonWrite(
  host: TurnHost,
  sessionId: number,
  messageId: number,
  path: string,
  content: string,
): string {
  host.session(sessionId);
  if (host.isRunning(sessionId))
    throw new BridgeError('busy', 'A turn is running in this session; revert once it has finished.');
  let id = '';
  host.startTurn(sessionId, async (env) => {
    const [call] = startRound(
      env,
      [{ id: 'revert', name: 'write_file', arguments: JSON.stringify({ path, content }) }],
      messageId,
    );
    id = call!.id;
    return (await executeCall(env, call!)) === 'cancelled' ? 'cancelled' : 'done';
  });
  return id;
}

/**
 * After a restart (R2): `pending` rows are asked again; `queued` rows (never started) and read-only/idempotent
 * `running` rows run through the gate with the current rules; side-effecting `running` ones wait for the user's
 * re-run, and the calls behind them wait with them. Queued messages become history.
 */
export function resumeAll(host: TurnHost): void {
  const sessions = new Set(host.store.activeTools().map((row) => row.session_id));
  for (const sessionId of sessions) resumeSession(host, sessionId);
}

/** Resumes one session's unfinished calls, unless a turn already runs there (it will reach them itself). */
export function resumeSession(host: TurnHost, sessionId: number): boolean {
  if (host.isRunning(sessionId)) return false;
  const rows = host.store.activeTools().filter((row) => row.session_id === sessionId);
  if (rows.length === 0) return false;
  host.store.unqueueAll(sessionId);
  host.startTurn(sessionId, (env) => continueUnfinished(env));
  return true;
}
