/**
 * The evaluation order, table-driven (docs/approval.md): guards → rules (every match of the session group and
 * default; deny beats ask beats allow; the catch-all only as the fallback) → bypass → fast-path (fallback only);
 * deny never lifted; no match and load errors ask. Real SQLite file, real temp workspace.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { RuleInput } from './rule-checks';
import { LAYOUTS, makeKit, type Kit } from './test-kit';
import type { GateCall } from './gate-port';

let k: Kit;

interface Row {
  name: string;
  rules?: RuleInput[];
  groups?: string[];
  before?: (k: Kit) => void;
  call: (k: Kit) => GateCall;
  action: 'allow' | 'deny' | 'require';
  kind: string;
  /** Index into `rules` of the rule that must be named as the reason. */
  rule?: number;
  seedRule?: string;
}

const table: Row[] = [
  {
    name: 'a seeded allow (write_todos)',
    call: (k) => k.call('write_todos', { todos: [] }),
    action: 'allow',
    kind: 'rule',
    seedRule: 'write_todos',
  },
  {
    name: 'execute_cmd asks by the seeded catch-all',
    call: (k) => k.call('execute_cmd', { command: 'ls' }),
    action: 'require',
    kind: 'rule',
    seedRule: '*',
  },
  {
    name: 'an unknown tool asks by the seeded require *',
    call: (k) => k.call('frobnicate'),
    action: 'require',
    kind: 'rule',
    seedRule: '*',
  },
  {
    name: 'a read inside the working dir is lifted by the fast-path',
    call: (k) => k.call('read_file', { path: join(k.workspace, 'a.txt') }),
    action: 'allow',
    kind: 'fast_path',
  },
  {
    name: 'a write inside the working dir still asks',
    call: (k) => k.call('write_file', { path: join(k.workspace, 'a.txt') }),
    action: 'require',
    kind: 'rule',
    seedRule: '*',
  },
  {
    name: 'a write under allow_fs_writes is lifted by the fast-path',
    call: (k) =>
      k.call('write_file', { path: join(k.workspace, 'src/a.ts') }, { runContext: k.rc({ allow_fs_writes: ['src'] }) }),
    action: 'allow',
    kind: 'fast_path',
  },
  {
    name: 'memory/* is allowed by the seed @5',
    call: (k) => k.call('write_file', { path: join(k.workspace, 'memory/n.md') }),
    action: 'allow',
    kind: 'rule',
    seedRule: 'memory/*',
  },
  {
    name: 'memory/* never matches memory-secrets/x',
    call: (k) => k.call('write_file', { path: join(k.workspace, 'memory-secrets/x') }),
    action: 'require',
    kind: 'rule',
    seedRule: '*',
  },
  {
    name: "the session's group is evaluated before default",
    groups: ['strict'],
    rules: [{ group_id: 'strict', tool_pattern: 'write_todos', action: 'deny' }],
    call: (k) => k.call('write_todos', {}, { runContext: k.rc({ security_group: 'strict' }) }),
    action: 'deny',
    kind: 'rule',
    rule: 0,
  },
  {
    name: 'the group falls back to default when nothing in it matches',
    groups: ['strict'],
    rules: [{ group_id: 'strict', tool_pattern: 'notify', action: 'deny' }],
    call: (k) => k.call('write_todos', {}, { runContext: k.rc({ security_group: 'strict' }) }),
    action: 'allow',
    kind: 'rule',
    seedRule: 'write_todos',
  },
  {
    name: 'a deny at priority 2 beats an allow at priority 1',
    rules: [
      { tool_pattern: 'frob', action: 'deny', priority: 2 },
      { tool_pattern: 'frob', action: 'allow', priority: 1 },
    ],
    call: (k) => k.call('frob'),
    action: 'deny',
    kind: 'rule',
    rule: 0,
  },
  {
    name: 'an allow and a deny at the same priority: the deny, whatever the ids',
    rules: [
      { tool_pattern: 'frob', action: 'allow', priority: 3 },
      { tool_pattern: 'frob', action: 'deny', priority: 3 },
    ],
    call: (k) => k.call('frob'),
    action: 'deny',
    kind: 'rule',
    rule: 1,
  },
  {
    name: 'an ask at priority 50 beats an allow at priority -5',
    rules: [
      { tool_pattern: 'frob', action: 'allow', priority: -5 },
      { tool_pattern: 'frob', action: 'require', priority: 50 },
    ],
    call: (k) => k.call('frob'),
    action: 'require',
    kind: 'rule',
    rule: 1,
  },
  {
    name: 'among rules of the same action the lower priority number is named',
    rules: [
      { tool_pattern: 'frob', action: 'deny', priority: 7 },
      { tool_pattern: 'frob', action: 'deny', priority: 2 },
    ],
    call: (k) => k.call('frob'),
    action: 'deny',
    kind: 'rule',
    rule: 1,
  },
  {
    name: "a deny in default beats an allow in the session's group",
    groups: ['open'],
    rules: [
      { group_id: 'open', tool_pattern: 'frob', action: 'allow' },
      { tool_pattern: 'frob', action: 'deny', priority: 500 },
    ],
    call: (k) => k.call('frob', {}, { runContext: k.rc({ security_group: 'open' }) }),
    action: 'deny',
    kind: 'rule',
    rule: 1,
  },
  {
    name: 'the catch-all is a fallback: a specific allow wins over the seeded require *',
    rules: [{ tool_pattern: 'frob', action: 'allow', priority: 1_000_000 }],
    call: (k) => k.call('frob'),
    action: 'allow',
    kind: 'rule',
    rule: 0,
  },
  {
    name: 'a command allow works now that no seeded execute_cmd ask out-ranks it',
    rules: [{ tool_pattern: 'execute_cmd', command_pattern: 'git *', action: 'allow' }],
    call: (k) => k.call('execute_cmd', { command: 'git status' }),
    action: 'allow',
    kind: 'rule',
    rule: 0,
  },
  {
    name: 'an explicit ask rule is not lifted by the fast-path (ask beats the implicit allow)',
    rules: [{ tool_pattern: 'read_file', path_pattern: 'notes/*', action: 'require' }],
    call: (k) => k.call('read_file', { path: join(k.workspace, 'notes/a.md') }),
    action: 'require',
    kind: 'rule',
    rule: 0,
  },
  {
    name: 'an explicit ask rule is lifted by a bypass (the human chose it)',
    rules: [{ tool_pattern: 'read_file', path_pattern: 'notes/*', action: 'require' }],
    before: (k) => k.bypass.grant(1, { kind: 'all' }, null),
    call: (k) => k.call('read_file', { path: join(k.workspace, 'notes/a.md') }),
    action: 'allow',
    kind: 'bypass',
  },
  {
    name: 'a deny rule is not lifted by the fast-path',
    rules: [{ tool_pattern: '@fs_read', path_pattern: 'private/*', action: 'deny', priority: 1 }],
    call: (k) => k.call('read_file', { path: join(k.workspace, 'private/a') }),
    action: 'deny',
    kind: 'rule',
    rule: 0,
  },
  {
    name: 'a deny rule is not lifted by a bypass',
    rules: [{ tool_pattern: 'execute_cmd', command_pattern: 'rm *', action: 'deny', priority: 1 }],
    before: (k) => k.bypass.grant(1, { kind: 'all' }, null),
    call: (k) => k.call('execute_cmd', { command: 'git status && rm -rf x' }),
    action: 'deny',
    kind: 'rule',
    rule: 0,
  },
  {
    name: 'a bypass lifts require',
    before: (k) => k.bypass.grant(1, { kind: 'all' }, null),
    call: (k) => k.call('execute_cmd', { command: 'rm x' }),
    action: 'allow',
    kind: 'bypass',
  },
  {
    name: 'a category bypass covers only its category',
    before: (k) => k.bypass.grant(1, { kind: 'category', category: 'filesystem' }, null),
    call: (k) => k.call('execute_cmd', { command: 'rm x' }, { category: 'shell' }),
    action: 'require',
    kind: 'rule',
    seedRule: '*',
  },
  {
    name: 'an expired bypass lifts nothing',
    before: (k) => k.bypass.grant(1, { kind: 'all' }, k.clock.now - 1),
    call: (k) => k.call('execute_cmd', { command: 'rm x' }),
    action: 'require',
    kind: 'rule',
    seedRule: '*',
  },
  {
    name: 'the secrets guard beats an allow at any priority',
    rules: [{ tool_pattern: '@fs_any', path_pattern: 'secrets/*', action: 'allow', priority: -999 }],
    call: (k) => k.call('read_file', { path: join(k.workspace, 'secrets/key') }),
    action: 'deny',
    kind: 'guard',
  },
  {
    name: 'a locked guard (steering file) is not lifted by an allow rule, a bypass or the fast-path',
    rules: [{ tool_pattern: 'write_file', action: 'allow', priority: -5 }],
    before: (k) => k.bypass.grant(1, { kind: 'all' }, null),
    call: (k) =>
      k.call('write_file', { path: join(k.workspace, 'AGENTS.md') }, { runContext: k.rc({ allow_fs_writes: ['.'] }) }),
    action: 'require',
    kind: 'guard',
  },
  {
    name: 'a locked guard still becomes deny under a deny rule',
    rules: [{ tool_pattern: 'write_file', action: 'deny', priority: -5 }],
    call: (k) => k.call('write_file', { path: join(k.workspace, '.mcp.json') }),
    action: 'deny',
    kind: 'rule',
    rule: 0,
  },
  {
    name: 'agent-scoped rules apply to that agent only (other agent)',
    rules: [{ tool_pattern: 'notify', agent_id: 'helper', action: 'deny', priority: 1 }],
    call: (k) => k.call('notify'),
    action: 'allow',
    kind: 'rule',
    seedRule: 'notify',
  },
  {
    name: 'agent-scoped rules apply to that agent only (that agent)',
    rules: [{ tool_pattern: 'notify', agent_id: 'helper', action: 'deny', priority: 1 }],
    call: (k) => k.call('notify', {}, { agentId: 'helper' }),
    action: 'deny',
    kind: 'rule',
    rule: 0,
  },
  {
    name: 'source-scoped rules',
    rules: [{ tool_pattern: 'execute_cmd', source: 'cron', action: 'deny', priority: 1 }],
    call: (k) => k.call('execute_cmd', { command: 'ls' }, { source: 'cron' }),
    action: 'deny',
    kind: 'rule',
    rule: 0,
  },
  {
    name: 'a rule with a path pattern never matches a call without a path',
    rules: [{ tool_pattern: '*', path_pattern: '*', action: 'deny', priority: 1 }],
    call: (k) => k.call('notify'),
    action: 'allow',
    kind: 'rule',
    seedRule: 'notify',
  },
  {
    name: 'trailing-* tool patterns (MCP server)',
    rules: [{ tool_pattern: 'mcp__gmail__*', action: 'allow', priority: 1 }],
    call: (k) => k.call('mcp__gmail__send', { to: 'x' }),
    action: 'allow',
    kind: 'rule',
    rule: 0,
  },
  {
    name: 'an allow rule with a command pattern allows when every part matches',
    rules: [{ tool_pattern: 'execute_cmd', command_pattern: 'git *', action: 'allow', priority: 1 }],
    call: (k) => k.call('execute_cmd', { command: 'git status && git log | git diff' }),
    action: 'allow',
    kind: 'rule',
    rule: 0,
  },
  {
    name: 'absolute path patterns match outside the workspace (a tool that may go there: an MCP one)',
    rules: [{ tool_pattern: 'mcp__ref__*', path_pattern: '/nowhere/ref/*', action: 'allow', priority: 1 }],
    call: (k) => k.call('mcp__ref__read', { path: '/nowhere/ref/a.txt' }),
    action: 'allow',
    kind: 'rule',
    rule: 0,
  },
  {
    name: 'a path outside the workspace and every root asks (an MCP tool)',
    call: (k) => k.call('mcp__ref__read', { path: join(k.outside, 'a.txt') }),
    action: 'require',
    kind: 'rule',
    seedRule: '*',
  },
  {
    // The tool would refuse it (tools/_policy/guard.ts): the gate says so first, whatever a rule or root allows.
    name: 'a file tool outside the working directory is denied, even under an allow rule or allow_fs_reads',
    rules: [{ tool_pattern: '@fs_read', path_pattern: '/nowhere/ref/*', action: 'allow', priority: 1 }],
    call: (k) =>
      k.call('read_file', { path: join(k.outside, 'a.txt') }, { runContext: k.rc({ allow_fs_reads: [k.outside] }) }),
    action: 'deny',
    kind: 'guard',
  },
];

describe.each(LAYOUTS)('a session in the %s', (layout) => {
  beforeEach(async () => {
    k = await makeKit({ layout });
  });
  afterEach(() => k.close());

  describe('evaluation order (table)', () => {
    for (const row of table) {
      it(row.name, () => {
        for (const g of row.groups ?? []) k.rules.createGroup({ id: g, name: g });
        const created = (row.rules ?? []).map((r) => k.rules.createRule(r));
        row.before?.(k);
        const d = k.gate.check(row.call(k));
        expect({ action: d.action, kind: d.why.kind }).toEqual({ action: row.action, kind: row.kind });
        if (row.rule !== undefined) expect(d.why.ruleId).toBe(created[row.rule]!.id);
        if (row.seedRule !== undefined) {
          const seed = k.rules
            .listRules('default')
            .find((r) => r.note === 'seeded' && (r.path_pattern ?? r.tool_pattern) === row.seedRule)!;
          expect(d.why.ruleId).toBe(seed.id);
        }
        expect(d.why.text.length).toBeGreaterThan(0);
      });
    }
  });

  describe('fail closed (X1)', () => {
    it('no matching rule at all → require with kind default', () => {
      const star = k.rules.listRules('default').find((r) => r.tool_pattern === '*')!;
      k.rules.deleteRule(star.id);
      const d = k.gate.check(k.call('frobnicate'));
      expect(d).toMatchObject({ action: 'require', why: { kind: 'default' } });
    });

    it('a rule that no longer loads → require that the fast-path and a bypass cannot lift', () => {
      k.db
        .prepare(
          `INSERT INTO approval_rules (group_id, tool_pattern, action, created_at) VALUES ('default', 'bad pattern!', 'allow', 0)`,
        )
        .run();
      k.rules.invalidate();
      k.bypass.grant(1, { kind: 'all' }, null);
      const d = k.gate.check(k.call('read_file', { path: join(k.workspace, 'a.txt') }));
      expect(d).toMatchObject({ action: 'require', why: { kind: 'load_error' } });
    });

    it('a run context naming a deleted group → require (load_error)', () => {
      const d = k.gate.check(k.call('write_todos', {}, { runContext: k.rc({ security_group: 'gone' }) }));
      expect(d).toMatchObject({ action: 'require', why: { kind: 'load_error' } });
    });

    it('a rule written through the repository is seen by the very next check (cache invalidated)', () => {
      expect(k.gate.check(k.call('frob')).action).toBe('require');
      const r = k.rules.createRule({ tool_pattern: 'frob', action: 'allow', priority: 1 });
      expect(k.gate.check(k.call('frob')).action).toBe('allow');
      k.rules.updateRule(r.id, { action: 'deny' });
      expect(k.gate.check(k.call('frob')).action).toBe('deny');
      k.rules.deleteRule(r.id);
      expect(k.gate.check(k.call('frob')).action).toBe('require');
    });
  });

  describe('visibility (docs/approval.md "Visibility")', () => {
    it('hides a tool whose first path-less matching rule is deny', () => {
      k.rules.createRule({ tool_pattern: 'notify', action: 'deny', priority: 1 });
      expect(k.gate.isToolHidden(undefined, 'notify')).toBe(true);
      expect(k.gate.filterVisible(undefined, ['notify', 'write_todos'])).toEqual(['write_todos']);
    });

    it('path-scoped denies (the secrets seed) hide nothing', () => {
      expect(k.gate.filterVisible(undefined, ['read_file', 'write_file', 'list_files'])).toEqual([
        'read_file',
        'write_file',
        'list_files',
      ]);
    });

    it('a path-less deny hides the tool even behind an earlier path-less allow (deny beats allow)', () => {
      k.rules.createRule({ tool_pattern: 'notify', action: 'deny', priority: 50 });
      expect(k.gate.isToolHidden(undefined, 'notify')).toBe(true);
      expect(k.gate.check(k.call('notify')).action).toBe('deny');
    });

    it('a deny catch-all hides only the tools no other rule names', () => {
      const star = k.rules.listRules('default').find((r) => r.tool_pattern === '*')!;
      k.rules.updateRule(star.id, { action: 'deny' });
      k.rules.createRule({ tool_pattern: 'read_file', path_pattern: 'docs/*', action: 'allow' });
      expect(k.gate.isToolHidden(undefined, 'frob')).toBe(true);
      expect(k.gate.isToolHidden(undefined, 'read_file')).toBe(false);
      expect(k.gate.check(k.call('read_file', { path: join(k.workspace, 'docs/a.md') })).action).toBe('allow');
      expect(k.gate.check(k.call('read_file', { path: join(k.workspace, 'src/a.ts') })).action).toBe('deny');
    });

    it('a group deny hides the tool for sessions of that group only', () => {
      k.rules.createGroup({ id: 'ro', name: 'Read only' });
      k.rules.createRule({ group_id: 'ro', tool_pattern: '@fs_write', action: 'deny' });
      expect(k.gate.isToolHidden('ro', 'write_file')).toBe(true);
      expect(k.gate.isToolHidden(undefined, 'write_file')).toBe(false);
    });

    it('MCP tools are never hidden, yet the gate still denies them', () => {
      k.rules.createRule({ tool_pattern: 'mcp__*', action: 'deny', priority: 1 });
      expect(k.gate.isToolHidden(undefined, 'mcp__gmail__send')).toBe(false);
      expect(k.gate.check(k.call('mcp__gmail__send')).action).toBe('deny');
    });

    it('an agent-scoped deny does not hide the tool from everyone', () => {
      k.rules.createRule({ tool_pattern: 'write_todos', agent_id: 'helper', action: 'deny', priority: 1 });
      expect(k.gate.isToolHidden(undefined, 'write_todos')).toBe(false);
      expect(k.gate.isToolHidden(undefined, 'write_todos', { agentId: 'helper', source: 'web' })).toBe(true);
    });
  });

  describe('explain ("what would happen if…")', () => {
    it('gives the same decision as check and a readable trace', () => {
      const call = k.call('execute_cmd', { command: 'echo $(rm x)', workdir: k.workspace });
      const { decision, trace } = k.gate.explain(call);
      expect(decision).toEqual(k.gate.check(call));
      expect(trace.join('\n')).toMatch(/command substitution/);
      expect(trace.at(-1)).toMatch(/^decision: Ask/);
    });
  });
});
