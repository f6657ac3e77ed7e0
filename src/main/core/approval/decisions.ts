/**
 * The "why" of every decision (docs/approval.md "The why", check C4 in docs/security-checks.md): a stable hash of
 * the arguments and the audit row in `tool_decisions`. `recordDecision` opens no transaction of its own: the caller
 * wraps it together with the tool-row write in one `db.transaction`, so both are written or neither is; it returns
 * the row's id, which the tool row keeps as the pointer to its latest decision (`chat_llm_tools.decision_id`).
 */
import { createHash, hash } from 'node:crypto';
import type { Decision } from '../../../shared/contract/approval';
import { statement, type Db } from '../db/database';
import type { BypassGrant } from './bypass';

export type DecisionAction = Decision['action'];

/** A person's answer to an approval (the one outcome type from the Inbox to the session loop). */
export interface ApprovalOutcome {
  approved: boolean;
  note: string;
  bypass?: BypassGrant;
  timedOut?: boolean;
}

/** One decision of one call, as the audit keeps it (who decided is the decision's own `actor`). */
export interface DecisionEntry {
  toolCallId: string;
  sessionId: number | null;
  decision: Decision;
  argsHash: string;
}

/** JSON with object keys sorted at every depth; `undefined` members dropped as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined && typeof v !== 'function')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
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
 * A call's arguments as stored and shown (their canonical JSON) and the hash that binds them, from one serialization:
 * the text shown is the very text hashed.
 */
export function argsBinding(args: unknown): { json: string; hash: string } {
  const json = canonicalJson(args);
  return { json, hash: sha256Hex(json) };
}

const INSERT_DECISION = `INSERT INTO tool_decisions (tool_call_id, session_id, action, reason_kind, rule_id, detail, args_hash, actor, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;

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
    Date.now(),
  );
  return Number(inserted.lastInsertRowid);
}
