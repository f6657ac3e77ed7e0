/**
 * One tool call of a round, from the row to the result (docs/architecture.md "The path of one tool call"):
 * row written `running` + `tool_start` (labels, path) → the tool's normalized arguments (docs/approval.md "The
 * normalized call": the gate, card, hash, row and execution all use them) → the gate (decision recorded with the
 * row in one transaction) → approval if required → run (cancellable) → recorded as done / failed / cancelled /
 * rejected with its event. A bad argument or a throwing tool becomes a result the model can read (R7).
 * Check ids (R1, R7) are listed in docs/security-checks.md.
 */
import { MCP_PREFIX, TN } from '../../../shared/tool-names';
import type { ChatEventBody } from '../../../shared/contract/chat';
import type { RunContext } from '../../../shared/run-context';
import { driveExecution } from '../tools/execution';
import type { ExecutionOutcome, Normalized, ProtectedPaths, ToolArgs } from '../tools/tool';
import type { CallSecrets } from '../secrets/sealed-args';
import type { Decision, FileImagesPort, GatePort, ToolsPort } from './ports';
import type { ImageSnapshot } from '../viewer/blob-store';
import type { SessionStore } from './session-store';
import { z } from 'zod';
import { MAX_AGENT_DEPTH, frameLabel } from '../agents/frame';
import { clarificationTool, isSyntheticTool, normalizeSyntheticArgs, runSyntheticTool, type SyntheticEnv } from './synthetic-tools';

export interface CallEnv {
  store: SessionStore;
  tools: ToolsPort;
  gate: GatePort;
  emit: (body: ChatEventBody) => void;
  sessionId: number;
  agentId: string;
  source: string;
  runContext: RunContext;
  workingDir: string;
  workspaceDir: string;
  protectedRoots: string[];
  signal: AbortSignal;
  synthetic: SyntheticEnv;
  requestRestart: () => void;
  log: (message: string, fields?: Record<string, unknown>) => void;
  /** Seals secret arguments (set_secret's value …) before a row is written; opens them only to run. */
  secrets: CallSecrets;
  /** Keeps before/after images of write calls; absent in tests that do not need them. */
  fileImages?: FileImagesPort;
  /** Resume after a crash re-runs from intent: no new row, no file_changed (docs/architecture.md). */
  isResume?: boolean;
  /** The tools offered in this round; a call of another name is refused. Absent on resume (offered back then). */
  offered?: ReadonlySet<string>;
  /** Parallel sub-agent calls: awaited before the result is recorded, so results keep the call order. */
  beforeRecord?: () => Promise<void>;
}

export type CallOutcome = 'continue' | 'cancelled';
export const CANCELLED_NOTE = 'Stopped by the user (/stop) before it finished.';

export function parseArguments(raw: string): { ok: true; args: ToolArgs } | { ok: false; error: string } {
  try {
    const value: unknown = raw.trim() === '' ? {} : JSON.parse(raw);
    if (value && typeof value === 'object' && !Array.isArray(value)) return { ok: true, args: value as ToolArgs };
    return { ok: false, error: 'The arguments must be a JSON object.' };
  } catch (error) {
    return { ok: false, error: `The arguments are not valid JSON (${(error as Error).message}). Send them again as one JSON object.` };
  }
}

/**
 * The one normalized form of a call (docs/approval.md): registry and synthetic tools normalize by their own
 * schema; anything else (MCP) is passed on as sent. The Security page's "what would happen if…" uses it too.
 */
export function normalizeToolArgs(tools: Pick<ToolsPort, 'has' | 'normalize'>, name: string, args: ToolArgs, workingDir: string): Normalized {
  if (tools.has(name)) return tools.normalize(name, args, workingDir);
  if (isSyntheticTool(name)) return normalizeSyntheticArgs(name, args, workingDir);
  return { ok: true, args };
}

/** Exists, but not for this agent now: another depth's tool, outside its allow-list, a group not yet active. */
function notOfferedText(name: string, depth: number): string {
  if ((name === TN.EXECUTE_SUBTASK || name === TN.EXECUTE_TASK) && depth >= MAX_AGENT_DEPTH) {
    return `Sub-agents nest at most ${MAX_AGENT_DEPTH} deep and you are at depth ${depth}: do this work yourself.`;
  }
  return `The tool "${name}" is not available to you here. Use one of the tools you were given (a tool group you activate is offered from your next round).`;
}


function finish(env: CallEnv, id: string, outcome: ExecutionOutcome, name: string, path: string | null, before?: ImageSnapshot | null): CallOutcome {
  const { store, emit } = env;
  if (outcome.kind === 'completed') {
    // A write keeps its before/after images with its row, in one transaction (docs/viewer.md "Diff and revert").
    const after = before && path && env.fileImages ? env.fileImages.snapshot(path, env.workingDir) : null;
    store.transaction(() => {
      store.finishTool(id, 'done', outcome.result, outcome.resultType ?? 'string');
      if (before && after && path) env.fileImages!.record(id, path, before, after);
    });
    emit({ type: 'tool_done', tool_call_id: id, result: outcome.result, result_type: outcome.resultType ?? 'string' });
    // An edit changed its file: open viewers reload it. The tool's declared kind says so, not a list of names.
    if (!env.isResume && path && env.tools.kindOf(name) === 'edit') emit({ type: 'file_changed', path });
    return 'continue';
  }
  if (outcome.kind === 'failed') {
    store.finishTool(id, 'failed', outcome.error);
    emit({ type: 'tool_error', tool_call_id: id, error: outcome.error });
    return 'continue';
  }
  const note = outcome.note ?? CANCELLED_NOTE;
  store.finishTool(id, 'cancelled', note);
  emit({ type: 'tool_cancelled', tool_call_id: id, note });
  return 'cancelled';
}

function reject(env: CallEnv, id: string, reason: string): CallOutcome {
  env.store.finishTool(id, 'rejected', reason);
  env.emit({ type: 'tool_rejected', tool_call_id: id, reason });
  return 'continue';
}

/**
 * Starts the rows of a round's new calls (live turn): written `running` before anything runs (R1), in one
 * transaction. Returns the calls with the app's key in `id` (the model's id stays on the row for replay).
 */
export function startRound(env: CallEnv, calls: readonly { id: string; name: string; arguments: string }[], messageId: number): { id: string; name: string; arguments: string }[] {
  // Secret arguments are sealed before anything stores or shows them (docs/plugins.md, "Secret arguments").
  calls = calls.map((c) => ({ ...c, arguments: env.secrets.seal(c.name, c.arguments) }));
  const keys = env.store.insertRoundTools(env.sessionId, messageId, calls, env.synthetic.frame.stackId);
  return calls.map((call, i) => {
    const id = keys[i]!;
    const parsed = parseArguments(call.arguments);
    const args = parsed.ok ? parsed.args : {};
    env.emit({
      type: 'tool_start',
      tool_call_id: id,
      message_id: messageId,
      name: call.name,
      arguments: call.arguments,
      label_short: env.tools.describeCall(call.name, args, 'short'),
      label_full: env.tools.describeCall(call.name, args, 'full'),
      path: env.tools.targetPath(call.name, args),
    });
    return { id, name: call.name, arguments: call.arguments };
  });
}

/** Gate, approval, run and record for a row that already exists (`running`). */
export async function executeCall(env: CallEnv, call: { id: string; name: string; arguments: string }): Promise<CallOutcome> {
  const { store, gate, tools, emit } = env;
  const parsed = parseArguments(call.arguments);
  if (!parsed.ok) return finish(env, call.id, { kind: 'failed', error: parsed.error }, call.name, null);
  if (!tools.has(call.name) && !isSyntheticTool(call.name)) {
    return finish(env, call.id, { kind: 'failed', error: `There is no tool named "${call.name}". Use one of the tools you were given.` }, call.name, null);
  }
  // MCP tools are exempt: they are never hidden (a server down for a round lists none) and the gate decides each call.
  if (env.offered && !env.offered.has(call.name) && !call.name.startsWith(MCP_PREFIX)) return finish(env, call.id, { kind: 'failed', error: notOfferedText(call.name, env.synthetic.frame.depth) }, call.name, null);
  let opened;
  try {
    opened = env.secrets.open(call.name, parsed.args);
  } catch {
    return finish(env, call.id, { kind: 'failed', error: 'A secret argument of this call cannot be read any more (the key that sealed it is gone). Call the tool again.' }, call.name, null);
  }
  // Normalized in the clear (the schema must see the value), sealed again before it is hashed, stored or shown.
  const normalized = normalizeToolArgs(tools, call.name, opened.plain, env.workingDir);
  if (!normalized.ok) return finish(env, call.id, { kind: 'failed', error: normalized.error }, call.name, null);
  const args = opened.reseal(normalized.args);
  const argsJson = JSON.stringify(args);
  const category = tools.categoryOf(call.name);
  const hash = gate.argsHash(args);

  const gateCall = { sessionId: env.sessionId, agentId: env.agentId, source: env.source, toolName: call.name, category, args, runContext: env.runContext, workingDir: env.workingDir };
  let decision: Decision;
  try {
    decision = gate.check(gateCall);
  } catch (error) {
    // Fail closed: a gate that cannot decide asks the person: an error must never turn into an allow (docs/approval.md
    // "Evaluation order").
    decision = { action: 'require', why: { kind: 'load_error', text: `The rules could not be evaluated (${(error as Error).message}); asking.` }, actor: 'policy' };
  }
  // The decision is stored once, in the audit (`tool_decisions`), in the same transaction as the row it decides.
  store.transaction(() => {
    store.prepareTool(call.id, argsJson, hash);
    gate.recordDecision({ toolCallId: call.id, sessionId: env.sessionId, decision, argsHash: hash });
  });
  emit({ type: 'tool_decision', tool_call_id: call.id, decision, arguments: argsJson });

  if (decision.action === 'deny') return reject(env, call.id, `Denied by policy: ${decision.why.text}`);
  if (decision.action === 'require') {
    const preview = tools.preview(call.name, env.secrets.unseal(call.name, args), { workingDir: env.workingDir, workspaceDir: env.workspaceDir, protectedRoots: env.protectedRoots });
    let outcome;
    try {
      outcome = await gate.requestApproval({
        sessionId: env.sessionId, toolCallId: call.id, toolName: call.name, args, argsHash: hash, category,
        agentId: env.agentId, source: env.source, preview, contextLabel: frameLabel(env.synthetic.frame), signal: env.signal,
      });
    } catch {
      // The waiter was dropped (/stop): the row stays `pending` and is asked again on resume (docs/architecture.md
      // "Crash and resume").
      return 'cancelled';
    }
    const human: Decision = { action: outcome.approved ? 'allow' : 'deny', why: { kind: 'human', text: outcome.note ? `Decided by you: ${outcome.note}` : 'Decided by you.' }, actor: 'user' };
    store.transaction(() => {
      store.setToolStatus(call.id, 'running');
      gate.recordDecision({ toolCallId: call.id, sessionId: env.sessionId, decision: human, argsHash: hash });
    });
    emit({ type: 'tool_decision', tool_call_id: call.id, decision: human, arguments: argsJson });
    if (!outcome.approved) return reject(env, call.id, gate.rejectText(outcome.note));
  }
  if (env.signal.aborted) return finish(env, call.id, { kind: 'cancelled' }, call.name, null);
  return runApproved(env, call, args, () => gate.walkPolicy(gateCall));
}

async function runApproved(env: CallEnv, call: { id: string; name: string }, args: ToolArgs, walkPolicy: () => ProtectedPaths): Promise<CallOutcome> {
  const path = typeof args.path === 'string' ? args.path : null;
  if (call.name === TN.RESTART) {
    finish(env, call.id, { kind: 'completed', result: 'Restarting the app now.' }, call.name, null);
    env.requestRestart();
    return 'cancelled';
  }
  if (call.name === clarificationTool.name) return askUser(env, call.id, args);
  if (isSyntheticTool(call.name)) {
    let outcome: ExecutionOutcome;
    try {
      outcome = await runSyntheticTool(call.name, args, { env: env.synthetic, callEnv: env, toolCallId: call.id });
    } catch (error) {
      env.log('tool threw', { tool: call.name, error: String(error) });
      outcome = { kind: 'failed', error: `The tool failed unexpectedly: ${(error as Error).message}` };
    }
    await env.beforeRecord?.();
    return finish(env, call.id, outcome, call.name, path);
  }
  try {
    // Built on first use: only walks ask, and a no-op call should not pay for it.
    let policy: ProtectedPaths | null = null;
    const protectedPaths: ProtectedPaths = { excludes: (p) => (policy ??= walkPolicy()).excludes(p), describeUnder: (r) => (policy ??= walkPolicy()).describeUnder(r) };
    const ctx = { workingDir: env.workingDir, workspaceDir: env.workspaceDir, protectedRoots: env.protectedRoots, protectedPaths, signal: env.signal, log: env.log, call: { sessionId: env.sessionId, toolCallId: call.id } };
    // Before the run: an execution starts its work as it is created.
    const before = path && env.fileImages && env.tools.kindOf(call.name) === 'edit' ? env.fileImages.snapshot(path, env.workingDir) : null;
    const exec = env.tools.run(call.name, env.secrets.unseal(call.name, args), ctx);
    if (!exec) return finish(env, call.id, { kind: 'failed', error: `There is no tool named "${call.name}". Use one of the tools you were given.` }, call.name, null);
    return finish(env, call.id, await driveExecution(exec, env.signal), call.name, path, before);
  } catch (error) {
    env.log('tool threw', { tool: call.name, error: String(error) });
    return finish(env, call.id, { kind: 'failed', error: `The tool failed unexpectedly: ${(error as Error).message}` }, call.name, path);
  }
}

/** The question waits in the chat and the Inbox; a stop leaves the row `pending`, asked again on resume. */
async function askUser(env: CallEnv, id: string, args: ToolArgs): Promise<CallOutcome> {
  const parsed = clarificationTool.input.safeParse(args);
  if (!parsed.success) return finish(env, id, { kind: 'failed', error: `Invalid arguments for ${clarificationTool.name}: ${z.prettifyError(parsed.error)}` }, clarificationTool.name, null);
  const { title, question, suggested_answers } = parsed.data;
  try {
    const answer = await env.gate.requestClarification({
      sessionId: env.sessionId, toolCallId: id, title, question, suggestedAnswers: suggested_answers ?? [], contextLabel: frameLabel(env.synthetic.frame), signal: env.signal,
    });
    env.store.setToolStatus(id, 'running');
    return finish(env, id, { kind: 'completed', result: `The user answered: ${answer}` }, clarificationTool.name, null);
  } catch {
    return 'cancelled';
  }
}
