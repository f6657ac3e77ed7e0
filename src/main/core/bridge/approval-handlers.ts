/**
 * Handlers of the `approval:*` and `inbox:*` calls: the Security page (groups, rules, guards, bypasses, "what would
 * happen if…") and the Inbox (list, resolve, answer). Requests arrive zod-parsed by the registrar; the repository
 * and the pending manager refuse bad input with BridgeErrors and write nothing. No tool can reach these (C2): they
 * are registered on the bridge only, which accepts calls from the main window's top frame (I2).
 */
import { isAbsolute, resolve } from 'node:path';
import { RunContextSchema } from '../../../shared/run-context';
import { TN } from '../../../shared/tool-names';
import { GUARD_LIST } from '../approval/guards';
import type { ApprovalServices } from '../approval/index';
import type { ToolCatalog } from '../tools/catalog';
import type { BridgeHandlers } from './handlers';

type ApprovalChannels =
  | 'approval:listGroups' | 'approval:createGroup' | 'approval:updateGroup' | 'approval:duplicateGroup' | 'approval:deleteGroup'
  | 'approval:listRules' | 'approval:createRule' | 'approval:updateRule' | 'approval:deleteRule'
  | 'approval:explain' | 'approval:listTools' | 'approval:listGuards' | 'approval:listBypasses' | 'approval:revokeBypasses'
  | 'inbox:list' | 'inbox:resolveApproval' | 'inbox:answerClarification';

export interface ApprovalHandlerDeps {
  approval: Pick<ApprovalServices, 'rules' | 'gate' | 'pending' | 'bypass'>;
  /** The Security page's tool list; absent in tests that only exercise rules. */
  catalog?: Pick<ToolCatalog, 'listAll'>;
}

export function createApprovalHandlers({ approval, catalog }: ApprovalHandlerDeps): Pick<BridgeHandlers, ApprovalChannels> {
  const { rules, gate, pending, bypass } = approval;
  const groupDto = (id: string) => rules.listGroups().find((g) => g.id === id)!;
  return {
    'approval:listGroups': () => ({ groups: rules.listGroups() }),
    'approval:createGroup': (req) => ({ group: groupDto(rules.createGroup(req).id) }),
    'approval:updateGroup': ({ id, ...patch }) => ({ group: groupDto(rules.updateGroup(id, patch).id) }),
    'approval:duplicateGroup': ({ sourceId, ...target }) => ({ group: groupDto(rules.duplicateGroup(sourceId, target).id) }),
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
    'approval:explain': (req) => {
      const runContext = req.runContext ?? RunContextSchema.parse({});
      const workingDir = gate.workingDirOf({ runContext });
      // The same effective arguments the session loop would pass: a relative path made absolute, workdir filled in.
      const args: Record<string, unknown> = { ...req.args };
      if (typeof args.path === 'string' && args.path !== '' && !isAbsolute(args.path)) args.path = resolve(workingDir, args.path);
      if (req.toolName === TN.EXECUTE_CMD && (typeof args.workdir !== 'string' || args.workdir === '')) args.workdir = workingDir;
      const call = {
        sessionId: req.sessionId ?? null, groupId: req.groupId, agentId: req.agentId ?? 'main', source: req.source ?? 'web',
        toolName: req.toolName, category: req.category ?? null, args, runContext, workingDir,
      };
      const { decision, trace } = gate.explain(call);
      return { decision, trace, hidden: gate.isToolHidden(req.groupId ?? runContext.security_group, req.toolName) };
    },
    'approval:listTools': () => catalog?.listAll() ?? { built_in: [], mcp: [], dynamic: [] },
    'approval:listGuards': () => ({ guards: GUARD_LIST.map((g) => ({ ...g, locked: true as const })) }),
    'approval:listBypasses': ({ sessionId }) => ({
      bypasses: bypass.list(sessionId).map((g) => ({
        id: g.id, session_id: g.sessionId, scope: g.scope, label: g.label, expires_at: g.expiresAt, granted_at: g.grantedAt, tool_call_id: g.toolCallId,
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
