/**
 * What the person does with messages, besides the slash commands (docs/chat-ui.md): a message posted (written and
 * echoed first, then its turn or queued behind the running one), Edit and Regenerate of the newest exchange
 * (replace-exchange.ts), and Retry / Continue. SessionManager holds the turns; these act through its host.
 */
import { awaitingAnswer } from '../../../shared/awaiting-answer';
import type { ChatEventBody, HistoryMessage } from '../../../shared/contract/chat';
import { BridgeError } from '../../../shared/contract/define';
import type { PendingInfo } from './history';
import type { ToolsPort } from './ports';
import { replaceableExchange } from './replace-exchange';
import type { NewChatImage, SessionStore } from './session-store';
import { titleFromMessage } from './session-title';
import { isSlashCommand } from './slash-commands';
import { failInterrupted } from './unfinished-calls';

export interface MessageHost {
  store: SessionStore;
  tools: ToolsPort;
  pendingOf: (toolCallId: string) => PendingInfo | null;
  isRunning(sessionId: number): boolean;
  emitter(sessionId: number): (body: ChatEventBody) => void;
  /** A turn of the session's agent on its history as it stands. */
  startTurn(sessionId: number): void;
  /** The newest `limit` messages of the session's history page. */
  history(sessionId: number, limit: number): HistoryMessage[];
}

/** A request a stop withdrew ends here, as the person moved on (unfinished-calls.ts). */
const moveOn = (host: MessageHost, sessionId: number, emit = host.emitter(sessionId)) =>
  failInterrupted({ store: host.store, emit, pendingOf: host.pendingOf }, sessionId);

/**
 * The person's message written and echoed, then its turn (or queued behind the running one). `replacing`: the
 * chat's rows from that id on are replaced in the same transaction (Edit), so a crash leaves the old exchange or
 * the new message, never neither.
 */
export function postMessage(
  host: MessageHost,
  sessionId: number,
  content: string,
  images: readonly NewChatImage[],
  replacing?: number,
): number {
  const { store } = host;
  const emit = host.emitter(sessionId);
  const running = host.isRunning(sessionId);
  const append = () => store.appendMessage({ sessionId, role: 'user', content, queued: running, images });
  const messageId =
    replacing === undefined ? append() : store.transaction(() => (store.markReplaced(sessionId, replacing), append()));
  if (replacing !== undefined) emit({ type: 'messages_replaced', from_id: replacing });
  const shown = images.length
    ? store.images.listed(sessionId, messageId, messageId).byMessage.get(messageId)
    : undefined;
  emit({ type: 'user_message', message_id: messageId, content, queued: running, ...(shown ? { images: shown } : {}) });
  if (!running) {
    if (!store.getSession(sessionId)!.title)
      store.rename(sessionId, titleFromMessage(content || images.map((i) => i.name).join(', ')));
    moveOn(host, sessionId, emit);
    host.startTurn(sessionId);
  }
  return messageId;
}

/**
 * Edit (docs/chat-ui.md "Regenerate and Edit"): the person's newest message and what followed it are replaced
 * (kept, out of the model's context) and the new words are sent in their place, with the message's images.
 */
export function editMessage(host: MessageHost, sessionId: number, messageId: number, content: string): number {
  if (host.isRunning(sessionId))
    throw new BridgeError('busy', 'A turn is running in this chat: stop it first, then edit.');
  if (isSlashCommand(content)) throw new BridgeError('bad_request', 'A command is not a message: send it on its own.');
  const { user } = replaceableExchange(host.store, host.tools, sessionId, 'edit');
  if (user.id !== messageId) throw new BridgeError('bad_request', 'Only your newest message can be edited.');
  const images = host.store.images.copiesOf(sessionId, user.id);
  if (!content && images.length === 0) throw new BridgeError('bad_request', 'A message needs text or an image.');
  return postMessage(host, sessionId, content, images, user.id);
}

/** Regenerate (docs/chat-ui.md "Regenerate and Edit"): the answer to the person's newest message is replaced and asked for again. */
export function regenerate(host: MessageHost, sessionId: number): void {
  if (host.isRunning(sessionId)) throw new BridgeError('busy', 'A turn is already running in this chat.');
  const { user } = replaceableExchange(host.store, host.tools, sessionId, 'regenerate');
  host.store.markReplaced(sessionId, user.id + 1);
  const emit = host.emitter(sessionId);
  emit({ type: 'messages_replaced', from_id: user.id + 1 });
  moveOn(host, sessionId, emit);
  host.startTurn(sessionId);
}

/**
 * Retry / Continue (docs/chat-ui.md "Retry and Continue"): a turn on the history as it stands, with no new message,
 * where the chat waits for the model (src/shared/awaiting-answer.ts): the person's unanswered message, or a round
 * of finished calls whose results the model has not read. Nothing is re-sent or re-run; the same rows are replayed.
 */
export function retryTurn(host: MessageHost, sessionId: number): void {
  if (host.isRunning(sessionId)) throw new BridgeError('busy', 'A turn is already running in this chat.');
  // A page, not one message: the newest may be answers a Regenerate replaced (passed over).
  if (awaitingAnswer(host.history(sessionId, 50)) === null)
    throw new BridgeError(
      'bad_request',
      'Nothing to retry: the model has answered the newest message, or a call still waits.',
    );
  moveOn(host, sessionId);
  host.startTurn(sessionId);
}
