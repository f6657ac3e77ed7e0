/**
 * One tool call of a round, from the row to the result (docs/architecture.md "The path of one tool call"):
 * the tool's normalized arguments (docs/approval.md "The normalized call": the gate, card, hash, row and execution
 * all use them) → the gate → its decision recorded with the row, which is `running` from then on, in one
 * transaction (for a round's first call, the transaction that writes the round's rows `queued`: `RoundRows`), then
 * `tool_start` (labels, path) and `tool_decision` → approval if required → run (cancellable) → recorded as done /
 * failed / cancelled / rejected with its event: one commit before the tool runs (fsync'd unless the call has no
 * consequence: `needsSyncedStart`), one fsync'd commit after. A bad argument or a throwing tool becomes a result the
 * model can read (R7).
 * Check ids (R1, R7) are listed in docs/security-checks.md.
 */
import { clarificationResult } from '../../../shared/clarification-answer';
import { MCP_PREFIX, TN } from '../../../shared/tool-names';
import { humanDecisionText } from '../../../shared/contract/approval';
import { parseToolArguments } from '../../../shared/tool-arguments';
import { invalidArgumentsText } from '../tools/define-tool';
import { driveExecution, SettledExecution } from '../tools/execution';
import { overLongPathText, PATH_ARG_KEYS } from '../tools/_policy/paths';
import type { ExecutionOutcome, Normalized, ProtectedPaths, ToolArgs, ToolRunContext } from '../tools/tool';
import { isSealedWhole, SEALED_WHOLE_TEXT } from '../secrets/sealed-args';
import type { Decision, ToolsPort } from './ports';
import type { NewMessage } from './session-store';
import { z } from 'zod';
import { failCall, finish, reject } from './call-results';
import { commitCall, noWork, RoundRows, SYNCED, UNSYNCED } from './round-rows';

import type { CallEnv, CallOutcome, ModelCall } from './call-env';
import type { RoundCall } from './round-rows';

export type { CallEnv, CallOutcome, ModelCall } from './call-env';
export type { RoundCall } from './round-rows';
export { CANCELLED_NOTE, NOT_STARTED_NOTE, cancelNotStarted } from './call-results';
export { RoundRows } from './round-rows';
import { isDiskFull } from '../db/storage-errors';
import { MAX_AGENT_DEPTH, frameLabel } from '../agents/frame';
import { clarificationTool, isSyntheticTool, normalizeSyntheticArgs, runSyntheticTool } from './synthetic-tools';

/** The card's status a decision event says: `running` (as its row is written), none for a deny (its rejection follows). */
const decisionStatus = (decision: Decision): { status?: 'running' } =>
  decision.action === 'deny' ? {} : { status: 'running' };

/**
 * Whether the commit that records a call's decision must reach the disk (fsync) before the call runs
 * (docs/performance.md "Durability follows consequence"). Not for a call the gate allowed of a tool of ours that
 * only reads (`kind: 'read'`): it changes nothing, so an operating-system crash that rolled back its row and the
 * answer before it would leave the world as the database then says; its result's commit, fsync'd, makes both
 * durable before anything of the call leaves the app (the result reaches the model with the next request). Every
 * other call (an edit, a command, an MCP tool whose effects we cannot know, one a person must approve, a refusal)
 * keeps its fsync'd commit before it runs (R1).
 */
function needsSyncedStart(tools: ToolsPort, name: string, decision: Decision): boolean {
  return !(decision.action === 'allow' && tools.kindOf(name) === 'read');
}

/**
 * The one normalized form of a call (docs/approval.md): registry and synthetic tools normalize by their own
 * schema; anything else (MCP) is passed on as sent, but for a path argument longer than the system takes. The
 * Security page's "what would happen if…" uses it too.
 */
export function normalizeToolArgs(
  tools: Pick<ToolsPort, 'has' | 'normalize'>,
  name: string,
  args: ToolArgs,
  workingDir: string,
): Normalized {
  if (tools.has(name)) return tools.normalize(name, args, workingDir);
  // The gate judges these arguments as paths (PATH_ARG_KEYS), whatever the tool makes of them; the registry's tools
  // check their own path arguments, aliases included (`Tool.normalize`).
  for (const key of PATH_ARG_KEYS) {
    const problem = overLongPathText(key, args[key]);
    if (problem) return { ok: false, error: invalidArgumentsText(name, [problem]) };
  }
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

/**
 * Keys a round's new calls (live turn) and seals their secret arguments; their rows are written `queued` with the
 * round's first commit, before anything runs (R1, `RoundRows`). `message` is the id of the message the calls
 * belong to, or the assistant message to write with them. Returns the calls with the app's key in `id` (the
 * model's id stays on the row for replay).
 */
export function startRound(
  env: CallEnv,
  calls: readonly ModelCall[],
  message: number | NewMessage,
  onWritten?: (messageId: number) => void,
): RoundCall[] {
  // Secret arguments are sealed before anything stores or shows them (docs/plugins.md, "Secret arguments").
  const keyed = calls.map((c) => {
    const sealed = env.secrets.seal(c.name, c.arguments);
    return {
      id: c.id,
      name: c.name,
      arguments: sealed,
      key: env.store.mintToolKey(),
      parsed: parseToolArguments(sealed),
    };
  });
  const round = new RoundRows(env, message, keyed, onWritten);
  return keyed.map((c) => ({ id: c.key, name: c.name, arguments: c.arguments, round, parsed: c.parsed }));
}

/**
 * Gate, approval, run and record for a call: a row that exists (`queued`, or unfinished after a restart), or one of
 * a round whose rows are written with this call's decision.
 */
export async function executeCall(env: CallEnv, call: RoundCall): Promise<CallOutcome> {
  const { store, gate, tools, emit } = env;
  const parsed = call.parsed ?? parseToolArguments(call.arguments);
  if (!parsed.ok) return failCall(env, call, parsed.error);
  if (isSealedWhole(parsed.args)) return failCall(env, call, SEALED_WHOLE_TEXT);
  if (!tools.has(call.name) && !isSyntheticTool(call.name))
    return failCall(env, call, `There is no tool named "${call.name}". Use one of the tools you were given.`);
  // MCP tools are exempt: they are never hidden (a server down for a round lists none) and the gate decides each call.
  if (env.offered && !env.offered.has(call.name) && !call.name.startsWith(MCP_PREFIX))
    return failCall(env, call, notOfferedText(call.name, env.synthetic.frame.depth));
  let opened;
  try {
    opened = env.secrets.open(call.name, parsed.args);
  } catch {
    return failCall(
      env,
      call,
      'A secret argument of this call cannot be read any more (the key that sealed it is gone). Call the tool again.',
    );
  }
  // Normalized in the clear (the schema must see the value), sealed again before it is hashed, stored or shown.
  const normalized = normalizeToolArgs(tools, call.name, opened.plain, env.workingDir);
  if (!normalized.ok) return failCall(env, call, normalized.error);
  const args = opened.reseal(normalized.args);
  const { json: argsJson, hash } = gate.argsBinding(args);
  const category = tools.categoryOf(call.name);

  const gateCall = {
    sessionId: env.sessionId,
    agentId: env.agentId,
    source: env.source,
    toolName: call.name,
    category,
    args,
    runContext: env.runContext,
    workingDir: env.workingDir,
  };
  let decision: Decision;
  try {
    const ready = gate.whenReadyFor(gateCall);
    if (ready) await ready; // only when the gate cannot read the call yet (docs/shell-analysis.md "Cold start")
    decision = gate.check(gateCall);
  } catch (error) {
    // Fail closed: a gate that cannot decide asks the person: an error must never turn into an allow (docs/approval.md
    // "Evaluation order").
    decision = {
      action: 'require',
      why: { kind: 'load_error', text: `The rules could not be evaluated (${(error as Error).message}); asking.` },
      actor: 'policy',
    };
  }
  // The decision is stored once, in the audit (`tool_decisions`), in the same transaction as the row it decides, which
  // points at it (for a round's first call, the transaction that writes the round's rows, this row written with its
  // decision: one commit before the tool runs).
  commitCall(
    env,
    call,
    noWork,
    () => ({
      effectiveArguments: argsJson,
      argsHash: hash,
      decisionId: gate.recordDecision({ toolCallId: call.id, sessionId: env.sessionId, decision, argsHash: hash }),
    }),
    needsSyncedStart(tools, call.name, decision) ? SYNCED : UNSYNCED,
  );
  // The row runs from here, or waits for a person (`pending` follows); a deny leaves the card to its rejection.
  emit({ type: 'tool_decision', tool_call_id: call.id, ...decisionStatus(decision), decision, arguments: argsJson });

  if (decision.action === 'deny') return reject(env, call, `Denied by policy: ${decision.why.text}`);
  if (decision.action === 'require') {
    const preview = tools.preview(call.name, env.secrets.unseal(call.name, args), {
      workingDir: env.workingDir,
      workspaceDir: env.workspaceDir,
      protectedRoots: env.protectedRoots,
      defaultWorkspaceDir: env.defaultWorkspaceDir,
    });
    let outcome;
    try {
      outcome = await gate.requestApproval({
        sessionId: env.sessionId,
        toolCallId: call.id,
        toolName: call.name,
        args,
        argsHash: hash,
        category,
        agentId: env.agentId,
        source: env.source,
        preview,
        contextLabel: frameLabel(env.synthetic.frame),
        signal: env.signal,
      });
    } catch {
      // The waiter was dropped (/stop): the row stays `pending` and is asked again on resume (docs/architecture.md
      // "Crash and resume").
      return 'cancelled';
    }
    const human: Decision = {
      action: outcome.approved ? 'allow' : 'deny',
      why: { kind: 'human', text: humanDecisionText(outcome.note) },
      actor: 'user',
      // The person's "with network" / "outside the sandbox", for this call alone (docs/approval.md).
      ...(outcome.approved && outcome.sandbox ? { sandbox: outcome.sandbox } : {}),
    };
    store.transaction(() =>
      store.setToolDecision(
        call.id,
        'running',
        gate.recordDecision({ toolCallId: call.id, sessionId: env.sessionId, decision: human, argsHash: hash }),
      ),
    );
    emit({
      type: 'tool_decision',
      tool_call_id: call.id,
      ...decisionStatus(human),
      decision: human,
      arguments: argsJson,
    });
    if (!outcome.approved) return reject(env, call, gate.rejectText(outcome.note));
    decision = human;
  }
  if (env.signal.aborted) return finish(env, call, { kind: 'cancelled' }, null);
  return runApproved(env, call, args, () => gate.walkPolicy(gateCall), decision.sandbox);
}

/** What a walk must leave out, built on first use: only walks ask, and a no-op call should not pay for it. */
class LazyProtectedPaths implements ProtectedPaths {
  private policy: ProtectedPaths | null = null;

  constructor(private readonly build: () => ProtectedPaths) {}

  excludes(real: string): boolean {
    return (this.policy ??= this.build()).excludes(real);
  }

  describeUnder(root: string): string[] {
    return (this.policy ??= this.build()).describeUnder(root);
  }
}

async function runApproved(
  env: CallEnv,
  call: RoundCall,
  args: ToolArgs,
  walkPolicy: () => ProtectedPaths,
  /** How a command of the call runs: the deciding allow's (a rule's network grant, the card's choice); none = sandboxed. */
  sandbox: Decision['sandbox'],
): Promise<CallOutcome> {
  const path = typeof args.path === 'string' ? args.path : null;
  if (call.name === TN.RESTART) {
    finish(env, call, { kind: 'completed', result: 'Restarting the app now.' }, null);
    env.requestRestart();
    return 'cancelled';
  }
  if (call.name === clarificationTool.name) return askUser(env, call, args);
  if (isSyntheticTool(call.name)) {
    let outcome: ExecutionOutcome;
    try {
      outcome = await runSyntheticTool(call.name, args, { env: env.synthetic, callEnv: env, toolCallId: call.id });
    } catch (error) {
      if (isDiskFull(error)) throw error; // not the tool's failure: the turn stops (D8)
      env.log('tool threw', { tool: call.name, error: String(error) });
      outcome = { kind: 'failed', error: `The tool failed unexpectedly: ${(error as Error).message}` };
    }
    await env.beforeRecord?.();
    return finish(env, call, outcome, path);
  }
  try {
    const ctx: ToolRunContext = {
      workingDir: env.workingDir,
      workspaceDir: env.workspaceDir,
      protectedRoots: env.protectedRoots,
      defaultWorkspaceDir: env.defaultWorkspaceDir,
      protectedPaths: new LazyProtectedPaths(walkPolicy),
      signal: env.signal,
      log: env.log,
      call: { sessionId: env.sessionId, toolCallId: call.id },
    };
    if (sandbox) ctx.sandbox = sandbox;
    // Before the run: an execution starts its work as it is created.
    const before =
      path && env.fileImages && env.tools.kindOf(call.name) === 'edit'
        ? env.fileImages.snapshot(path, env.workingDir)
        : null;
    const exec = env.tools.run(call.name, env.secrets.unseal(call.name, args), ctx);
    if (!exec)
      return finish(
        env,
        call,
        { kind: 'failed', error: `There is no tool named "${call.name}". Use one of the tools you were given.` },
        null,
      );
    // A sync tool's run is its outcome (`SettledExecution`): recorded at once, not a few promise hops later.
    const outcome = exec instanceof SettledExecution ? exec.outcome : await driveExecution(exec, env.signal);
    return finish(env, call, outcome, path, before);
  } catch (error) {
    if (isDiskFull(error)) throw error; // its result could not be saved; not the tool's failure: the turn stops (D8)
    env.log('tool threw', { tool: call.name, error: String(error) });
    return finish(
      env,
      call,
      { kind: 'failed', error: `The tool failed unexpectedly: ${(error as Error).message}` },
      path,
    );
  }
}

/** The question waits in the chat and the Inbox; a stop leaves the row `pending`, asked again on resume. */
async function askUser(env: CallEnv, call: RoundCall, args: ToolArgs): Promise<CallOutcome> {
  const id = call.id;
  const parsed = clarificationTool.input.safeParse(args);
  if (!parsed.success)
    return finish(
      env,
      call,
      { kind: 'failed', error: `Invalid arguments for ${clarificationTool.name}: ${z.prettifyError(parsed.error)}` },
      null,
    );
  const { title, question, suggested_answers } = parsed.data;
  try {
    const answer = await env.gate.requestClarification({
      sessionId: env.sessionId,
      toolCallId: id,
      title,
      question,
      suggestedAnswers: suggested_answers ?? [],
      contextLabel: frameLabel(env.synthetic.frame),
      signal: env.signal,
    });
    env.store.setToolStatus(id, 'running');
    return finish(env, call, { kind: 'completed', result: clarificationResult(answer) }, null);
  } catch {
    return 'cancelled';
  }
}
