/**
 * Whether a chat waits for the model (docs/chat-ui.md "Retry and Continue"): what its newest message (not counting
 * those a Regenerate or an Edit replaced) says when no turn runs. One answer for both sides: the chat view offers the button from it, and the core refuses `chat:retry` where it
 * says there is nothing to do, so the button never offers what the call would refuse.
 *
 * - `retry`: the newest message is the person's and was never answered (the model request failed, the app stopped
 *   mid-turn, the turn was stopped before the model said anything), or it was queued behind a turn that then failed
 *   (the turn a retry starts takes it in, like any queued message).
 * - `continue`: the newest message is the model's round of tool calls, every one of them finished or its approval
 *   withdrawn (the turn stopped at its round limit, failed, or was stopped): the model has not read their results.
 * - null: the model answered, or something still waits (a call that runs, waits for a person, or waits for a re-run
 *   after a crash, each with its own button on its card), or the newest message is one a stop withdrew ("not sent").
 */
import type { HistoryMessage, ToolCard } from './contract/chat';
import { FINISHED_TOOL_STATUSES, type ToolStatus } from './tool-call';

export type AwaitingAnswer = 'retry' | 'continue' | null;

const FINISHED: ReadonlySet<ToolStatus> = new Set(FINISHED_TOOL_STATUSES);

/**
 * Finished, or a request for approval a stop withdrew (still `pending`, with nothing left to answer): the turn a
 * Continue starts ends it as cancelled first, as a new message would (session/unfinished-calls.ts).
 */
function isSettled(t: Pick<ToolCard, 'status' | 'interrupted' | 'pending'>): boolean {
  return (FINISHED.has(t.status) && !t.interrupted) || (t.status === 'pending' && t.pending === null);
}

/** The newest message that was not replaced by a Regenerate or an Edit (those are never answered again). */
export function newestStanding<T extends Pick<HistoryMessage, 'replaced'>>(messages: readonly T[]): T | undefined {
  for (let i = messages.length - 1; i >= 0; i--) if (!messages[i]!.replaced) return messages[i];
  return undefined;
}

/** What the chat waits for, from its messages (newest last; replaced ones are passed over). */
export function awaitingAnswer(
  messages: readonly Pick<HistoryMessage, 'role' | 'status' | 'tools' | 'replaced'>[],
): AwaitingAnswer {
  const newest = newestStanding(messages);
  if (!newest) return null;
  if (newest.role === 'user') return newest.status === 'ok' ? 'retry' : null;
  if (newest.role !== 'assistant' || newest.tools.length === 0) return null;
  return newest.tools.every(isSettled) ? 'continue' : null;
}
