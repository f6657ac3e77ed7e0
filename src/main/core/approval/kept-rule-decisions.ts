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
import { PATH_ARG_KEYS } from '../tools/_policy/paths';

/** How many decisions are kept at most (all are dropped when that many are kept). */
const MAX_KEPT = 5_000;

/** What of a call its decision is kept by (the gate's `GateCall` has these). */
export interface KeyedCall {
  toolName: string;
  args: Record<string, unknown>;
  agentId: string;
  source: string;
}

/** One kept decision: the rest of what it was kept by (its tool is the map's key). */
interface Kept {
  groupId: string;
  agentId: string;
  source: string;
  decision: Decision;
}

/** Whether any path argument the guards would judge (`pathArguments`) is there: a string, or strings in an array. */
function hasPathArgument(args: Record<string, unknown>): boolean {
  for (const key of PATH_ARG_KEYS) {
    const v = args[key];
    if (
      typeof v === 'string' ? v !== '' : Array.isArray(v) && v.some((item) => typeof item === 'string' && item !== '')
    )
      return true;
  }
  return false;
}

/**
 * Looked up by tool, then by group, agent and source compared as they are: no key text built and hashed per call
 * (each cost a call's waited-on path a few microseconds after an idle).
 */
export class KeptRuleDecisions {
  private version = -1;
  private readonly byTool = new Map<string, Kept[]>();
  private size = 0;

  constructor(private readonly rulesVersion: () => number) {}

  /** Whether the rules alone decide the call (no path argument, no command, no secret stored). */
  applies(call: KeyedCall, tool: ToolTraits | null): boolean {
    return !tool?.commandKey && !tool?.storesSecret && !hasPathArgument(call.args);
  }

  /** The decision kept for the call in `groupId` under the rules as they are now, if any. */
  get(call: KeyedCall, groupId: string): Decision | undefined {
    const now = this.rulesVersion();
    if (this.version !== now) {
      this.version = now;
      this.clear();
      return undefined;
    }
    const kept = this.byTool.get(call.toolName);
    if (!kept) return undefined;
    for (const k of kept)
      if (k.groupId === groupId && k.agentId === call.agentId && k.source === call.source) return k.decision;
    return undefined;
  }

  /** Keeps `decision` for the call when it is the rules' allow or deny (asked for just before, by `get`). */
  keep(call: KeyedCall, groupId: string, decision: Decision): void {
    if (decision.why.kind !== 'rule' || decision.action === 'require') return;
    if (this.size >= MAX_KEPT) this.clear();
    Object.freeze(decision.why);
    if (decision.sandbox) Object.freeze(decision.sandbox);
    const entry: Kept = { groupId, agentId: call.agentId, source: call.source, decision: Object.freeze(decision) };
    const kept = this.byTool.get(call.toolName);
    if (kept) kept.push(entry);
    else this.byTool.set(call.toolName, [entry]);
    this.size++;
  }

  private clear(): void {
    this.byTool.clear();
    this.size = 0;
  }
}
