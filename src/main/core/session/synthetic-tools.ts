/**
 * The core-owned tools that live outside the registry because they need the session, the calling frame or a core
 * service (docs/agents.md "Session tools"): the interface tools of tools/session and tools/agents, and the schema
 * of `ask_user_clarification` (run by the call driver through the Inbox). This module joins them into one list
 * (no two of one name), gives their JSON Schemas, and runs one call: a bad argument comes back as a result the
 * model can read, never as an exception. Which frame sees which of them is decided in agents/tool-sets.ts.
 */
import { z } from 'zod';
import { TN } from '../../../shared/tool-names';
import { executeSubtaskTool, executeTaskTool, readAgentResultTool } from '../tools/agents/execute-task';
import type { ExecutionOutcome } from '../tools/tool';
import { activateToolsTool } from '../tools/session/activate-tools';
import type { InterfaceCall, InterfaceTool } from '../tools/session/interface-tool';
import { notifyTool } from '../tools/session/notify';
import { readNotificationTool } from '../tools/session/read-notification';
import { showFileToUserTool } from '../tools/session/show-file-to-user';
import { updateScratchpadTool } from '../tools/session/update-scratchpad';
import { writeTodosTool } from '../tools/session/write-todos';
import { resolvePath } from '../tools/_policy/paths';
import type { Normalized } from '../tools/tool';
import type { ToolSpec } from './ports';

export type { SyntheticEnv } from '../tools/session/interface-tool';
import type { SyntheticEnv } from '../tools/session/interface-tool';
import type { Db } from '../db/database';

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

/**
 * `ask_user_clarification` (docs/agents.md "Session tools") waits for a person, so it is async and run by the call
 * driver through the Inbox rather than here; only its schema lives with the others.
 */
export const clarificationTool = {
  name: TN.ASK_USER_CLARIFICATION,
  description:
    'Ask the user a question and wait for the answer. Use it when a choice is theirs to make or the task is ambiguous; offer suggested answers when there are obvious options.',
  input: z.object({
    title: z.string().min(1).max(200).describe('A short title for the question.'),
    question: z.string().min(1).max(20_000).describe('The question, in Markdown.'),
    suggested_answers: z
      .array(z.string().max(500))
      .max(10)
      .optional()
      .describe('Answers the user can pick with one click.'),
  }),
};

export const INTERFACE_TOOLS: readonly InterfaceTool[] = [
  showFileToUserTool,
  writeTodosTool,
  updateScratchpadTool,
  activateToolsTool,
  executeTaskTool,
  executeSubtaskTool,
  readAgentResultTool,
  notifyTool,
  readNotificationTool,
];
const byName = new Map(INTERFACE_TOOLS.map((t) => [t.name, t]));
if (byName.size !== INTERFACE_TOOLS.length || byName.has(clarificationTool.name))
  throw new Error('Two interface tools share a name.');

export function isSyntheticTool(name: string): boolean {
  return byName.has(name) || name === clarificationTool.name;
}

function specOf(t: { name: string; description: string | (() => string); input: z.ZodType }): ToolSpec {
  const { $schema: _drop, ...parameters } = z.toJSONSchema(t.input, { io: 'input' }) as Record<string, unknown>;
  return {
    name: t.name,
    description: typeof t.description === 'function' ? t.description() : t.description,
    parameters,
  };
}

const specCache = new Map<string, ToolSpec>();
/** The JSON Schema of one synthetic tool (generated once: the inputs are static). */
export function syntheticToolSpec(name: string): ToolSpec | null {
  const cached = specCache.get(name);
  if (cached) return cached;
  const tool = name === clarificationTool.name ? clarificationTool : byName.get(name);
  if (!tool) return null;
  const spec = specOf(tool);
  specCache.set(name, spec);
  return spec;
}

export function syntheticToolSpecs(): ToolSpec[] {
  return [...INTERFACE_TOOLS.map((t) => t.name), clarificationTool.name].map((n) => syntheticToolSpec(n)!);
}

/**
 * Their normalized arguments, as the registry tools' (docs/approval.md): the schema's parse, `path` made absolute (one
 * longer than the system takes is refused before, by `normalizeToolArgs`).
 */
export function normalizeSyntheticArgs(name: string, args: Record<string, unknown>, workingDir: string): Normalized {
  const tool = byName.get(name) ?? (name === clarificationTool.name ? clarificationTool : null);
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
