/**
 * The core-owned tools that live outside the registry because they need the session (tools.md "synthetic tools"):
 * `show_file_to_user` (opens the viewer), `write_todos` (stateless checklist, only in the caller's history) and
 * `update_scratchpad` (the session-wide shared notes). Each input is a zod schema, the source of both the JSON
 * Schema the model sees and the validation; a bad argument comes back as a result the model can read.
 */
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { TN } from '../../../shared/tool-names';
import type { Db } from '../db/database';
import { displayPath } from '../tools/_policy/paths';
import { resolvePath } from '../tools/_policy/paths';
import type { Normalized } from '../tools/tool';
import type { ToolSpec } from './ports';

export interface SyntheticEnv {
  db: Db;
  sessionId: number;
  workingDir: string;
  workspaceDir: string;
  openFile: (path: string) => void;
}

interface SyntheticTool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: S;
  run(args: z.output<S>, env: SyntheticEnv): string;
}

const define = <S extends z.ZodType>(tool: SyntheticTool<S>): SyntheticTool => tool as unknown as SyntheticTool;

const showFile = define({
  name: TN.SHOW_FILE_TO_USER,
  description:
    "Open a file in the user's viewer (Markdown, code, text, images, SVG, PDF, HTML, LaTeX). For a LaTeX document pass the .tex source, not a built .pdf: only the .tex is compiled and watched.",
  input: z.object({ path: z.string().min(1).describe('File to show; relative paths resolve against the working directory.') }),
  run({ path }, env) {
    const absolute = isAbsolute(path) ? path : resolve(env.workingDir, path);
    const shown = displayPath(absolute, env.workspaceDir);
    env.openFile(shown);
    return `Opened ${shown} in the user's viewer.`;
  },
});

const todoItem = z.object({
  content: z.string().min(1),
  status: z.enum(['pending', 'in_progress', 'completed']),
});
const writeTodos = define({
  name: TN.WRITE_TODOS,
  description:
    'Keep your private task list for this task: send the WHOLE list with statuses each time. It is not stored or shared; it lives in your own tool results.',
  input: z.object({ todos: z.array(todoItem).max(100) }),
  run({ todos }) {
    const mark = { pending: '[ ]', in_progress: '[~]', completed: '[x]' } as const;
    return todos.length === 0 ? 'Todo list is empty.' : todos.map((t) => `${mark[t.status]} ${t.content}`).join('\n');
  },
});

const scratchpad = define({
  name: TN.UPDATE_SCRATCHPAD,
  description: 'Write a note to the session scratchpad shared by every agent of this session (same key = replace; empty value = delete).',
  input: z.object({ key: z.string().min(1).max(200), value: z.string().max(20_000) }),
  run({ key, value }, env) {
    if (value === '') {
      env.db.prepare('DELETE FROM session_scratchpad WHERE session_id = ? AND key = ?').run(env.sessionId, key);
      return `Removed scratchpad note "${key}".`;
    }
    env.db
      .prepare('INSERT INTO session_scratchpad (session_id, key, value) VALUES (?, ?, ?) ON CONFLICT (session_id, key) DO UPDATE SET value = excluded.value')
      .run(env.sessionId, key, value);
    return `Saved scratchpad note "${key}".`;
  },
});

export const SYNTHETIC_TOOLS: readonly SyntheticTool[] = [showFile, writeTodos, scratchpad];
const byName = new Map(SYNTHETIC_TOOLS.map((t) => [t.name, t]));

/**
 * `ask_user_clarification` (SPEC.md §3.8) waits for a person, so it is async and run by the call driver through
 * the Inbox rather than here; only its schema lives with the others.
 */
export const clarificationTool = {
  name: TN.ASK_USER_CLARIFICATION,
  description:
    'Ask the user a question and wait for the answer. Use it when a choice is theirs to make or the task is ambiguous; offer suggested answers when there are obvious options.',
  input: z.object({
    title: z.string().min(1).max(200).describe('A short title for the question.'),
    question: z.string().min(1).max(20_000).describe('The question, in Markdown.'),
    suggested_answers: z.array(z.string().max(500)).max(10).optional().describe('Answers the user can pick with one click.'),
  }),
};

export function isSyntheticTool(name: string): boolean {
  return byName.has(name) || name === clarificationTool.name;
}

export function syntheticToolSpecs(): ToolSpec[] {
  return [...SYNTHETIC_TOOLS, clarificationTool].map((t) => {
    const { $schema: _drop, ...parameters } = z.toJSONSchema(t.input) as Record<string, unknown>;
    return { name: t.name, description: t.description, parameters };
  });
}

/** Their normalized arguments, as the registry tools' (docs/approval.md): the schema's parse, `path` made absolute. */
export function normalizeSyntheticArgs(name: string, args: Record<string, unknown>, workingDir: string): Normalized {
  const tool = byName.get(name) ?? (name === clarificationTool.name ? clarificationTool : null);
  if (!tool) return { ok: false, error: `Unknown tool ${name}.` };
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) return { ok: false, error: `Invalid arguments for ${name}: ${z.prettifyError(parsed.error)}` };
  const out = parsed.data as Record<string, unknown>;
  return { ok: true, args: typeof out.path === 'string' ? { ...out, path: resolvePath(out.path, workingDir) } : out };
}

export function runSyntheticTool(name: string, args: unknown, env: SyntheticEnv): { ok: boolean; result: string } {
  const tool = byName.get(name);
  if (!tool) return { ok: false, result: `Unknown tool ${name}.` };
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) return { ok: false, result: `Invalid arguments for ${name}: ${z.prettifyError(parsed.error)}` };
  return { ok: true, result: tool.run(parsed.data, env) };
}

export function readScratchpad(db: Db, sessionId: number): { key: string; value: string }[] {
  return db.prepare('SELECT key, value FROM session_scratchpad WHERE session_id = ? ORDER BY key').all(sessionId) as { key: string; value: string }[];
}
