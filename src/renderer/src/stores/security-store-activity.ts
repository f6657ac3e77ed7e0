/**
 * The live side of the Security page (docs/ui.md): the active bypasses of every session and the decision log.
 * View state only; bypasses live in the core's memory and decisions in its database. Revoking goes through the
 * core and re-reads, so what is shown is what the gate will use.
 */
import { createStore } from 'zustand/vanilla';
import type { BypassDto, DecisionLogEntry } from '../../../shared/contract/approval';
import { skald } from '../bridge/skald';

export interface ActivityState {
  bypasses: BypassDto[];
  /** Session titles by id, for the bypass list. */
  sessionTitles: Record<number, string>;
  decisions: DecisionLogEntry[];
  query: string;
  action: DecisionLogEntry['action'] | '';
  error: string | null;
}

const initial = (): ActivityState => ({
  bypasses: [],
  sessionTitles: {},
  decisions: [],
  query: '',
  action: '',
  error: null,
});
export const activityStore = createStore<ActivityState>(initial);
export const resetActivityStore = () => activityStore.setState(initial(), true);

const fail = (e: unknown) => activityStore.setState({ error: (e as Error).message });

export async function loadBypasses(): Promise<void> {
  try {
    const [{ bypasses }, { sessions }] = await Promise.all([
      skald.approval.listBypasses({}),
      skald.chat.listSessions({}),
    ]);
    activityStore.setState({
      bypasses,
      sessionTitles: Object.fromEntries(sessions.map((s) => [s.id, s.title])),
      error: null,
    });
  } catch (e) {
    fail(e);
  }
}

export async function revokeBypass(b: BypassDto): Promise<void> {
  try {
    await skald.approval.revokeBypasses({ sessionId: b.session_id, id: b.id });
  } catch (e) {
    fail(e);
  }
  await loadBypasses();
}

/** Every bypass of every session. */
export async function revokeAllBypasses(): Promise<void> {
  const sessions = [...new Set(activityStore.getState().bypasses.map((b) => b.session_id))];
  try {
    await Promise.all(sessions.map((sessionId) => skald.approval.revokeBypasses({ sessionId })));
  } catch (e) {
    fail(e);
  }
  await loadBypasses();
}

export async function loadDecisions(filter: Partial<Pick<ActivityState, 'query' | 'action'>> = {}): Promise<void> {
  activityStore.setState(filter);
  const { query, action } = activityStore.getState();
  try {
    const { decisions } = await skald.approval.listDecisions({
      ...(query.trim() ? { query: query.trim() } : {}),
      ...(action ? { action } : {}),
      limit: 200,
    });
    // A slower, older search must not overwrite a newer one.
    const now = activityStore.getState();
    if (now.query === query && now.action === action) activityStore.setState({ decisions, error: null });
  } catch (e) {
    fail(e);
  }
}
