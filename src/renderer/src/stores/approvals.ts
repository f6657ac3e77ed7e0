/**
 * What waits for the person, from every session, and the live bypasses: the one source the chat card and the Inbox
 * both read, so they show the same effective arguments and offer the same choices. Refreshed on every `inbox`
 * event (App subscribes), every 10 s, after a reconnect, and after each of our own decisions. Decisions are bound to
 * the request id and the hash of the arguments shown. A secret argument the person chose to reveal (docs/plugins.md "Revealing a
 * secret argument") is kept here by request id, only while that request is pending: hidden on request, and dropped
 * as soon as a refresh no longer lists the request (decided, withdrawn) or the store is reset.
 */
import { createStore } from 'zustand/vanilla';
import type { BypassDto } from '../../../shared/contract/approval';
import type { InboxApproval, InboxClarification } from '../../../shared/contract/inbox';
import type { RevealedArgument } from '../../../shared/sealed';
import type { SandboxChoice } from '../../../shared/contract/sandbox';
import type { BypassKind } from '../lib/bypass-choice';
import { skald } from '../bridge/skald';
import { sharedWatch } from './shared-watch';
import { onReconnect } from '../bridge/connection';

export interface ApprovalsState {
  approvals: InboxApproval[];
  clarifications: InboxClarification[];
  bypasses: BypassDto[];
  /** Secret arguments the person revealed, by request id; never persisted, never sent anywhere. */
  revealed: Record<number, readonly RevealedArgument[]>;
  /** False until the first list arrived. */
  loaded: boolean;
  error: string | null;
}

export interface ApprovalDecision {
  action: 'approve' | 'reject';
  note: string;
  /** Present = also grant a bypass for this long (0 = until the session ends) in the chosen scope. */
  bypass?: { secs: number; scope: BypassKind };
  /** This call alone runs with network or outside the sandbox (never with a bypass; docs/approval.md). */
  sandbox?: SandboxChoice;
}

const initial: ApprovalsState = {
  approvals: [],
  clarifications: [],
  bypasses: [],
  revealed: {},
  loaded: false,
  error: null,
};

/** The revealed values of the requests still pending; the rest are dropped (their card settled). */
export function keepRevealed(
  revealed: ApprovalsState['revealed'],
  pending: readonly Pick<InboxApproval, 'request_id'>[],
): ApprovalsState['revealed'] {
  const live = new Set(pending.map((a) => a.request_id));
  const kept = Object.entries(revealed).filter(([id]) => live.has(Number(id)));
  return kept.length === Object.keys(revealed).length ? revealed : Object.fromEntries(kept);
}

export function createApprovalsStore() {
  const store = createStore<ApprovalsState>(() => initial);
  let generation = 0;

  /** Reads the Inbox and the bypasses; a slower, older answer never overwrites a newer one. */
  async function refresh(): Promise<void> {
    const mine = ++generation;
    try {
      const [inbox, { bypasses }] = await Promise.all([skald.inbox.list({}), skald.approval.listBypasses({})]);
      if (mine === generation) {
        store.setState((s) => ({
          approvals: inbox.approvals,
          clarifications: inbox.clarifications,
          bypasses,
          revealed: keepRevealed(s.revealed, inbox.approvals),
          loaded: true,
          error: null,
        }));
      }
    } catch (e) {
      if (mine === generation) store.setState({ error: (e as Error).message });
    }
  }

  /**
   * Keeps the store fresh while anyone shows it (the chat, the Inbox): on every `inbox` event, every 10 s, and when the
   * link comes back after a drop. A list read before the server went away could still hold a request it decided; a
   * call re-run after the restart then showed that old request's buttons, and Approve answered "already decided".
   */
  const watch = sharedWatch(() => {
    void refresh();
    const off = skald.on.inbox(() => void refresh());
    const timer = setInterval(() => void refresh(), 10_000);
    const offReconnect = onReconnect(() => void refresh());
    return () => {
      off();
      offReconnect();
      clearInterval(timer);
    };
  });

  function hide(requestId: number): void {
    store.setState((s) => ({
      revealed: keepRevealed(
        s.revealed,
        s.approvals.filter((a) => a.request_id !== requestId),
      ),
    }));
  }

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
        ...(decision.action === 'approve' && decision.bypass
          ? { bypassSecs: decision.bypass.secs, bypassScope: decision.bypass.scope }
          : {}),
        ...(decision.action === 'approve' && decision.sandbox ? { sandbox: decision.sandbox } : {}),
      });
      hide(item.request_id); // decided: a revealed value goes with the card, even before the list is read again
      await refresh();
    },
    /** Asks the core to open this pending call's secret arguments (the person clicked Reveal); throws its refusal. */
    async reveal(requestId: number): Promise<void> {
      const { values } = await skald.inbox.revealSecrets({ requestId });
      // Decided or withdrawn while the answer travelled: the card is gone, so the value is not kept.
      store.setState((s) =>
        s.approvals.some((a) => a.request_id === requestId) ? { revealed: { ...s.revealed, [requestId]: values } } : {},
      );
    },
    hide,
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

export const approvalFor = (s: ApprovalsState, toolCallId: string) =>
  s.approvals.find((a) => a.tool_call_id === toolCallId) ?? null;
export const revealedFor = (s: ApprovalsState, requestId: number) => s.revealed[requestId] ?? null;
export const clarificationFor = (s: ApprovalsState, toolCallId: string) =>
  s.clarifications.find((c) => c.tool_call_id === toolCallId) ?? null;
/** Live grants only: an expired one disappears at its second, without waiting for a refresh. */
export const liveBypasses = (s: ApprovalsState, now: number, sessionId?: number) =>
  s.bypasses.filter(
    (b) => (b.expires_at === null || b.expires_at > now) && (sessionId === undefined || b.session_id === sessionId),
  );
