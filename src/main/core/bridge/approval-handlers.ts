/**
 * Handlers of the `approval:*` and `inbox:*` calls: the Security page (groups, rules, guards, bypasses, "what would
 * happen if…") and the Inbox (list, resolve, answer). Requests arrive zod-parsed by the registrar; the repository
 * and the pending manager refuse bad input with BridgeErrors and write nothing. No tool can reach these (C2): they
 * are registered on the bridge only, which accepts calls from the main window's top frame (I2).
 * Check ids (C2, I2) are listed in docs/security-checks.md.
 */
import type { ToolInfo } from '../../../shared/contract/approval';
import { isFileTool, type ToolTraits } from '../../../shared/tool-traits';
import { BridgeError } from '../../../shared/contract/define';
import { RunContextSchema, type RunContext } from '../../../shared/run-context';
import { TN, type ToolCategory } from '../../../shared/tool-names';
import { listDecisions } from '../approval/decision-log';
import { GUARD_LIST } from '../approval/guards';
import type { ApprovalServices } from '../approval/index';
import { compileCommandPattern, commandPatternError } from '../approval/patterns';
import { DEFAULT_GROUP } from '../approval/rule-checks';
import { suggestRules } from '../approval/suggest-rules';
import type { Db } from '../db/database';
import type { ToolsPort } from '../session/ports';
import { normalizeToolArgs } from '../session/tool-call';
import { resolvePath } from '../tools/_policy/paths';
import type { ToolCatalog } from '../tools/catalog';
import type { BridgeHandlers } from './handlers';

type ApprovalChannels =
  | 'approval:listGroups'
  | 'approval:createGroup'
  | 'approval:updateGroup'
  | 'approval:duplicateGroup'
  | 'approval:deleteGroup'
  | 'approval:listRules'
  | 'approval:createRule'
  | 'approval:updateRule'
  | 'approval:deleteRule'
  | 'approval:explain'
  | 'approval:explainFileAccess'
  | 'approval:listTools'
  | 'approval:listGuards'
  | 'approval:listBypasses'
  | 'approval:revokeBypasses'
  | 'approval:checkRule'
  | 'approval:reorderRules'
  | 'approval:previewCommand'
  | 'approval:listDecisions'
  | 'approval:suggestRules'
  | 'approval:sessionGroup'
  | 'approval:setSessionGroup'
  | 'inbox:list'
  | 'inbox:resolveApproval'
  | 'inbox:answerClarification';

/**
 * What the Security page needs of sessions: their run context and working directory (for "what would happen if…",
 * judged exactly as the session's own calls are) and the group switch.
 */
export interface SessionGroupPort {
  runContext(sessionId: number): RunContext;
  workingDir(sessionId: number): string;
  setSecurityGroup(sessionId: number, groupId: string): void;
}

export interface ApprovalHandlerDeps {
  approval: Pick<ApprovalServices, 'rules' | 'gate' | 'pending' | 'bypass'>;
  /** The Security page's tool list; absent in tests that only exercise rules. */
  catalog?: Pick<ToolCatalog, 'listAll'>;
  /** The decision log's database; absent = an empty log. */
  db?: Db;
  /** Absent in tests without sessions: explain then uses the request's run context only. */
  sessions?: SessionGroupPort;
  /** The tool's category, as the session loop passes it to the gate (a category bypass depends on it). */
  categoryOf?: (toolName: string) => ToolCategory | null;
  /** The tools, to normalize a call's arguments as the session loop does, and what each says of itself (the list). */
  tools?: Pick<ToolsPort, 'has' | 'normalize' | 'traitsOf'> & { allTraits(): readonly ToolTraits[] };
}

export function createApprovalHandlers({
  approval,
  catalog,
  db,
  sessions,
  categoryOf,
  tools,
}: ApprovalHandlerDeps): Pick<BridgeHandlers, ApprovalChannels> {
  const { rules, gate, pending, bypass } = approval;
  const sessionContext = (sessionId: number | undefined): RunContext | null =>
    sessionId !== undefined && sessions ? sessions.runContext(sessionId) : null;
  /** The folder a call is judged in: the session's own working directory, as its turn passes it to the gate. */
  const workingDirOf = (sessionId: number | undefined, runContext: RunContext, given: boolean): string =>
    !given && sessionId !== undefined && sessions ? sessions.workingDir(sessionId) : gate.workingDirOf({ runContext });
  const requireGroup = (groupId: string) => {
    if (!rules.getGroup(groupId)) throw new BridgeError('not_found', `There is no permission group "${groupId}".`);
  };
  const groupDto = (id: string) => rules.listGroups().find((g) => g.id === id)!;
  /** The gate's answer for a call, with its trace; nothing is written. */
  const explainCall = async (
    req: {
      toolName: string;
      sessionId?: number;
      groupId?: string;
      agentId?: string;
      source?: string;
      category?: ToolCategory | null;
    },
    runContext: RunContext,
    workingDir: string,
    args: Record<string, unknown>,
  ) => {
    const category = req.category !== undefined ? req.category : (categoryOf?.(req.toolName) ?? null);
    const call = {
      sessionId: req.sessionId ?? null,
      groupId: req.groupId,
      agentId: req.agentId ?? 'main',
      source: req.source ?? 'web',
      toolName: req.toolName,
      category,
      args,
      runContext,
      workingDir,
    };
    await gate.whenReadyFor(call); // the same decision as the session's, never a reading made before the grammar loaded
    const { decision, trace } = gate.explain(call);
    return { decision, trace, hidden: gate.isToolHidden(req.groupId ?? runContext.security_group, req.toolName) };
  };

  return {
    'approval:listGroups': () => ({ groups: rules.listGroups() }),
    'approval:createGroup': (req) => ({ group: groupDto(rules.createGroup(req).id) }),
    'approval:updateGroup': ({ id, ...patch }) => ({ group: groupDto(rules.updateGroup(id, patch).id) }),
    'approval:duplicateGroup': ({ sourceId, ...target }) => ({
      group: groupDto(rules.duplicateGroup(sourceId, target).id),
    }),
    'approval:deleteGroup': ({ id }) => {
      rules.deleteGroup(id);
      return { ok: true as const };
    },
    'approval:listRules': ({ groupId }) => ({ rules: rules.listRules(groupId) }),
    'approval:createRule': (req) => ({ rule: rules.createRule(req) }),
    'approval:updateRule': ({ id, ...patch }) => ({ rule: rules.updateRule(id, patch) }),
    'approval:deleteRule': ({ id }) => {
      rules.deleteRule(id);
      return { ok: true as const };
    },
    'approval:explain': async (req) => {
      // A session's own run context unless one is given: the answer is then the gate's decision for that session.
      const runContext = req.runContext ?? sessionContext(req.sessionId) ?? RunContextSchema.parse({});
      const workingDir = workingDirOf(req.sessionId, runContext, req.runContext !== undefined);
      // The same normalized arguments the session loop decides on (docs/approval.md "The normalized call").
      const normalized = tools
        ? normalizeToolArgs(tools, req.toolName, { ...req.args }, workingDir)
        : { ok: true as const, args: { ...req.args } };
      if (!normalized.ok) throw new BridgeError('invalid_input', normalized.error);
      return explainCall(req, runContext, workingDir, normalized.args);
    },
    'approval:explainFileAccess': async ({ path, sessionId }) => {
      const runContext = sessionContext(sessionId) ?? RunContextSchema.parse({});
      const workingDir = workingDirOf(sessionId, runContext, false);
      // The first file tool of a kind that names a path (registration order: read_file, write_file); the gate decides
      // a file call by its kind and its path, so the tool's other arguments are not needed to ask it.
      const probe = async (kind: 'read' | 'edit') => {
        const tool = tools?.allTraits().find((t) => isFileTool(t) && t.kind === kind && t.pathKeys.length > 0);
        if (!tool) throw new BridgeError('not_found', `No file tool that ${kind}s a path is known.`);
        const args = { [tool.pathKeys[0]!]: resolvePath(path, workingDir) };
        return (await explainCall({ toolName: tool.name, sessionId }, runContext, workingDir, args)).decision;
      };
      return { read: await probe('read'), write: await probe('edit') };
    },
    'approval:checkRule': ({ id, ...input }) => {
      if (id === undefined) {
        if (!input.tool_pattern || !input.action)
          return {
            problem: {
              field: input.tool_pattern ? 'action' : 'tool_pattern',
              code: 'invalid_input',
              message: input.tool_pattern ? 'Choose an action.' : 'The tool pattern is empty.',
            },
          };
        return { problem: rules.checkRule({ ...input, tool_pattern: input.tool_pattern, action: input.action }) };
      }
      const current = rules.getRule(id);
      if (!current) throw new BridgeError('not_found', `There is no rule ${id}.`);
      return { problem: rules.checkRule({ ...current, ...input }, id) };
    },
    'approval:reorderRules': ({ groupId, ids }) => ({ rules: rules.reorderRules(groupId, ids) }),
    'approval:previewCommand': async ({ command, pattern, sessionId }) => {
      await gate.whenReadyFor({ toolName: TN.EXECUTE_CMD, args: { command } });
      const runContext = sessionContext(sessionId) ?? RunContextSchema.parse({});
      const analysis = gate.analyzeCommand(command, workingDirOf(sessionId, runContext, false));
      const patternError = pattern === undefined || pattern === '' ? null : commandPatternError(pattern);
      const matcher = pattern && !patternError ? compileCommandPattern(pattern) : null;
      const flags = analysis.parts.map((part) => (matcher ? matcher(part) : null));
      const some = flags.some(Boolean);
      return {
        parsed: analysis.parsed,
        parts: analysis.parts.map((text, i) => ({ text, matches: flags[i] ?? null })),
        unsafe: analysis.unsafe,
        patternError,
        // As the rules read it (docs/approval.md): an allow needs every part and no unsafe construct; a deny or ask one part.
        ruleMatches: matcher
          ? {
              allow: analysis.parts.length > 0 && flags.every(Boolean) && analysis.unsafe.length === 0,
              require: some,
              deny: some,
            }
          : null,
      };
    },
    'approval:listDecisions': (filter) => ({ decisions: db ? listDecisions(db, filter) : [] }),
    'approval:suggestRules': ({ decisionId }) => {
      if (!db) throw new BridgeError('unavailable', 'The decision log is not available here.');
      const session = (sessionId: number) => {
        if (!sessions) return null;
        try {
          return { runContext: sessions.runContext(sessionId), workingDir: sessions.workingDir(sessionId) };
        } catch {
          return null; // a deleted session: judged as a call of no session
        }
      };
      return suggestRules({ db, gate, session }, decisionId);
    },
    'approval:sessionGroup': ({ sessionId }) => ({
      groupId: sessionContext(sessionId)?.security_group ?? DEFAULT_GROUP,
    }),
    'approval:setSessionGroup': ({ sessionId, groupId }) => {
      if (!sessions) throw new BridgeError('unavailable', 'Sessions are not available here.');
      requireGroup(groupId);
      sessions.runContext(sessionId); // refuses an unknown session
      sessions.setSecurityGroup(sessionId, groupId);
      return { groupId };
    },
    'approval:listTools': () => {
      const all = catalog?.listAll() ?? { built_in: [], mcp: [], dynamic: [] };
      // Each with its kind and which argument is a path or a command, so the tester reads traits, never names.
      const withTraits = (list: readonly { name: string; description: string; category: ToolInfo['category'] }[]) =>
        list.map((info) => {
          const t = tools?.traitsOf(info.name) ?? null;
          return { ...info, traits: t && { kind: t.kind, pathKeys: [...t.pathKeys], commandKey: t.commandKey } };
        });
      return { built_in: withTraits(all.built_in), mcp: withTraits(all.mcp), dynamic: withTraits(all.dynamic) };
    },
    'approval:listGuards': () => ({ guards: GUARD_LIST.map((g) => ({ ...g, locked: true as const })) }),
    'approval:listBypasses': ({ sessionId }) => ({
      bypasses: bypass.list(sessionId).map((g) => ({
        id: g.id,
        session_id: g.sessionId,
        scope: g.scope,
        label: g.label,
        expires_at: g.expiresAt,
        granted_at: g.grantedAt,
        tool_call_id: g.toolCallId,
      })),
    }),
    'approval:revokeBypasses': ({ sessionId, id }) => ({ revoked: bypass.revoke(sessionId, id) }),
    'inbox:list': () => pending.list(),
    'inbox:resolveApproval': ({ requestId, ...decision }) => {
      const r = pending.resolve(requestId, decision);
      return { tool_call_id: r.toolCallId, session_id: r.sessionId, approved: r.approved };
    },
    'inbox:answerClarification': ({ requestId, answer }) => {
      const r = pending.answerClarification(requestId, answer);
      return { tool_call_id: r.toolCallId, session_id: r.sessionId };
    },
  };
}
