/**
 * Project instructions (docs/chat-ui.md "Project instructions"): an `AGENTS.md` in the session's working directory,
 * the file coding agents (Codex, Cursor, goose, …) read for a project's conventions, goes to the model in the system
 * message, each round as it then is, for the session's agent and its sub-agents alike. It is read as `read_file`
 * would read it, never more: only when the gate allows that very call without asking (a deny or ask rule keeps it
 * out, as do the hard guards: the data folder, secrets, a link out of the workspace), a regular file of text, at
 * most MAX_PROJECT_INSTRUCTIONS_CHARS of it, opened through the disk module as `read_file` opens (docs/guards.md "One
 * disk policy": no symlink on the path, never a FIFO, a hard link to a guarded file refused). Reading it writes
 * nothing: no row, no decision in the audit.
 */
import { join } from 'node:path';
import { TN } from '../../../shared/tool-names';
import { statAt, type FileInfo } from '../disk/kinds';
import { decodeText } from '../disk/text-bytes';
import { readCapped } from '../tools/_policy/fs';
import { guardRead } from '../tools/_policy/guard';
import { normalizeToolArgs, type CallEnv } from './tool-call';

export const INSTRUCTIONS_FILE = 'AGENTS.md';
export const MAX_PROJECT_INSTRUCTIONS_CHARS = 32 * 1024;

/** What the session's AGENTS.md gives the model: its text, or why nothing (`note`). */
export interface ProjectInstructions {
  /** The file's absolute path. */
  path: string;
  /** The text the model gets (cut to MAX_PROJECT_INSTRUCTIONS_CHARS); null when it is not given. */
  text: string | null;
  /** Why it is not given, or that it was cut; null when it is given whole. */
  note: string | null;
}

export type InstructionsEnv = Pick<
  CallEnv,
  | 'gate'
  | 'tools'
  | 'sessionId'
  | 'agentId'
  | 'source'
  | 'runContext'
  | 'workingDir'
  | 'workspaceDir'
  | 'protectedRoots'
  | 'defaultWorkspaceDir'
>;

/**
 * The last texts read, by path, with the file's identity, size and time: a round whose file is unchanged reads only
 * its stat (the gate still judges the read each round).
 */
const lastRead = new Map<string, { stamp: string; text: string | null }>();
const KEPT = 16;

function fileText(path: string, env: InstructionsEnv, stat: FileInfo): string | null {
  const stamp = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  const known = lastRead.get(path);
  if (known?.stamp === stamp) return known.text;
  // Through the hard guards, as read_file reads (a hard link to a secret is refused there); past 4 bytes a character
  // allowed, no more is needed.
  const read = readCapped(guardRead(INSTRUCTIONS_FILE, env), MAX_PROJECT_INSTRUCTIONS_CHARS * 4);
  const text = decodeText(read.bytes)?.text ?? null;
  lastRead.delete(path);
  lastRead.set(path, { stamp, text });
  if (lastRead.size > KEPT) lastRead.delete(lastRead.keys().next().value!);
  return text;
}

/** The working directory's AGENTS.md as the model gets it; null when there is none. */
export function projectInstructions(env: InstructionsEnv): ProjectInstructions | null {
  const path = join(env.workingDir, INSTRUCTIONS_FILE);
  const stat = statAt(path, false);
  if (!stat) return null;
  if (!stat.isFile())
    return {
      path,
      text: null,
      note: `${INSTRUCTIONS_FILE} is not a regular file (a link or a folder), so it is not read.`,
    };
  const normalized = normalizeToolArgs(env.tools, TN.READ_FILE, { path: INSTRUCTIONS_FILE }, env.workingDir);
  if (!normalized.ok) return { path, text: null, note: normalized.error };
  let decision;
  try {
    const call = {
      sessionId: env.sessionId,
      agentId: env.agentId,
      source: env.source,
      toolName: TN.READ_FILE,
      category: env.tools.categoryOf(TN.READ_FILE),
      args: normalized.args,
      runContext: env.runContext,
      workingDir: env.workingDir,
    };
    decision = env.gate.check(call);
  } catch {
    decision = null; // a gate that cannot decide never lets anything through
  }
  if (decision?.action !== 'allow')
    return {
      path,
      text: null,
      note: `Reading ${INSTRUCTIONS_FILE} is not allowed without asking (${decision?.why.text ?? 'the rules could not be evaluated'}), so the model does not get it.`,
    };
  let text: string | null;
  try {
    text = fileText(path, env, stat);
  } catch (error) {
    return { path, text: null, note: (error as Error).message };
  }
  if (text === null) return { path, text: null, note: `${INSTRUCTIONS_FILE} is not a text file, so it is not read.` };
  if (text.trim() === '') return { path, text: null, note: `${INSTRUCTIONS_FILE} is empty.` };
  if (text.length <= MAX_PROJECT_INSTRUCTIONS_CHARS) return { path, text, note: null };
  return {
    path,
    text: text.slice(0, MAX_PROJECT_INSTRUCTIONS_CHARS),
    note: `Only its first ${MAX_PROJECT_INSTRUCTIONS_CHARS.toLocaleString('en')} characters are given (the file has ${stat.size.toLocaleString('en')} bytes).`,
  };
}

/** The system message's part for the project's instructions: none, or one. */
export function instructionsPrompts(env: InstructionsEnv): string[] {
  const found = projectInstructions(env);
  if (!found?.text) return [];
  const cut = found.note ? `\n[${found.note} Read the rest with read_file.]` : '';
  return [
    `Project instructions, from ${found.path} (the project's own file: follow them where they do not conflict with the person's requests or the app's rules):\n<project-instructions>\n${found.text}${cut}\n</project-instructions>`,
  ];
}

/**
 * The system message's part for the person's own standing instructions (Settings → General; docs/chat-ui.md "Your
 * instructions"): none, or one. The session's agent gets them; a sub-agent works from its brief, and its answer goes
 * back through the agent that has them.
 */
export function personPrompts(text: string): string[] {
  const trimmed = text.trim();
  return trimmed
    ? [
        `The person's own instructions for every chat (from Settings; follow them unless a message of theirs says otherwise):\n<person-instructions>\n${trimmed}\n</person-instructions>`,
      ]
    : [];
}
