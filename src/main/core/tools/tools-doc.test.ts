/**
 * Nothing names a tool that does not exist, and docs/tools.md says what the tools are. Against a real core in a
 * fresh temp data folder: the tools offered (registry + session tools), the catalog the Security page lists, the
 * rules the migrations seed, and the table of docs/tools.md with each tool's default decision taken from the real
 * gate and its visibility from the real offer logic (which agents are offered it, agents/tool-sets.ts). A failure says exactly which row or rule to add, change or remove.
 */
import { TOOL_KINDS } from '../../../shared/tool-traits';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunContextSchema } from '../../../shared/run-context';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { dispatchCall } from '../bridge/dispatch';
import { createCore, type Core } from '../index';
import { syntheticToolSpecs } from '../session/synthetic-tools';
import { MAX_AGENT_DEPTH, type AgentFrame } from '../agents/frame';
import { CONFIG_GROUP } from '../agents/tool-groups';
import { toolSetFor, type ToolSetDeps } from '../agents/tool-sets';

const root = join(__dirname, '../../../..');
let core: Core;
let workspace: string;

beforeAll(async () => {
  const base = tempDir();
  workspace = join(base, 'ws');
  mkdirSync(workspace);
  core = await createCore({
    dataDir: join(base, 'data'),
    workspaceDir: workspace,
    shape: 'web',
    version: 'test',
    agentsDir: join(root, 'agents'),
  });
});
afterAll(async () => {
  await core.dispose();
  cleanupTempDirs();
});

/** Every tool a session can be offered, registry first. */
function existingTools(): string[] {
  return [...core.tools.listAll().map((t) => t.name), ...syntheticToolSpecs().map((t) => t.name)];
}

describe('tools that are named exist', () => {
  it('every seeded rule names an existing tool (or a pattern group of existing tools)', () => {
    const seeded = core.db
      .prepare("SELECT id, tool_pattern FROM approval_rules WHERE note = 'seeded' ORDER BY id")
      .all() as { id: number; tool_pattern: string }[];
    expect(seeded.length).toBeGreaterThan(0);
    const exists = new Set(existingTools());
    const missing = seeded
      .filter((r) => !/[*?@]/.test(r.tool_pattern) && !exists.has(r.tool_pattern))
      .map((r) => `rule ${r.id} names "${r.tool_pattern}"`);
    expect(
      missing,
      'a seeded rule names a tool the registry lacks: drop the seed in a new migration, or build the tool',
    ).toEqual([]);
  });

  it('the catalog lists exactly the existing tools as built-in', async () => {
    const outcome = await dispatchCall(core.handlers, 'approval:listTools', {});
    if (!outcome.ok) throw new Error(outcome.error.message);
    const listed = (outcome.result as { built_in: { name: string }[] }).built_in.map((t) => t.name);
    expect(listed, 'the catalog offers a tool that does not exist, or misses one that does').toEqual(
      [...existingTools()].sort(),
    );
  });
});

interface DocRow {
  name: string;
  kind: string;
  category: string;
  approval: string;
  visibility: string;
}

const KINDS = TOOL_KINDS;

/** The rows of the catalogue table in docs/tools.md (the table whose header starts with "| Name | Kind"). */
function docRows(): DocRow[] {
  const text = readFileSync(join(root, 'docs/tools.md'), 'utf8');
  const lines = text.split('\n');
  const header = lines.findIndex((l) => /^\|\s*Name\s*\|\s*Kind\s*\|/.test(l));
  if (header < 0)
    throw new Error(
      'docs/tools.md has no table with the header "| Name | Kind | Category | Default approval | Visibility |"',
    );
  const rows: DocRow[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [name = '', kind = '', category = '', approval = '', visibility = ''] = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    rows.push({ name: name.replace(/`/g, ''), kind, category, approval, visibility });
  }
  return rows;
}

const formatRow = (r: DocRow) => `| \`${r.name}\` | ${r.kind} | ${r.category} | ${r.approval} | ${r.visibility} |`;

/** The agents a tool can be offered to, as the real offer logic sees them (agents/tool-sets.ts). */
const FRAMES = {
  chat: { depth: 0, interactive: true, agentType: 'chat' },
  background: { depth: 0, interactive: false, agentType: 'task' },
  subAgent: { depth: 1, interactive: true, agentType: 'task' },
  deepest: { depth: MAX_AGENT_DEPTH, interactive: true, agentType: 'task' },
  system: { depth: 0, interactive: false, agentType: 'system' },
} as const;

/** The names offered to each frame, before and after `activate_tools(["config"])`. */
function offers(granted: string[]): Record<keyof typeof FRAMES, Set<string>> {
  const deps: ToolSetDeps = {
    tools: core.tools,
    groups: core.toolGroups,
    grants: { granted: () => granted } as unknown as ToolSetDeps['grants'],
    isHidden: () => false,
  };
  const out = {} as Record<keyof typeof FRAMES, Set<string>>;
  for (const [key, f] of Object.entries(FRAMES) as [keyof typeof FRAMES, (typeof FRAMES)[keyof typeof FRAMES]][]) {
    const frame: AgentFrame = {
      sessionId: 1,
      stackId: f.depth ? 7 : null,
      agentId: 'a',
      agentName: 'A',
      toolAllowList: null,
      ...f,
    };
    out[key] = new Set(toolSetFor(frame, undefined, deps).map((t) => t.name));
  }
  return out;
}

/** The Visibility column's words for where a tool is offered (docs/tools.md explains them). */
function visibilityOf(name: string): string {
  const base = offers([]);
  const granted = offers([CONFIG_GROUP]);
  const lazy = !base.chat.has(name) && granted.chat.has(name);
  const o = lazy ? granted : base;
  const all = o.chat.has(name) && o.background.has(name) && o.subAgent.has(name) && o.deepest.has(name);
  let words: string;
  if (all) words = o.system.has(name) ? 'all agents' : 'all agents except system agents';
  else {
    const where: string[] = [];
    if (o.chat.has(name)) where.push('chat agent');
    if (o.background.has(name)) where.push('background agent');
    if (o.subAgent.has(name)) where.push(o.deepest.has(name) ? 'sub-agents' : 'sub-agents above the deepest level');
    words = where.join(', ') || 'none';
  }
  return lazy ? `${words}, after activate_tools` : words;
}

/** What the table must say about a tool, from the real registry, offer logic and gate in a fresh data folder. */
function expectedRow(name: string, documented: DocRow | undefined): DocRow {
  // Every tool declares its kind, the session's own too (docs/tools.md "One tool shape").
  const kind = core.tools.traitsOf(name)?.kind ?? `<${KINDS.join('|')}> (the tool declares none)`;
  const category = core.tools.categoryOf(name) ?? '—';
  const args = { path: join(workspace, 'notes.txt'), command: 'make build', workdir: workspace };
  const decision = core.approval.gate.check({
    sessionId: null,
    agentId: 'default',
    source: 'chat',
    toolName: name,
    category: core.tools.categoryOf(name),
    args,
    runContext: RunContextSchema.parse({}),
    workingDir: workspace,
  });
  const approval = decision.action === 'require' ? 'ask' : decision.action;
  return { name, kind, category, approval, visibility: visibilityOf(name) };
}

describe('docs/tools.md', () => {
  it('its table has one row per existing tool, each equal to what the registry and the gate say', () => {
    const rows = docRows();
    const byName = new Map(rows.map((r) => [r.name, r]));
    const problems: string[] = [];
    for (const name of existingTools()) {
      const documented = byName.get(name);
      const expected = expectedRow(name, documented);
      if (!documented) problems.push(`add this row to the table in docs/tools.md:\n  ${formatRow(expected)}`);
      else if (formatRow(documented) !== formatRow(expected))
        problems.push(
          `change the row of \`${name}\` in docs/tools.md\n  from ${formatRow(documented)}\n  to   ${formatRow(expected)}`,
        );
    }
    const exists = new Set(existingTools());
    for (const r of rows)
      if (!exists.has(r.name)) problems.push(`remove the row of \`${r.name}\` from docs/tools.md: no such tool exists`);
    expect(problems.join('\n'), problems.join('\n')).toBe('');
    expect(
      rows.map((r) => r.name),
      'keep the table sorted by name',
    ).toEqual(rows.map((r) => r.name).sort());
  });
});
