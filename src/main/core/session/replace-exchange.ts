/**
 * Regenerate and Edit (docs/chat-ui.md "Regenerate and Edit"): the newest exchange of a chat (the person's newest
 * sent message and every row of the chat's own stack after it) can be replaced: Regenerate asks the model again
 * for the answer, Edit sends the message again with other words. Nothing is deleted: the replaced rows stay in the
 * history (shown as replaced), marked `failed` with `replaced` in their metadata, and no request replays them.
 *
 * Only while no call of that exchange may have changed anything: a call of a tool that does more than read which
 * started (it ended, failed, or was stopped after it was allowed) stays done whatever the chat says next, and a model
 * that no longer sees it might do it again. Then the person is told to ask in a message instead.
 */
import { BridgeError } from '../../../shared/contract/define';
import type { ToolsPort } from './ports';
import type { MessageRow, SessionStore, ToolRow } from './session-store';

export interface Exchange {
  user: MessageRow;
  /** The chat's own rows after the person's message, oldest first. */
  after: MessageRow[];
  /** Their calls. */
  tools: ToolRow[];
}

export function newestExchange(store: SessionStore, sessionId: number): Exchange | null {
  const user = store.newestUserMessage(sessionId);
  if (!user) return null;
  const after = store.contextMessages(sessionId, user.id + 1);
  const tools = store.toolsFromMessage(sessionId, user.id + 1);
  return { user, after, tools };
}

const NEVER_RAN: ReadonlySet<string> = new Set(['rejected', 'queued']);

/** A call that started and may have changed something: a tool that does more than read, allowed to run. */
function mayHaveChanged(tools: ToolsPort, row: ToolRow): boolean {
  if (tools.kindOf(row.name) === 'read' || NEVER_RAN.has(row.status)) return false;
  if (row.status === 'pending') return false; // still waits for a person: it has not run
  if (row.status === 'cancelled')
    return (JSON.parse(row.latest_decision ?? 'null') as { action?: string } | null)?.action === 'allow';
  return true; // done, failed, running
}

/** Throws a BridgeError saying why the exchange cannot be replaced, or returns it. */
export function replaceableExchange(
  store: SessionStore,
  tools: ToolsPort,
  sessionId: number,
  what: 'regenerate' | 'edit',
): Exchange {
  const exchange = newestExchange(store, sessionId);
  if (!exchange)
    throw new BridgeError(
      'bad_request',
      'This chat has no message of yours to ' + (what === 'edit' ? 'edit.' : 'answer again.'),
    );
  if (what === 'regenerate' && exchange.after.length === 0)
    throw new BridgeError('bad_request', 'Your newest message has no answer yet: use Retry.');
  const changed = exchange.tools.filter((t) => mayHaveChanged(tools, t));
  if (changed.length) {
    const names = [...new Set(changed.map((t) => t.name))].join(', ');
    throw new BridgeError(
      'bad_request',
      `The answer ran ${names}, which may have changed something; ${what === 'edit' ? 'editing your message' : 'answering again'} would not undo that, and the model would no longer see it. Say what you want in a new message instead.`,
    );
  }
  return exchange;
}
