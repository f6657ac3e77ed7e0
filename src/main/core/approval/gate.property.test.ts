/**
 * Property tests over random rule sets (docs/approval.md "Evaluation order", "Security checks"), against the real
 * gate on a real SQLite file:
 * - the decision equals a small independent model: of all matching rules deny beats require beats allow, the
 *   catch-all only decides when nothing else matches, priority and id only name the rule within an action;
 * - a matching deny beats everything, at any priority, and a matching ask beats every allow, at any priority;
 * - the action does not depend on the priorities nor on the order the rules were written in;
 * - a deny (rule or guard) is never lifted, whatever bypass or fast-path is present;
 * - lifting is monotone: adding a bypass never turns allow or deny into something else.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { RuleInput } from './rule-checks';
import { LAYOUTS, makeKit, type Kit } from './test-kit';

let k: Kit;

const TOOLS = ['read_file', 'write_file', 'list_files', 'execute_cmd', 'notify', 'mcp__srv__do', 'frob'];
const PATHS = [null, 'a.txt', 'docs/x.md', 'private/y.txt', 'memory/z.md', 'memory-x/z.md'];
const TOOL_PATTERNS = [
  '*',
  '@fs_read',
  '@fs_write',
  '@fs_any',
  'read_file',
  'write_file',
  'execute_cmd',
  'notify',
  'mcp__srv__*',
  'fr*',
];
const PATH_PATTERNS = [null, '*', 'docs/*', 'private/*', 'a.txt', 'memory/*', 'memory*'];

const ruleArb = fc.record({
  group_id: fc.constantFrom('default', 'g'),
  tool_pattern: fc.constantFrom(...TOOL_PATTERNS),
  path_pattern: fc.constantFrom(...PATH_PATTERNS),
  action: fc.constantFrom('allow' as const, 'deny' as const, 'require' as const),
  priority: fc.integer({ min: -3, max: 3 }),
});
const callArb = fc.record({
  tool: fc.constantFrom(...TOOLS),
  path: fc.constantFrom(...PATHS),
  group: fc.constantFrom(undefined, 'g'),
  bypass: fc.boolean(),
  writable: fc.boolean(),
});

/** Writes the rule set; rules the repository refuses (a second catch-all) are left out, as a user would see. */
function install(rules: RuleInput[]) {
  k.db.exec('DELETE FROM approval_rules');
  k.rules.invalidate();
  k.bypass.clearSession(1);
  const kept: { input: RuleInput; id: number }[] = [];
  for (const input of rules) {
    try {
      kept.push({ input, id: k.rules.createRule(input).id });
    } catch {
      // refused: not part of the set
    }
  }
  return kept;
}

/**
 * The model's own idea of the groups, written out by hand (the gate reads each tool's traits: patterns.ts); a tool
 * whose traits put it in another group makes the two disagree, and this test fails.
 */
const FS_READ_TOOLS: readonly string[] = ['read_file', 'grep_files', 'list_files', 'search_file', 'get_ast_outline'];
const FS_WRITE_TOOLS: readonly string[] = ['write_file', 'edit_file', 'insert_at_line', 'replace_lines'];
const FS_ANY_TOOLS: readonly string[] = [...FS_READ_TOOLS, ...FS_WRITE_TOOLS];

function modelToolMatch(p: string, tool: string): boolean {
  if (p === '*') return true;
  if (p === '@fs_read') return FS_READ_TOOLS.includes(tool);
  if (p === '@fs_write') return FS_WRITE_TOOLS.includes(tool);
  if (p === '@fs_any') return FS_ANY_TOOLS.includes(tool);
  if (p.endsWith('*')) return tool.startsWith(p.slice(0, -1));
  return p === tool;
}
function modelPathMatch(p: string | null | undefined, path: string | null): boolean {
  if (!p) return true;
  if (path === null) return false;
  if (p === '*') return true;
  if (p.endsWith('/*')) return path === p.slice(0, -2) || path.startsWith(p.slice(0, -1));
  if (p.endsWith('*')) return path.startsWith(p.slice(0, -1));
  return p === path;
}
const STRENGTH = { allow: 1, require: 2, deny: 3 } as const;
const isCatchAll = (r: RuleInput) => r.tool_pattern === '*' && !r.path_pattern;

interface Expected {
  action: 'allow' | 'deny' | 'require' | null;
  ruleId: number | null;
  /** Decided by a catch-all (or nothing): the fast-path may lift a require. */
  isFallback: boolean;
}

function model(
  kept: { input: RuleInput; id: number }[],
  c: { tool: string; path: string | null; group?: string | undefined },
): Expected {
  const order = (g: string) =>
    kept
      .filter((r) => (r.input.group_id ?? 'default') === g)
      .sort((a, b) => (a.input.priority ?? 100) - (b.input.priority ?? 100) || a.id - b.id);
  const listed = (c.group ? [order(c.group), order('default')] : [order('default')]).flat();
  const matching = listed.filter(
    (r) => modelToolMatch(r.input.tool_pattern, c.tool) && modelPathMatch(r.input.path_pattern, c.path),
  );
  const specific = matching.filter((r) => !isCatchAll(r.input));
  if (specific.length === 0) {
    const fallback = matching[0];
    return { action: fallback?.input.action ?? null, ruleId: fallback?.id ?? null, isFallback: true };
  }
  const top = Math.max(...specific.map((r) => STRENGTH[r.input.action]));
  const named = specific.find((r) => STRENGTH[r.input.action] === top)!;
  return { action: named.input.action, ruleId: named.id, isFallback: false };
}

/** At most one catch-all per group, so that every order of writing keeps the same set. */
function oneCatchAllPerGroup(rules: RuleInput[]): RuleInput[] {
  const seen = new Set<string>();
  return rules.filter((r) => {
    if (!isCatchAll(r)) return true;
    const g = r.group_id ?? 'default';
    if (seen.has(g)) return false;
    seen.add(g);
    return true;
  });
}

function decide(c: {
  tool: string;
  path: string | null;
  group: string | undefined;
  bypass: boolean;
  writable: boolean;
}) {
  if (c.bypass) k.bypass.grant(1, { kind: 'all' }, null);
  else k.bypass.clearSession(1);
  const args =
    c.tool === 'execute_cmd'
      ? { command: 'ls', workdir: k.workspace }
      : c.path
        ? { path: join(k.workspace, c.path) }
        : {};
  const runContext = k.rc({
    ...(c.group ? { security_group: c.group } : {}),
    allow_fs_writes: c.writable ? ['.'] : [],
  });
  return k.gate.check(k.call(c.tool, args, { runContext }));
}

const isFsWithPath = (c: { tool: string; path: string | null }) => c.path !== null && FS_ANY_TOOLS.includes(c.tool); // the fast-path's domain

describe.each(LAYOUTS)('a session in the %s', (layout) => {
  beforeAll(async () => {
    k = await makeKit({ layout });
    k.rules.createGroup({ id: 'g', name: 'G' });
  });
  afterAll(() => k.close());

  describe('X2: random rule sets', () => {
    it('the gate agrees with the model (action and the rule it names); deny is never lifted; no match asks unless lifted', () => {
      fc.assert(
        fc.property(fc.array(ruleArb, { maxLength: 12 }), callArb, (rules, c) => {
          const kept = install(rules);
          // execute_cmd carries a command, not a path.
          const expected = model(kept, { ...c, path: c.tool === 'execute_cmd' ? null : c.path });
          const d = decide(c);
          if (expected.action === 'deny' || expected.action === 'allow') {
            expect(d.action).toBe(expected.action);
            expect(d.why.ruleId).toBe(expected.ruleId);
          } else {
            const fastPath = expected.isFallback && isFsWithPath(c) && (FS_READ_TOOLS.includes(c.tool) || c.writable);
            const liftable = c.bypass || fastPath;
            expect(d.action).toBe(liftable ? 'allow' : 'require');
            if (!liftable) expect(d.why.ruleId ?? null).toBe(expected.ruleId);
            if (expected.action === null && !liftable) expect(d.why.kind).toBe('default');
          }
        }),
        { numRuns: 300 },
      );
    });

    it('a matching deny beats any other rules, a bypass and the fast-path, at any priority', () => {
      fc.assert(
        fc.property(
          fc.array(ruleArb, { maxLength: 10 }),
          callArb,
          fc.integer({ min: -1_000, max: 1_000 }),
          (rules, c, priority) => {
            const deny: RuleInput = { group_id: c.group ?? 'default', tool_pattern: c.tool, action: 'deny', priority };
            const kept = install([...rules, deny]);
            const d = decide({ ...c, bypass: true, writable: true });
            expect(d.action).toBe('deny');
            expect(d.why.text).toMatch(/^Denied by rule \d+/);
            // The "why" names the beaten allow or ask rules, if any matched.
            const inScope = (r: { input: RuleInput }) => [c.group, 'default'].includes(r.input.group_id ?? 'default');
            const beaten = kept.filter(
              (r) =>
                inScope(r) &&
                r.input.action !== 'deny' &&
                !isCatchAll(r.input) &&
                modelToolMatch(r.input.tool_pattern, c.tool) &&
                modelPathMatch(r.input.path_pattern, c.tool === 'execute_cmd' ? null : c.path),
            );
            if (beaten.length > 0) expect(d.why.text).toContain('(beats ');
          },
        ),
        { numRuns: 150 },
      );
    });

    it('a matching ask beats every allow at any priority (only a bypass lifts it)', () => {
      fc.assert(
        fc.property(
          fc.array(
            ruleArb.filter((r) => r.action === 'allow'),
            { maxLength: 10 },
          ),
          callArb,
          fc.integer({ min: -1_000, max: 1_000 }),
          (rules, c, priority) => {
            const ask: RuleInput = {
              group_id: c.group ?? 'default',
              tool_pattern: c.tool,
              action: 'require',
              priority,
            };
            install([...rules, ask]);
            expect(decide({ ...c, bypass: false, writable: true }).action).toBe('require');
          },
        ),
        { numRuns: 150 },
      );
    });

    it('the action does not depend on priorities or on the order the rules were written in', () => {
      fc.assert(
        fc.property(
          fc.array(ruleArb, { maxLength: 10 }).map(oneCatchAllPerGroup),
          callArb,
          fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 10, maxLength: 10 }),
          (rules, c, priorities) => {
            install(rules);
            const a = decide(c).action;
            install([...rules].reverse().map((r, i) => ({ ...r, priority: priorities[i]! })));
            expect(decide(c).action).toBe(a);
          },
        ),
        { numRuns: 200 },
      );
    });

    it('a secrets/ path is denied whatever the rules say', () => {
      fc.assert(
        fc.property(
          fc.array(ruleArb, { maxLength: 10 }),
          fc.constantFrom(...FS_ANY_TOOLS),
          fc.constantFrom('secrets/a', 'x/Secrets/b', 'SECRETS'),
          (rules, tool, path) => {
            install(rules.map((r) => ({ ...r, action: 'allow' as const })));
            k.bypass.grant(1, { kind: 'all' }, null);
            const d = k.gate.check(
              k.call(tool, { path: join(k.workspace, path) }, { runContext: k.rc({ allow_fs_writes: ['.'] }) }),
            );
            expect(d.why.kind).toBe('guard');
            expect(d.action).toBe('deny');
          },
        ),
        { numRuns: 100 },
      );
    });

    it('a bypass only ever lifts require to allow', () => {
      fc.assert(
        fc.property(fc.array(ruleArb, { maxLength: 10 }), callArb, (rules, c) => {
          install(rules);
          const without = decide({ ...c, bypass: false }).action;
          const withBypass = decide({ ...c, bypass: true }).action;
          expect(withBypass).toBe(without === 'require' ? 'allow' : without);
        }),
        { numRuns: 150 },
      );
    });
  });
});
