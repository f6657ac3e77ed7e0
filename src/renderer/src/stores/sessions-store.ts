/** The session list and which session is open. */
import { createStore } from 'zustand/vanilla';
import { FIRST_SCREEN_CALL } from '../bridge/early-socket';
import { skald } from '../bridge/skald';
import { chat } from './chat-store';
import type { HistoryMessage } from '../../../shared/contract/chat';
import { chatToMarkdown, exportFileName } from '../lib/chat-export';

type Session = Awaited<ReturnType<typeof skald.chat.listSessions>>['sessions'][number];

export interface SessionsState {
  sessions: Session[];
  activeId: number | null;
  /** Bumped when providers or models may have changed (Settings closed): pickers reload. */
  modelsVersion: number;
}

export const sessionsStore = createStore<SessionsState>(() => ({ sessions: [], activeId: null, modelsVersion: 0 }));

export function modelsChanged(): void {
  sessionsStore.setState((s) => ({ modelsVersion: s.modelsVersion + 1 }));
}

export async function refreshSessions(): Promise<Session[]> {
  const { sessions } = await skald.chat.listSessions({});
  sessionsStore.setState({ sessions });
  return sessions;
}

let firstScreenAnswer: ReturnType<typeof skald.chat.listSessions> | null = null;

/**
 * Asks for the first screen's answer now, before React has rendered (the page's entry calls it first thing):
 * `openFirstScreen` then uses it, so the core's answer travels while the page's modules evaluate and render.
 */
export function requestFirstScreen(): void {
  firstScreenAnswer ??= skald.chat.listSessions(FIRST_SCREEN_CALL.request);
  firstScreenAnswer.catch(() => undefined); // a failure is retried by openFirstScreen
}

/**
 * The window's start: the session list and the newest session's page come in one answer, and that session opens with
 * the page (one round trip before the chat shows, not two: docs/ui.md "What the first page loads"); with no session
 * yet, a new one.
 */
export async function openFirstScreen(): Promise<void> {
  const asked = firstScreenAnswer;
  firstScreenAnswer = null;
  const ask = () => skald.chat.listSessions(FIRST_SCREEN_CALL.request);
  const { sessions, newestHistory } = await (asked ? asked.catch(ask) : ask());
  sessionsStore.setState({ sessions });
  // A session whose turn runs is read again when it opens: its page was answered before the window listened to
  // events, and what the turn sent meanwhile would be missing from it.
  if (newestHistory && !newestHistory.running) chat.prime(newestHistory);
  if (sessions[0]) selectSession(sessions[0].id);
  else await createSession();
}

/**
 * The folder a new session starts in: the one of the session the person was just in (else the most recent), so a
 * new session continues where they work (docs/chat-ui.md "Working directory"). Null = the default.
 */
function lastWorkingDirectory(): string | null {
  const { sessions, activeId } = sessionsStore.getState();
  return (sessions.find((s) => s.id === activeId) ?? sessions[0])?.working_directory ?? null;
}

/** Gives a just-created session the last working directory; a folder that no longer works leaves the default. */
async function inheritWorkingDirectory(id: number, from: string | null): Promise<void> {
  const created = sessionsStore.getState().sessions.find((s) => s.id === id);
  if (!from || created?.working_directory === from) return;
  await skald.chat.setWorkingDirectory({ sessionId: id, path: from }).catch(() => undefined);
}

export async function createSession(): Promise<number> {
  const from = lastWorkingDirectory();
  const { id } = await skald.chat.createSession({});
  await refreshSessions();
  await inheritWorkingDirectory(id, from);
  await refreshSessions();
  sessionsStore.setState({ activeId: id });
  return id;
}

/** A session the core created (the `/new` command): it inherits the directory too, then opens. */
export async function openCreatedSession(id: number): Promise<void> {
  const from = lastWorkingDirectory();
  await refreshSessions();
  await inheritWorkingDirectory(id, from);
  await refreshSessions();
  selectSession(id);
}

export async function renameSession(id: number, title: string): Promise<void> {
  await skald.chat.renameSession({ sessionId: id, title });
  await refreshSessions();
}

/** Pins a chat to the top of the list, or unpins it. */
export async function pinSession(id: number, pinned: boolean): Promise<void> {
  await skald.chat.pinSession({ sessionId: id, pinned });
  await refreshSessions();
}

/** Asks the core to delete a chat; every window (this one too) follows on its `session_deleted` event. */
export async function deleteSession(id: number): Promise<void> {
  await skald.chat.deleteSession({ sessionId: id });
}

/**
 * A chat was deleted (here or in another window): the list is read again, and a window that showed it opens the chat
 * that took its place in the list (the next older one, else the newest), or a new one when none is left.
 */
export async function sessionDeleted(id: number): Promise<void> {
  const before = sessionsStore.getState();
  const at = before.sessions.findIndex((s) => s.id === id);
  const sessions = await refreshSessions();
  if (before.activeId !== id) return;
  const next = sessions[Math.min(Math.max(at, 0), sessions.length - 1)];
  if (next) selectSession(next.id);
  else await createSession();
}

/** Every message of a chat, oldest first: the history's pages read back from the newest. */
async function wholeHistory(sessionId: number): Promise<HistoryMessage[]> {
  const pages: HistoryMessage[][] = [];
  let beforeId: number | undefined;
  for (;;) {
    const page = await skald.chat.history({ sessionId, limit: 2_000, ...(beforeId === undefined ? {} : { beforeId }) });
    pages.unshift(page.messages);
    if (!page.hasMore || page.messages.length === 0) break;
    beforeId = page.messages[0]!.id;
  }
  return pages.flat();
}

/** Downloads a chat as a Markdown file (docs/chat-ui.md "Exporting a chat"). */
export async function exportSession(id: number): Promise<void> {
  const session = sessionsStore.getState().sessions.find((s) => s.id === id);
  const title = session?.title ?? `Chat ${id}`;
  const markdown = chatToMarkdown(title, await wholeHistory(id), new Date());
  const url = URL.createObjectURL(new Blob([markdown], { type: 'text/markdown;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = exportFileName(title, id);
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function selectSession(id: number): void {
  sessionsStore.setState({ activeId: id });
}

export const activeSession = (s: SessionsState) => s.sessions.find((x) => x.id === s.activeId) ?? null;
