/**
 * The Security page's store over the real core: rules arrive in evaluation order, a new rule is read first, a
 * refusal comes back with the core's message and its field and writes nothing, moving rewrites the order, and
 * group writes select what they made.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { installRealBridge, type RealBridge } from './real-bridge';

let bridge: RealBridge;
let store: typeof import('../../src/renderer/src/stores/security-store');
const draft = (patch: Record<string, string>) => ({
  tool_pattern: '',
  path_pattern: '',
  command_pattern: '',
  action: 'allow' as const,
  note: '',
  priority: '',
  network: false,
  ...patch,
});

beforeAll(async () => {
  bridge = await installRealBridge();
  store = await import('../../src/renderer/src/stores/security-store');
});
afterAll(() => bridge.close());
beforeEach(async () => {
  store.resetSecurityStore();
  await store.loadSecurity();
});

const state = () => store.securityStore.getState();

describe('security store', () => {
  it('loads groups, guards, tools and the default rules in evaluation order', () => {
    expect(state().groups.map((g) => g.id)).toEqual(['default']);
    expect(state().guards.length).toBeGreaterThan(5);
    expect(state().tools.built_in.map((t) => t.name)).toContain('read_file');
    // Deny, then ask, then allow (each by priority), the catch-all last: the gate's order (docs/approval.md).
    const rank = { deny: 0, require: 1, allow: 2 } as const;
    const rules = state().rules;
    expect(rules.at(-1)).toMatchObject({ tool_pattern: '*', path_pattern: null });
    const ranked = rules.slice(0, -1).map((r) => [rank[r.action], r.priority, r.id]);
    expect(ranked).toEqual([...ranked].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!));
    expect(state().error).toBeNull();
  });

  it('puts a new rule first among its action and writes it through the core', async () => {
    const result = await store.saveRule(
      draft({ tool_pattern: 'execute_cmd', command_pattern: 'npm test', action: 'allow' }),
    );
    expect(result.ok).toBe(true);
    expect(state().rules.find((r) => r.action === 'allow')).toMatchObject({
      tool_pattern: 'execute_cmd',
      command_pattern: 'npm test',
    });
    const stored = (await bridge.skald.approval.listRules({ groupId: 'default' })).rules;
    expect(stored.some((r) => r.command_pattern === 'npm test')).toBe(true);
  });

  it("returns a refusal with the core's message at its field and writes nothing", async () => {
    const before = (await bridge.skald.approval.listRules({})).rules;
    const target = state().rules.find((r) => r.path_pattern === 'memory/*')!;
    const refused = await store.saveRule(
      draft({ tool_pattern: '@fs_any', path_pattern: '../outside/*', action: 'allow' }),
      target.id,
    );
    expect(refused).toEqual({
      ok: false,
      field: 'path_pattern',
      message: expect.stringMatching(/may not contain "\.\."/),
    });
    const conflict = await store.saveRule(draft({ tool_pattern: '*', action: 'allow' }));
    expect(conflict).toMatchObject({ ok: false, field: 'tool_pattern', message: expect.stringMatching(/catch-all/) });
    expect((await bridge.skald.approval.listRules({})).rules).toEqual(before);
  });

  it('moves a rule down and up within its action; the first cannot move up', async () => {
    const allows = state().rules.filter((r) => r.action === 'allow' && r.tool_pattern !== '*');
    const [first, second] = allows;
    const at = state().rules.indexOf(first!);
    await store.moveRule(first!.id, 1);
    expect(
      state()
        .rules.slice(at, at + 2)
        .map((r) => r.id),
    ).toEqual([second!.id, first!.id]);
    await store.moveRule(first!.id, -1);
    expect(state().rules[at]!.id).toBe(first!.id);
    const before = state().rules;
    await store.moveRule(first!.id, -1);
    expect(state().rules).toEqual(before);
  });

  it('creates a group with an id from its name, duplicates and deletes it; Default stays', async () => {
    expect(await store.createGroup('Client work')).toBe(true);
    expect(state().groupId).toBe('client-work');
    expect(state().fallback.length).toBeGreaterThan(0); // Default is read after it
    await store.saveRule(draft({ tool_pattern: 'read_file', path_pattern: 'src/*' }));
    expect(await store.duplicateGroup('client-work', 'Client work')).toBe(true);
    expect(state().groupId).toBe('client-work-2');
    expect(state().rules.map((r) => r.path_pattern)).toEqual(['src/*']);
    expect(await store.deleteGroup('client-work-2')).toBe(true);
    expect(state().groupId).toBe('default');
    expect(await store.deleteGroup('default')).toBe(false);
    expect(state().error).toMatch(/cannot be deleted/);
    await store.deleteGroup('client-work');
  });
});
