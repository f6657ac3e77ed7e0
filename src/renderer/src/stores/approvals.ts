/** Resolving an approval from its card: bound to the request id and the hash of the arguments shown (I6). */
import type { ToolCard } from '../../../shared/contract/chat';
import { skald } from '../bridge/skald';
import type { ApprovalDecision } from '../components/ApprovalCard';

export async function resolveApproval(card: ToolCard, decision: ApprovalDecision): Promise<void> {
  if (!card.pending) throw new Error('This call is not waiting for approval.');
  await skald.inbox.resolveApproval({
    requestId: card.pending.request_id,
    action: decision.action,
    note: decision.note,
    argsHash: card.pending.args_hash,
    ...(decision.bypassSecs !== undefined ? { bypassSecs: decision.bypassSecs } : {}),
  });
}
