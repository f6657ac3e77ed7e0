/**
 * Running the session's own tools (docs/agents.md "Session tools"), the ones that need the session, the calling frame
 * or a core service: the list `SESSION_TOOLS` (tools/session/index.ts; `ask_user_clarification` is run by the call
 * driver through the Inbox). This module checks no two share a name, gives their JSON Schemas, and runs one call: a
 * bad argument comes back as a result the model can read, never as an exception. Which frame sees which of them is
 * decided in agents/tool-sets.ts.
 */
import { z } from 'zod';
import type { ExecutionOutcome } from '../tools/tool';
import { clarificationTool } from '../tools/session/ask-user-clarification';
import type { InterfaceCall } from '../tools/session/interface-tool';
import { SESSION_TOOLS } from '../tools/session/index';
import { resolvePath } from '../tools/_policy/paths';
import type { Normalized } from '../tools/tool';

import type { SyntheticEnv as ToolsEnv } from '../tools/session/interface-tool';
import type { Db } from '../db/database';
import { writeScratchpadNote } from './scratchpad-store';

/** What the session's own tools get, and the database the session's code beside them reads (the scratchpad). */
export type SyntheticEnv = ToolsEnv & { db: Db };

/** The scratchpad port of the session's own tools, over the one writer of its table. */
export const scratchpadOf = (db: Db): ToolsEnv['scratchpad'] => ({
  write: (padSessionId, key, value) => writeScratchpadNote(db, padSessionId, key, value),
});

/**
 * The environment of a call made outside any session turn (benchmarks of the call path): the session's own agent,
 * no sub-agents, no background work, no tool groups.
 */
export function standaloneSyntheticEnv(db: Db, sessionId: number, workingDir: string): SyntheticEnv {
  return {
    db,
    sessionId,
    padSessionId: sessionId,
    workingDir,
    workspaceDir: workingDir,
    openFile: () => {},
    scratchpad: scratchpadOf(db),
    scratchpadChanged: () => {},
    frame: {
      sessionId,
      stackId: null,
      depth: 0,
      agentId: 'main',
      agentName: 'Skald',
      agentType: 'chat',
      interactive: true,
      toolAllowList: null,
    },
    groupNames: () => [],
    grant: () => {},
    background: null,
    subAgents: { runSync: async () => ({ kind: 'failed', error: 'Sub-agents run only inside a session turn.' }) },
  };
}
export { readScratchpad } from './scratchpad-store';

export { clarificationTool };
// Their JSON Schemas are made below the session, where the tool sets are decided (agents/session-tool-specs.ts).
export { syntheticToolSpec, syntheticToolSpecs } from '../agents/session-tool-specs';

const byName = new Map(SESSION_TOOLS.map((t) => [t.name, t]));
if (byName.size !== SESSION_TOOLS.length) throw new Error('Two session tools share a name.');

export function isSyntheticTool(name: string): boolean {
  return byName.has(name);
}

/**
 * Their normalized arguments, as the registry tools' (docs/approval.md): the schema's parse, `path` made absolute (one
 * longer than the system takes is refused before, by `normalizeToolArgs`).
 */
export function normalizeSyntheticArgs(name: string, args: Record<string, unknown>, workingDir: string): Normalized {
  const tool = byName.get(name);
  if (!tool) return { ok: false, error: `Unknown tool ${name}.` };
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) return { ok: false, error: `Invalid arguments for ${name}: ${z.prettifyError(parsed.error)}` };
  const out = parsed.data as Record<string, unknown>;
  return { ok: true, args: typeof out.path === 'string' ? { ...out, path: resolvePath(out.path, workingDir) } : out };
}

export async function runSyntheticTool(name: string, args: unknown, call: InterfaceCall): Promise<ExecutionOutcome> {
  const tool = byName.get(name);
  if (!tool) return { kind: 'failed', error: `Unknown tool ${name}.` };
  const parsed = tool.input.safeParse(args);
  if (!parsed.success)
    return { kind: 'failed', error: `Invalid arguments for ${name}: ${z.prettifyError(parsed.error)}` };
  const value = await tool.run(parsed.data, call);
  return typeof value === 'string' ? { kind: 'completed', result: value } : value;
}
