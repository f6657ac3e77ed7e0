/**
 * Permission groups and approval rules in SQLite (docs/approval.md "Rules"), behind the only writer the app has for
 * them. Every write validates first (rule-checks.ts) and runs in one transaction, so bad input (an invalid pattern,
 * priority or group, a second catch-all `*` with another action, deleting `default`) is refused with a BridgeError
 * and nothing is written. Reads for the gate come from an in-memory cache of compiled rules, dropped on every write.
 * Limits: a row changed behind this repository's back (another process, a hand edit) is seen after `invalidate()`
 * or a restart; a row that no longer compiles makes the whole load fail, which the gate turns into "require".
 */
import { BridgeError } from '../../../shared/contract/define';
import type { Db } from '../db/database';
import type { ToolTraits } from '../../../shared/tool-traits';
import { seedToolDefaults } from './tool-seeds';
import {
  commandPatternError,
  compileCommandPattern,
  compilePathPattern,
  compileToolPattern,
  pathPatternError,
  toolPatternError,
  RULE_ACTIONS,
  type PathMatcher,
} from './patterns';
import {
  DEFAULT_GROUP,
  RuleFieldError,
  validGroup,
  validRule,
  type ApprovalGroup,
  type ApprovalRule,
  type RuleContext,
  type RuleInput,
  type RuleProblem,
} from './rule-checks';

export interface CompiledRule {
  rule: ApprovalRule;
  tool: (name: string) => boolean;
  path: PathMatcher | null;
  command: ((part: string) => boolean) | null;
}

export class RuleLoadError extends Error {
  override readonly name = 'RuleLoadError';
}

export function compileRule(rule: ApprovalRule, traitsOf: (name: string) => ToolTraits | null): CompiledRule {
  const errors = [
    toolPatternError(rule.tool_pattern),
    rule.path_pattern ? pathPatternError(rule.path_pattern) : null,
    rule.command_pattern ? commandPatternError(rule.command_pattern) : null,
  ];
  const error = errors.find((e) => e !== null);
  if (error || !RULE_ACTIONS.includes(rule.action))
    throw new RuleLoadError(`rule ${rule.id}: ${error ?? `bad action ${rule.action}`}`);
  return {
    rule,
    tool: compileToolPattern(rule.tool_pattern, traitsOf),
    // Deny/require catch every letter case; an allow never widens beyond the exact spelling.
    path: rule.path_pattern ? compilePathPattern(rule.path_pattern, rule.action !== 'allow') : null,
    command: rule.command_pattern ? compileCommandPattern(rule.command_pattern) : null,
  };
}

/** A row as SQLite gives it: `network` is 0 or 1. */
type StoredRule = Omit<ApprovalRule, 'network'> & { network: number };
const fromRow = (row: StoredRule): ApprovalRule => ({ ...row, network: row.network === 1 });

export class RulesRepository {
  private cache: {
    groups: Set<string>;
    byGroup: Map<string, CompiledRule[]>;
    byTool: Map<string, CompiledRule[]>;
  } | null = null;
  private readonly listeners = new Set<() => void>();
  private writes = 0;

  /** Changes with every `invalidate()`: what was decided from the rules before a change is not reused after it. */
  get version(): number {
    return this.writes;
  }

  /** What the validation of a write reads beyond the rule itself (rule-checks.ts). */
  private readonly ruleContext: RuleContext;

  /** `traitsOf`: what a tool says it is, for the groups `@fs_read`, `@fs_write`, `@fs_any` (patterns.ts). */
  constructor(
    private readonly db: Db,
    private readonly traitsOf: (name: string) => ToolTraits | null,
  ) {
    this.ruleContext = { db, traitsOf, groupExists: (id) => this.getGroup(id) !== null };
  }

  /** Compiled rules of one group, priority then id. Throws RuleLoadError when the rules cannot be loaded. */
  compiled(groupId: string): CompiledRule[] {
    return this.load().byGroup.get(groupId) ?? [];
  }

  /**
   * The rules of one group whose tool pattern matches this tool name, in order: the tool test depends on the name
   * only, so a thousand rules are filtered once per name and write, not once per call.
   */
  candidates(groupId: string, toolName: string): CompiledRule[] {
    const cache = this.load();
    const key = `${groupId}\0${toolName}`;
    let list = cache.byTool.get(key);
    if (!list) {
      list = (cache.byGroup.get(groupId) ?? []).filter((c) => c.tool(toolName));
      // Bounded: tool names come from the registry and MCP servers, but a hostile model could invent many.
      if (cache.byTool.size > 5_000) cache.byTool.clear();
      cache.byTool.set(key, list);
    }
    return list;
  }

  hasGroup(groupId: string): boolean {
    return this.load().groups.has(groupId);
  }

  /** Writes the default decisions of the tools never seeded before (tool-seeds.ts); returns the names seeded now. */
  seedToolDefaults(tools: readonly ToolTraits[]): string[] {
    const done = seedToolDefaults(this.db, tools);
    if (done.length) this.invalidate();
    return done;
  }

  invalidate(): void {
    this.cache = null;
    this.writes++;
    for (const l of this.listeners) l();
  }

  /** Called after every committed write (the gate keeps no other state, but the UI may). Returns a disposer. */
  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private load(): { groups: Set<string>; byGroup: Map<string, CompiledRule[]>; byTool: Map<string, CompiledRule[]> } {
    if (this.cache) return this.cache;
    try {
      const groups = new Set(
        (this.db.prepare('SELECT id FROM tool_permission_groups').all() as { id: string }[]).map((g) => g.id),
      );
      const byGroup = new Map<string, CompiledRule[]>();
      for (const row of this.db
        .prepare('SELECT * FROM approval_rules ORDER BY priority ASC, id ASC')
        .all() as StoredRule[]) {
        const rule = fromRow(row);
        const list = byGroup.get(rule.group_id) ?? [];
        list.push(compileRule(rule, this.traitsOf));
        byGroup.set(rule.group_id, list);
      }
      this.cache = { groups, byGroup, byTool: new Map() };
      return this.cache;
    } catch (error) {
      throw error instanceof RuleLoadError
        ? error
        : new RuleLoadError(`the rules could not be read: ${(error as Error).message}`);
    }
  }

  listGroups(): (ApprovalGroup & { rule_count: number; is_default: boolean })[] {
    const rows = this.db
      .prepare(`SELECT g.*, (SELECT COUNT(*) FROM approval_rules r WHERE r.group_id = g.id) AS rule_count FROM tool_permission_groups g
                ORDER BY CASE WHEN g.id = 'default' THEN 0 ELSE 1 END, g.name COLLATE NOCASE, g.id`)
      .all() as (ApprovalGroup & { rule_count: number })[];
    return rows.map((g) => ({ ...g, is_default: g.id === DEFAULT_GROUP }));
  }

  getGroup(id: string): ApprovalGroup | null {
    return (
      (this.db.prepare('SELECT * FROM tool_permission_groups WHERE id = ?').get(id) as ApprovalGroup | undefined) ??
      null
    );
  }

  createGroup(input: { id: string; name: string; description?: string }): ApprovalGroup {
    const group = validGroup(input);
    this.write(() => this.insertGroup(group));
    return group;
  }

  updateGroup(id: string, patch: { name?: string; description?: string }): ApprovalGroup {
    const current = this.requireGroup(id);
    const next = validGroup(
      { id, name: patch.name ?? current.name, description: patch.description ?? current.description },
      current.created_at,
    );
    this.write(() =>
      this.db
        .prepare('UPDATE tool_permission_groups SET name = ?, description = ? WHERE id = ?')
        .run(next.name, next.description, id),
    );
    return next;
  }

  /** An atomic copy: the new group and every rule of the source, or nothing. */
  duplicateGroup(sourceId: string, input: { id: string; name: string; description?: string }): ApprovalGroup {
    const source = this.requireGroup(sourceId);
    const group = validGroup({ ...input, description: input.description ?? source.description });
    this.write(() => {
      this.insertGroup(group);
      this.db
        .prepare(`INSERT INTO approval_rules (group_id, agent_id, source, tool_pattern, path_pattern, command_pattern, action, network, note, priority, created_at)
                  SELECT ?, agent_id, source, tool_pattern, path_pattern, command_pattern, action, network, note, priority, ? FROM approval_rules
                  WHERE group_id = ? ORDER BY priority, id`)
        .run(group.id, Date.now(), sourceId);
    });
    return group;
  }

  deleteGroup(id: string): void {
    if (id === DEFAULT_GROUP) throw new BridgeError('forbidden', 'The default group cannot be deleted.');
    this.requireGroup(id);
    this.write(() => this.db.prepare('DELETE FROM tool_permission_groups WHERE id = ?').run(id));
  }

  listRules(groupId?: string): ApprovalRule[] {
    if (groupId !== undefined) this.requireGroup(groupId);
    const sql =
      'SELECT * FROM approval_rules' +
      (groupId === undefined ? '' : ' WHERE group_id = ?') +
      ' ORDER BY group_id, priority, id';
    return (this.db.prepare(sql).all(...(groupId === undefined ? [] : [groupId])) as StoredRule[]).map(fromRow);
  }

  getRule(id: number): ApprovalRule | null {
    const row = this.db.prepare('SELECT * FROM approval_rules WHERE id = ?').get(id) as StoredRule | undefined;
    return row ? fromRow(row) : null;
  }

  createRule(input: RuleInput): ApprovalRule {
    const rule = validRule(input, null, this.ruleContext);
    const id = this.write(() =>
      Number(
        this.db
          .prepare(`INSERT INTO approval_rules (group_id, agent_id, source, tool_pattern, path_pattern, command_pattern, action, network, note, priority, created_at)
                    VALUES (@group_id, @agent_id, @source, @tool_pattern, @path_pattern, @command_pattern, @action, @network, @note, @priority, @created_at)`)
          .run({ ...rule, network: rule.network ? 1 : 0 }).lastInsertRowid,
      ),
    );
    return { ...rule, id };
  }

  updateRule(id: number, patch: Partial<RuleInput>): ApprovalRule {
    const current = this.getRule(id);
    if (!current) throw new BridgeError('not_found', `There is no rule ${id}.`);
    const rule = validRule({ ...current, ...patch }, id, this.ruleContext);
    this.write(() =>
      this.db
        .prepare(`UPDATE approval_rules SET group_id = @group_id, agent_id = @agent_id, source = @source, tool_pattern = @tool_pattern,
                  path_pattern = @path_pattern, command_pattern = @command_pattern, action = @action, network = @network, note = @note, priority = @priority WHERE id = @id`)
        .run({ ...rule, network: rule.network ? 1 : 0, id }),
    );
    return { ...rule, id, created_at: current.created_at };
  }

  deleteRule(id: number): void {
    if (!this.getRule(id)) throw new BridgeError('not_found', `There is no rule ${id}.`);
    this.write(() => this.db.prepare('DELETE FROM approval_rules WHERE id = ?').run(id));
  }

  private write<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn)();
    } finally {
      this.invalidate();
    }
  }

  private insertGroup(g: ApprovalGroup): void {
    if (this.getGroup(g.id)) throw new BridgeError('conflict', `A group with the id "${g.id}" already exists.`);
    this.db
      .prepare('INSERT INTO tool_permission_groups (id, name, description, created_at) VALUES (?, ?, ?, ?)')
      .run(g.id, g.name, g.description, g.created_at);
  }

  private requireGroup(id: string): ApprovalGroup {
    const g = this.getGroup(id);
    if (!g) throw new BridgeError('not_found', `There is no permission group "${id}".`);
    return g;
  }

  /**
   * The same validation every write runs, without writing: the first problem with the field it belongs to, or null.
   * The Security page shows it at that field (docs/ui.md).
   */
  checkRule(input: RuleInput, selfId: number | null = null): RuleProblem | null {
    try {
      validRule(input, selfId, this.ruleContext);
      return null;
    } catch (error) {
      if (error instanceof RuleFieldError) return { field: error.field, code: error.code, message: error.message };
      throw error;
    }
  }

  /**
   * Rewrites the priorities of one group's rules so that they run in the given order (10, 20, 30, …). `ids` must
   * name every rule of the group exactly once; otherwise nothing is written.
   */
  reorderRules(groupId: string, ids: readonly number[]): ApprovalRule[] {
    this.requireGroup(groupId);
    const current = (
      this.db.prepare('SELECT id FROM approval_rules WHERE group_id = ?').all(groupId) as { id: number }[]
    ).map((r) => r.id);
    const given = new Set(ids);
    if (given.size !== ids.length || given.size !== current.length || current.some((id) => !given.has(id))) {
      throw new BridgeError(
        'invalid_input',
        `The new order must name each of the group's ${current.length} rules exactly once.`,
      );
    }
    this.write(() => {
      const update = this.db.prepare('UPDATE approval_rules SET priority = ? WHERE id = ?');
      ids.forEach((id, i) => update.run((i + 1) * 10, id));
    });
    return this.listRules(groupId);
  }
}
