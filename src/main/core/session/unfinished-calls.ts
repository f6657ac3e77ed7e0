/**
 * The calls a restart left unfinished (docs/architecture.md "Crash and resume", check R2 in
 * docs/security-checks.md): taken up again in order, or ended when the person moves on past them.
 */
import type { ChatEventBody } from '../../../shared/contract/chat';
import type { PendingInfo } from './history';
import type { SessionStore } from './session-store';
import { executeCall } from './tool-call';
import { runTurn, type TurnEnv, type TurnResult } from './turn';

const INTERRUPTED_MOVED_ON = 'Interrupted when the app stopped, and not re-run: the conversation moved on.';
const STOPPED_WHILE_PENDING = 'Not run: the turn was stopped while this call waited for approval.';
const NOT_STARTED_MOVED_ON = 'Not started: it waited behind a call the app interrupted, and the conversation moved on.';

/**
 * Takes a session's unfinished calls in order, then the turn goes on. A side-effecting call the app interrupted
 * mid-run (`running`, nothing runs it now) may have half happened: each is shown interrupted, and the calls from
 * the first of them on wait for the person (`chat:rerunTool`, or a new message that moves on past them).
 */
export async function continueUnfinished(env: TurnEnv): Promise<TurnResult> {
  const rows = env.store.activeTools().filter((row) => row.session_id === env.sessionId);
  const interrupted = rows.filter((row) => row.status === 'running' && !env.tools.isIdempotent(row.name));
  for (const row of interrupted) env.emit({ type: 'tool_interrupted', tool_call_id: row.tool_call_id });
  for (const row of rows) {
    if (interrupted.includes(row)) return 'done';
    if ((await executeCall(env, { id: row.tool_call_id, name: row.name, arguments: row.arguments })) === 'cancelled')
      return 'cancelled';
  }
  return env.store.activeTools().some((r) => r.session_id === env.sessionId) ? 'done' : runTurn(env);
}

/**
 * A new message moves on past calls a crash interrupted: they end `failed`, so the model sees why; the calls that
 * waited behind them end `cancelled`, never started.
 */
export function failInterrupted(
  s: {
    store: SessionStore;
    emit: (body: ChatEventBody) => void;
    pendingOf: (toolCallId: string) => PendingInfo | null;
  },
  sessionId: number,
): void {
  for (const row of s.store.activeTools()) {
    if (row.session_id !== sessionId) continue;
    if (row.status === 'running') {
      s.store.finishTool(row.tool_call_id, 'failed', INTERRUPTED_MOVED_ON);
      s.emit({ type: 'tool_error', tool_call_id: row.tool_call_id, status: 'failed', error: INTERRUPTED_MOVED_ON });
    } else if (row.status === 'queued') {
      s.store.finishTool(row.tool_call_id, 'cancelled', NOT_STARTED_MOVED_ON);
      s.emit({
        type: 'tool_cancelled',
        tool_call_id: row.tool_call_id,
        status: 'cancelled',
        note: NOT_STARTED_MOVED_ON,
      });
    } else if (s.pendingOf(row.tool_call_id) === null) {
      // Its approval was withdrawn by /stop: nobody can approve it any more, so it ends as cancelled.
      s.store.finishTool(row.tool_call_id, 'cancelled', STOPPED_WHILE_PENDING);
      s.emit({
        type: 'tool_cancelled',
        tool_call_id: row.tool_call_id,
        status: 'cancelled',
        note: STOPPED_WHILE_PENDING,
      });
    }
  }
}
