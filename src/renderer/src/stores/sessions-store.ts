/** The session list and which session is open. */
import { createStore } from 'zustand/vanilla';
import { skald } from '../bridge/skald';

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

export async function createSession(): Promise<number> {
  const { id } = await skald.chat.createSession({});
  await refreshSessions();
  sessionsStore.setState({ activeId: id });
  return id;
}

export function selectSession(id: number): void {
  sessionsStore.setState({ activeId: id });
}
