/**
 * What a screen reader is told without the focus moving (docs/ui.md "What is announced"): an approval or a question
 * waiting, a turn of the open chat finished, stopped or failed, a tool of the open chat that failed. Each is said
 * once, in one short sentence, through one polite live region (components/LiveAnnouncer.tsx), so the person typing
 * in the message box is never interrupted or moved; a sentence leaves the region after a few seconds, so reading the
 * page later does not find it there.
 *
 * `sentenceOf` is the rule, a pure function of the event and what the chat shows; the store keeps the few sentences
 * on screen and remembers what was said (a request or call is never announced twice, also after a reconnect replays
 * it).
 */
import { createStore } from 'zustand/vanilla';
import type { ChatEvent, ToolCard } from '../../../shared/contract/chat';
import { plainToolLabel } from '../lib/plain-label';

/** How long a sentence stays in the live region. */
export const SPOKEN_MS = 6_000;
/** At most this many at once (a burst: a tool failed and the turn ended). */
const MAX_SHOWN = 3;

export interface Spoken {
  id: number;
  text: string;
}

interface AnnouncerState {
  spoken: Spoken[];
}

export const announcerStore = createStore<AnnouncerState>(() => ({ spoken: [] }));

/** What the announcer needs to know about the chat the event belongs to. */
export interface ChatContext {
  /** The chat open in the window. */
  openSessionId: number | null;
  /** The open chat's card of a call, for its label. */
  cardOf: (toolCallId: string) => ToolCard | undefined;
  /** The open chat's turn had already failed (its end then says nothing more). */
  turnFailed: boolean;
}

/** The sentence an event is announced with, or null: most events are shown, not said. */
export function sentenceOf(event: ChatEvent, context: ChatContext): string | null {
  const isOpen = event.session_id === context.openSessionId;
  const where = isOpen ? '' : ' in another chat';
  const label = (toolCallId: string, fallback: string) => {
    const card = isOpen ? context.cardOf(toolCallId) : undefined;
    return card ? plainToolLabel(card.label_full) : fallback;
  };
  switch (event.type) {
    case 'approval_required':
      return `${label(event.tool_call_id, event.tool_name)}, waiting for your approval${where}.`;
    // A write or a command with its preview: the path is the file's, or `$ <tool>` for a command line.
    case 'pending_write':
      return `${label(event.tool_call_id, event.path.replace(/^\$ /, ''))}, waiting for your approval${where}.`;
    case 'agent_question':
      return `The agent asks${where}: ${event.title}.`;
    default:
      break;
  }
  // The rest concerns the open chat's own turn (a sub-agent's steps show in its card).
  if (!isOpen || event.stack_id !== undefined) return null;
  switch (event.type) {
    case 'tool_error':
      return `${label(event.tool_call_id, 'A tool')} failed.`;
    case 'error':
      return `The turn failed: ${firstLine(event.message)}`;
    case 'llm_failed':
      return `The turn failed: no model answered. ${firstLine(event.last_error)}`;
    case 'cancelled':
      return 'The turn stopped.';
    case 'turn_running':
      return event.running || context.turnFailed ? null : 'The agent finished.';
    default:
      return null;
  }
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0]!.trim();
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

let nextId = 1;
/** Requests and calls already announced (an event replayed after a reconnect is not said again). */
const said = new Set<string>();
/** Sessions whose running turn failed or stopped (its end then adds nothing). */
const endedEarly = new Set<number>();

function keyOf(event: ChatEvent): string | null {
  if (event.type === 'approval_required' || event.type === 'pending_write' || event.type === 'agent_question')
    return `request:${event.request_id}`;
  if (event.type === 'tool_error') return `error:${event.tool_call_id}`;
  return null;
}

/** Puts a sentence in the live region for SPOKEN_MS. */
export function announce(text: string): void {
  const id = nextId++;
  announcerStore.setState((s) => ({ spoken: [...s.spoken, { id, text }].slice(-MAX_SHOWN) }));
  setTimeout(() => announcerStore.setState((s) => ({ spoken: s.spoken.filter((x) => x.id !== id) })), SPOKEN_MS);
}

/** Announces a chat event if it is one of those said (App.tsx calls it for every chat event). */
export function announceChatEvent(event: ChatEvent, chat: Omit<ChatContext, 'turnFailed'>): void {
  if (event.type === 'turn_running' && event.running) endedEarly.delete(event.session_id);
  const text = sentenceOf(event, { ...chat, turnFailed: endedEarly.has(event.session_id) });
  if (
    event.session_id === chat.openSessionId &&
    event.stack_id === undefined &&
    (event.type === 'error' || event.type === 'llm_failed' || event.type === 'cancelled')
  )
    endedEarly.add(event.session_id);
  if (text === null) return;
  const key = keyOf(event);
  if (key !== null) {
    if (said.has(key)) return;
    said.add(key);
  }
  announce(text);
}
