/**
 * The folder relative paths mean on the Security page (docs/approval.md "Relative means the working directory"): a
 * relative path in a rule means the working directory of the session that makes the call, whichever it is. The page
 * says so, names the open session's folder when a session is open, and shows what the gate would do there.
 */
import { useStore } from 'zustand';
import { sessionsStore } from '../../stores/sessions-store';

export interface OpenFolder {
  /** The session open in the chat, or null when none is. */
  sessionId: number | null;
  title: string | null;
  workingDir: string | null;
}

export function useOpenFolder(): OpenFolder {
  const activeId = useStore(sessionsStore, (s) => s.activeId);
  const session = useStore(sessionsStore, (s) => s.sessions.find((x) => x.id === s.activeId) ?? null);
  return {
    sessionId: session ? activeId : null,
    title: session?.title ?? null,
    workingDir: session?.working_directory ?? null,
  };
}

/** What a relative path in a rule is relative to, in one sentence for the page. */
export function relativeHint(open: OpenFolder): string {
  const rule = 'Relative paths mean the working directory of the session that makes the call';
  if (open.sessionId === null || open.workingDir === null) return `${rule} (no session is open now).`;
  return `${rule}: for the open session (${open.title ?? `session ${open.sessionId}`}), ${open.workingDir}.`;
}
