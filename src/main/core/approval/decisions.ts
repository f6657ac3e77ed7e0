/**
 * The "why" of every decision (docs/approval.md "The why", check C4 in docs/security-checks.md): a stable hash of
 * the arguments and the audit row in `tool_decisions`. `recordDecision` opens no transaction of its own: the caller
 * wraps it together with the tool-row write in one `db.transaction`, so both are written or neither is; it returns
 * the row's id, which the tool row keeps as the pointer to its latest decision (`chat_llm_tools.decision_id`).
 */
import { createHash, hash } from 'node:crypto';
import type { Decision } from '../../../shared/contract/approval';
import { statement, type Db } from '../db/database';
import type { SandboxDecision } from '../sandbox/decision';
import type { BypassGrant } from './bypass';

export type DecisionAction = Decision['action'];

/** A person's answer to an approval (the one outcome type from the Inbox to the session loop). */
export interface ApprovalOutcome {
  approved: boolean;
  note: string;
  bypass?: BypassGrant;
  timedOut?: boolean;
  /**
   * The person's choice on the card for this call alone ("with network", "outside the sandbox"; docs/approval.md
   * "The sandbox on the card"); absent = in the sandbox without network. Never comes with a bypass.
   */
  sandbox?: SandboxDecision;
}

/** One decision of one call, as the audit keeps it (who decided is the decision's own `actor`). */
export interface DecisionEntry {
  toolCallId: string;
  sessionId: number | null;
  decision: Decision;
  argsHash: string;
}

/**
 * JSON with object keys sorted at every depth (by UTF-16 code units, as `<` compares them); `undefined` and function
 * members dropped as JSON.stringify does, `null` in their place in an array. Written as loops over the keys, without
 * an array of entries and the closures around it: every tool call serializes its arguments here on its waited-on path.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      out += `${i > 0 ? ',' : ''}${v === undefined ? 'null' : canonicalJson(v)}`;
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  for (const key of keys) {
    const v = record[key];
    if (v === undefined || typeof v === 'function') continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${canonicalJson(v)}`;
  }
  return `${out}}`;
}

/**
 * sha256 of the canonical JSON, hex: the binding between what was shown and what runs (I6, X6). Node's one-shot
 * `crypto.hash` (Node ≥ 20.12, Electron's Node too) skips the Hash object `createHash` builds, a few microseconds of
 * every tool call; the digest is the same.
 */
const sha256Hex: (text: string) => string =
  typeof hash === 'function'
    ? (text) => hash('sha256', text, 'hex')
    : (text) => createHash('sha256').update(text).digest('hex');

export function argsHash(args: unknown): string {
  return sha256Hex(canonicalJson(args));
}

/**
 * The last arguments hashed, with their hash: a tool without arguments (`{}`) and a call repeated as it was hash the
 * same text, and a hash took such a call 16-22 µs of its waited-on path after an idle (docs/performance.md "What
 * keeps the waited-on paths fast"), where comparing the text takes a fraction of one.
 */
let lastHashed: Readonly<{ json: string; hash: string }> = Object.freeze({ json: '{}', hash: sha256Hex('{}') });
/** Longer arguments are hashed each time: the last call's text is not kept past it (nor is the hash worth keeping). */
const MAX_KEPT_JSON = 1024;

/**
 * A call's arguments as stored and shown (their canonical JSON) and the hash that binds them, from one serialization:
 * the text shown is the very text hashed.
 */
export function argsBinding(args: unknown): { json: string; hash: string } {
  const json = canonicalJson(args);
  if (json === lastHashed.json) return lastHashed;
  const bound = Object.freeze({ json, hash: sha256Hex(json) });
  if (json.length <= MAX_KEPT_JSON) lastHashed = bound;
  return bound;
}

const INSERT_DECISION = `INSERT INTO tool_decisions (tool_call_id, session_id, action, reason_kind, rule_id, detail, args_hash, actor, sandbox, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** How the audit keeps a decision's sandbox: 'network', 'unconfined', or null (in it without network). */
export const storedSandbox = (s: SandboxDecision | undefined): 'network' | 'unconfined' | null =>
  s?.mode === 'unconfined' ? 'unconfined' : s?.network ? 'network' : null;
/** The stored form read back. */
export const sandboxOf = (stored: string | null): SandboxDecision =>
  stored === 'unconfined' ? { mode: 'unconfined' } : { mode: 'sandboxed', network: stored === 'network' };

/** Writes the decision's audit row; returns its id (the tool row's `decision_id`). */
export function recordDecision(db: Db, entry: DecisionEntry): number {
  const { decision } = entry;
  const inserted = statement(db, INSERT_DECISION).run(
    entry.toolCallId,
    entry.sessionId,
    decision.action,
    decision.why.kind,
    decision.why.ruleId ?? null,
    decision.why.text,
    entry.argsHash,
    decision.actor,
    storedSandbox(decision.sandbox),
    Date.now(),
  );
  return Number(inserted.lastInsertRowid);
}
