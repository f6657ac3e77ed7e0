/**
 * The rules' allow or deny of a call that has no path argument, no shell command and stores no secret, kept by group,
 * tool, agent and source: all such a decision depends on (no guard, bypass or fast path takes part in it), until the
 * rules next change (`RulesRepository.version`). Deciding such a call again cost each of them tens of microseconds
 * on its waited-on path (docs/performance.md "What keeps the waited-on paths fast"). An ask is never kept: it goes
 * on to the bypass and the run context, which change without the rules. A kept decision is frozen, since several
 * calls are handed the same one.
 */
import type { Decision } from '../../../shared/contract/approval';
import type { ToolTraits } from '../../../shared/tool-traits';
import { pathArguments } from '../tools/_policy/paths';

/** How many decisions are kept at most (all are dropped when that many are kept). */
const MAX_KEPT = 5_000;

/** What of a call its key reads (the gate's `GateCall` has these). */
export interface KeyedCall {
  toolName: string;
  args: Record<string, unknown>;
  agentId: string;
  source: string;
}

export class KeptRuleDecisions {
  private version = -1;
  private readonly byCall = new Map<string, Decision>();

  constructor(private readonly rulesVersion: () => number) {}

  /** The key of a call the rules alone decide (no path argument, no command, no secret stored), else null. */
  keyOf(call: KeyedCall, tool: ToolTraits | null, groupId: string): string | null {
    if (tool?.commandKey || tool?.storesSecret || pathArguments(call.args).length > 0) return null;
    return `${groupId}\0${call.toolName}\0${call.agentId}\0${call.source}`;
  }

  /** The decision kept for `key` under the rules as they are now, if any. */
  get(key: string): Decision | undefined {
    const now = this.rulesVersion();
    if (this.version !== now) {
      this.version = now;
      this.byCall.clear();
    }
    return this.byCall.get(key);
  }

  /** Keeps `decision` for `key` when it is the rules' allow or deny (asked for just before, by `get`). */
  keep(key: string, decision: Decision): void {
    if (decision.why.kind !== 'rule' || decision.action === 'require') return;
    if (this.byCall.size >= MAX_KEPT) this.byCall.clear();
    Object.freeze(decision.why);
    if (decision.sandbox) Object.freeze(decision.sandbox);
    this.byCall.set(key, Object.freeze(decision));
  }
}
