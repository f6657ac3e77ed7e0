/**
 * Default decisions come from the tools (docs/tools.md "One tool shape"): on a fresh data folder every tool the core
 * knows that says `allow` has its seeded allow rule in the default group, and no other tool has one; a seeded rule the
 * person deletes is not written again at the next start.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  cleanupTempDirs();
});

const seededTools = (harness: Harness) =>
  harness.core.approval.rules
    .listRules('default')
    .filter((r) => r.note === 'seeded' && !r.path_pattern && !r.command_pattern && r.tool_pattern !== '*')
    .map((r) => ({ tool: r.tool_pattern, action: r.action }));

describe('tool default seeds', () => {
  it("the default group's seeded rules are exactly the tools' allow defaults", async () => {
    h = await startHarness();
    const allowed = h.core.tools
      .allTraits()
      .filter((t) => t.defaultDecision === 'allow')
      .map((t) => ({ tool: t.name, action: 'allow' }));
    expect(allowed.length).toBeGreaterThan(5);
    const byTool = (a: { tool: string }, b: { tool: string }) => a.tool.localeCompare(b.tool);
    expect(seededTools(h).sort(byTool)).toEqual(allowed.sort(byTool));
  });

  it('a seeded rule the person deleted stays deleted at the next start', async () => {
    h = await startHarness();
    const dataDir = h.dataDir;
    const rule = h.core.approval.rules.listRules('default').find((r) => r.tool_pattern === 'list_items')!;
    h.core.approval.rules.deleteRule(rule.id);
    await h.close();
    h = await startHarness({ dataDir });
    expect(seededTools(h).map((s) => s.tool)).not.toContain('list_items');
  });
});
