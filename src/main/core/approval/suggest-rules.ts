/**
 * "Make a rule from this" (docs/ui.md "Decision log"): the rules that would decide a logged call as it was decided.
 * - The action is the one decided (the person's, for their own answer): an allowed call suggests Allow, never the
 *   catch-all's Ask.
 * - A shell command is covered part by part, as the rules read it (docs/approval.md "Evaluation order"): every part
 *   of an allowed command, or of one the person answered; the parts a deny or an ask came from otherwise (every part
 *   when the rules no longer say which). One rule per command family (`ls && cat hello.txt` → `ls *`, `cat *`): a
 *   rule has one command pattern, and a compound command is allowed only when each part is.
 * - A path is relative to the session's working directory when inside it (relative paths in rules mean that
 *   folder, in every session: docs/approval.md "Relative means the working directory"), absolute otherwise.
 */
import { BridgeError } from '../../../shared/contract/define';
import type { RuleSuggestion } from '../../../shared/contract/approval';
import { RunContextSchema, type RunContext } from '../../../shared/run-context';
import type { Db } from '../db/database';
import { decidedCall } from './decision-log';
import type { ApprovalGate } from './gate';
import { relIn } from './guards';

export interface SuggestDeps {
  db: Db;
  gate: Pick<ApprovalGate, 'partActions' | 'workingDirOf' | 'commandOf'>;
  /** The session's run context and working directory, or null for a session that is gone. */
  session(sessionId: number): { runContext: RunContext; workingDir: string } | null;
}

/**
 * `git status --short` → `git status *`; `cat hello.txt` → `cat *`; `ls` → `ls *`: the program, and its first
 * argument when it reads as a subcommand (a lower-case word: letters and hyphens, no file name, flag or path).
 */
export function commandFamily(part: string): string {
  const [program, next] = part.trim().split(/\s+/);
  if (!program || /^[-./~$"'`]/.test(program) || program.includes('/') || program.includes('=')) return part.trim();
  return next !== undefined && /^[a-z][a-z-]+$/.test(next) ? `${program} ${next} *` : `${program} *`;
}

export function suggestRules(deps: SuggestDeps, decisionId: number): { rules: RuleSuggestion[]; workingDir: string } {
  const decided = decidedCall(deps.db, decisionId);
  if (!decided) throw new BridgeError('not_found', `There is no decision ${decisionId}.`);
  if (!decided.toolName)
    throw new BridgeError(
      'not_found',
      `The call of decision ${decisionId} is gone: there is nothing to make a rule of.`,
    );
  const session = decided.sessionId === null ? null : deps.session(decided.sessionId);
  const runContext = session?.runContext ?? RunContextSchema.parse({});
  const workingDir = session?.workingDir ?? deps.gate.workingDirOf({ runContext });
  const base = {
    tool_pattern: decided.toolName,
    path_pattern: null as string | null,
    command_pattern: null as string | null,
    action: decided.action,
    note: `From decision ${decisionId}`,
  };
  const path = decided.args.path;
  if (typeof path === 'string' && path !== '') base.path_pattern = relIn(path, workingDir) || path;

  // A tool that takes a shell command (its traits' `commandKey`) is covered part by part; any other by its call.
  const command = deps.gate.commandOf(decided.toolName, decided.args);
  if (command === null || command.trim() === '') return { rules: [base], workingDir };
  const parts = deps.gate.partActions({
    sessionId: decided.sessionId,
    agentId: decided.agentId ?? 'main',
    source: decided.source ?? 'web',
    toolName: decided.toolName,
    category: 'shell',
    args: decided.args,
    runContext,
    workingDir,
  });
  const byAll = decided.actor === 'user' || decided.action === 'allow';
  const deciding = byAll
    ? parts
    : parts.filter((p) => (decided.action === 'deny' ? p.action === 'deny' : p.action !== 'allow'));
  const families = [...new Set((deciding.length ? deciding : parts).map((p) => commandFamily(p.part)))];
  if (families.length === 0) return { rules: [{ ...base, command_pattern: commandFamily(command) }], workingDir };
  return { rules: families.map((family) => ({ ...base, command_pattern: family })), workingDir };
}
