/**
 * What waits for the person, from every session, and the live bypasses: the one source the chat card and the Inbox
 * both read, so they show the same effective arguments and offer the same choices. Refreshed on every `inbox`
 * event (App subscribes), every 10 s, and after each of our own decisions. Decisions are bound to the request id
 * and the hash of the arguments shown.
 */
import { createStore } from 'zustand/vanilla';
import type { BypassDto, InboxApproval, InboxClarification } from '../../../shared/contract/approval';
import type { BypassKind } from '../lib/bypass-choice';
import { skald } from '../bridge/skald';
import { sharedWatch } from './shared-watch';

export interface ApprovalsState {
  approvals: InboxApproval[];
  clarifications: InboxClarification[];
  bypasses: BypassDto[];
  /** False until the first list arrived. */
  loaded: boolean;
  error: string | null;
}

export interface ApprovalDecision {
  action: 'approve' | 'reject';
  note: string;
  /** Present = also grant a bypass for this long (0 = until the session ends) in the chosen scope. */
  bypass?: { secs: number; scope: BypassKind };
}

const initial: ApprovalsState = { approvals: [], clarifications: [], bypasses: [], loaded: false, error: null };

export function createApprovalsStore() {
  const store = createStore<ApprovalsState>(() => initial);
  let generation = 0;

  /** Reads the Inbox and the bypasses; a slower, older answer never overwrites a newer one. */
  async function refresh(): Promise<void> {
    const mine = ++generation;
    try {
      const [inbox, { bypasses }] = await Promise.all([skald.inbox.list({}), skald.approval.listBypasses({})]);
      if (mine === generation) store.setState({ approvals: inbox.approvals, clarifications: inbox.clarifications, bypasses, loaded: true, error: null });
    } catch (e) {
      if (mine === generation) store.setState({ error: (e as Error).message });
    }
  }

  /** Keeps the store fresh while anyone shows it (the chat, the Inbox): on every `inbox` event and every 10 s. */
  const watch = sharedWatch(() => {
    void refresh();
    const off = skald.on.inbox(() => void refresh());
    const timer = setInterval(() => void refresh(), 10_000);
    return () => {
      off();
      clearInterval(timer);
    };
  });

  return {
    store,
    refresh,
    watch,
    async resolve(item: InboxApproval, decision: ApprovalDecision): Promise<void> {
      await skald.inbox.resolveApproval({
        requestId: item.request_id,
        action: decision.action,
        note: decision.note,
        argsHash: item.args_hash,
        ...(decision.action === 'approve' && decision.bypass ? { bypassSecs: decision.bypass.secs, bypassScope: decision.bypass.scope } : {}),
      });
      await refresh();
    },
    async answer(requestId: number, answer: string): Promise<void> {
      await skald.inbox.answerClarification({ requestId, answer });
      await refresh();
    },
    async revoke(bypass: Pick<BypassDto, 'session_id' | 'id'>): Promise<void> {
      await skald.approval.revokeBypasses({ sessionId: bypass.session_id, id: bypass.id });
      await refresh();
    },
    reset() {
      generation++;
      store.setState(initial);
    },
  };
}

export type ApprovalsStore = ReturnType<typeof createApprovalsStore>;
export const approvals = createApprovalsStore();

export const approvalFor = (s: ApprovalsState, toolCallId: string) => s.approvals.find((a) => a.tool_call_id === toolCallId) ?? null;
export const clarificationFor = (s: ApprovalsState, toolCallId: string) => s.clarifications.find((c) => c.tool_call_id === toolCallId) ?? null;
/** Live grants only: an expired one disappears at its second, without waiting for a refresh. */
export const liveBypasses = (s: ApprovalsState, now: number, sessionId?: number) =>
  s.bypasses.filter((b) => (b.expires_at === null || b.expires_at > now) && (sessionId === undefined || b.session_id === sessionId));
