/**
 * View state of the Security page (docs/ui.md): the groups, the selected group's rules, the locked guards and the
 * tool names a rule can use. The source of truth stays in the core: every action calls `skald.approval.*` and
 * re-reads; nothing is written here first. A refused write comes back as `{ field, message }` with the core's
 * own message, located by the core's dry-run check (`approval:checkRule`).
 */
import { createStore } from 'zustand/vanilla';
import type { CallResponse } from '../../../shared/contract/index';
import type { ApprovalRuleDto, RuleField } from '../../../shared/contract/approval';
import { skald } from '../bridge/skald';
import { rulesForLevel, type FsLevel } from '../components/security/file-system-rows';
import {
  draftFields,
  evaluationOrder,
  groupIdFor,
  moved,
  topPriority,
  type RuleDraft,
} from '../components/security/rule-logic';

type Group = CallResponse<'approval:listGroups'>['groups'][number];
type Guard = CallResponse<'approval:listGuards'>['guards'][number];
type Tools = CallResponse<'approval:listTools'>;

export interface SecurityState {
  groups: Group[];
  groupId: string;
  rules: ApprovalRuleDto[];
  /** The default group's rules, shown below another group's as "then". */
  fallback: ApprovalRuleDto[];
  guards: Guard[];
  tools: Tools;
  error: string | null;
}

export type SaveResult = { ok: true; rule: ApprovalRuleDto } | { ok: false; field: RuleField | null; message: string };

const initial = (): SecurityState => ({
  groups: [],
  groupId: 'default',
  rules: [],
  fallback: [],
  guards: [],
  tools: { built_in: [], mcp: [], dynamic: [] },
  error: null,
});

export const securityStore = createStore<SecurityState>(initial);

export const resetSecurityStore = () => securityStore.setState(initial(), true);

const fail = (e: unknown) => securityStore.setState({ error: (e as Error).message });

async function loadRules(groupId: string): Promise<void> {
  const [own, fallback] = await Promise.all([
    skald.approval.listRules({ groupId }),
    groupId === 'default' ? Promise.resolve({ rules: [] }) : skald.approval.listRules({ groupId: 'default' }),
  ]);
  securityStore.setState({ rules: evaluationOrder(own.rules), fallback: evaluationOrder(fallback.rules) });
}

async function loadGroups(): Promise<void> {
  const { groups } = await skald.approval.listGroups({});
  const { groupId } = securityStore.getState();
  securityStore.setState({ groups, groupId: groups.some((g) => g.id === groupId) ? groupId : 'default' });
}

export async function loadSecurity(): Promise<void> {
  try {
    const [guards, tools] = await Promise.all([skald.approval.listGuards({}), skald.approval.listTools({})]);
    securityStore.setState({ guards: guards.guards, tools, error: null });
    await loadGroups();
    await loadRules(securityStore.getState().groupId);
  } catch (e) {
    fail(e);
  }
}

export async function selectGroup(groupId: string): Promise<void> {
  securityStore.setState({ groupId, error: null });
  await loadRules(groupId).catch(fail);
}

/** Runs a group write; a refusal becomes the page's error and nothing else changes. Returns whether it worked. */
async function groupWrite(work: () => Promise<{ group: Group } | unknown>, select?: string): Promise<boolean> {
  try {
    securityStore.setState({ error: null });
    await work();
    if (select) securityStore.setState({ groupId: select });
    await loadGroups();
    await loadRules(securityStore.getState().groupId);
    return true;
  } catch (e) {
    fail(e);
    return false;
  }
}

const takenIds = () => securityStore.getState().groups.map((g) => g.id);

export const createGroup = (name: string) => {
  const id = groupIdFor(name, takenIds());
  return groupWrite(() => skald.approval.createGroup({ id, name }), id);
};
export const renameGroup = (id: string, name: string) => groupWrite(() => skald.approval.updateGroup({ id, name }));
export const duplicateGroup = (sourceId: string, name: string) => {
  const id = groupIdFor(name, takenIds());
  return groupWrite(() => skald.approval.duplicateGroup({ sourceId, id, name }), id);
};
export const deleteGroup = (id: string) => groupWrite(() => skald.approval.deleteGroup({ id }), 'default');

/** Creates (no `id`) or updates a rule. A new rule goes first in the group unless the draft names a priority. */
export async function saveRule(draft: RuleDraft, id?: number): Promise<SaveResult> {
  const { groupId, rules } = securityStore.getState();
  const fields = draftFields(draft);
  const request =
    id === undefined
      ? { group_id: groupId, ...fields, priority: fields.priority ?? topPriority(rules) }
      : { id, ...fields };
  try {
    const { rule } =
      id === undefined
        ? await skald.approval.createRule(request as never)
        : await skald.approval.updateRule(request as never);
    await loadRules(groupId);
    void loadGroups();
    return { ok: true, rule };
  } catch (e) {
    // The message is the core's; the dry run only says which field it belongs to.
    const problem = await skald.approval.checkRule(request as never).then(
      (r) => r.problem,
      () => null,
    );
    return { ok: false, field: problem?.field ?? null, message: (e as Error).message };
  }
}

export async function deleteRule(id: number): Promise<void> {
  try {
    await skald.approval.deleteRule({ id });
    await loadRules(securityStore.getState().groupId);
    void loadGroups();
  } catch (e) {
    fail(e);
  }
}

/** Moves a rule one place in the evaluation order; the core rewrites the group's priorities. */
export async function moveRule(id: number, direction: -1 | 1): Promise<void> {
  const { groupId, rules } = securityStore.getState();
  const ids = moved(rules, id, direction);
  if (!ids) return;
  await reorderRules(groupId, ids);
}

export async function reorderRules(groupId: string, ids: number[]): Promise<void> {
  try {
    const { rules } = await skald.approval.reorderRules({ groupId, ids });
    securityStore.setState({ rules: evaluationOrder(rules), error: null });
  } catch (e) {
    fail(e);
  }
}

/**
 * Sets one File System row (docs/ui.md): its new rules are written first, then the row's old ones deleted, so a
 * refusal (a bad path) leaves the row as it was. `unset` only deletes. Returns the core's message on refusal.
 */
export async function setFsLevel(
  row: { path: string | null; rules: readonly ApprovalRuleDto[] },
  level: FsLevel | 'unset',
  path = row.path,
): Promise<string | null> {
  const { groupId } = securityStore.getState();
  const created: number[] = [];
  try {
    for (const r of level === 'unset' ? [] : rulesForLevel(path, level)) {
      created.push((await skald.approval.createRule({ group_id: groupId, ...r, note: 'File System panel' })).rule.id);
    }
    for (const old of row.rules) await skald.approval.deleteRule({ id: old.id });
    return null;
  } catch (e) {
    for (const id of created) await skald.approval.deleteRule({ id }).catch(() => {});
    return (e as Error).message;
  } finally {
    await loadRules(groupId).catch(fail);
    void loadGroups().catch(fail);
  }
}
