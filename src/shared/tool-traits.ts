/**
 * What every tool says about itself, beside its schema and its run (docs/tools.md "One tool shape"): the fields the
 * gate, the guards, the bypass, the seeds, the labels, the catalog and the tool card read, so that none of them keeps
 * a list of tool names. A tool the core does not know (an MCP tool) has none: it is treated as kind `other`, no
 * category, asked by default, shown as a plain card.
 */
import type { ToolCategory } from './tool-names';

/** What a call does (docs/approval.md): reads, edits files, executes programs, changes the app's config, other. */
export const TOOL_KINDS = ['read', 'edit', 'execute', 'config', 'interface', 'other'] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];

/**
 * How the card shows a call (docs/chat-ui.md "Tool cards"): `diff` a finished edit's Diff and Revert, `command` the
 * command line and its output, `image` the images it made, `question` the person's question and answer, `sub_agent`
 * the task it handed over, `delivered` a result that arrived by itself, `todos` the agent's checklist (its latest list
 * also shows under the chat: lib/latest-todos.ts), `file_hits` / `folder_hits` a search result whose `line:text`
 * (`path:line:text`, relative to the folder searched) lines each open the viewer at that line, `none` nothing beyond
 * label and result.
 */
export const CARD_DISPLAYS = [
  'diff',
  'command',
  'image',
  'question',
  'sub_agent',
  'delivered',
  'todos',
  'file_hits',
  'folder_hits',
  'none',
] as const;
export type CardDisplay = (typeof CARD_DISPLAYS)[number];

export interface ToolTraits {
  readonly name: string;
  readonly kind: ToolKind;
  readonly category: ToolCategory | null;
  /**
   * What the default group decides for a call no other rule names: `allow` is seeded once as a rule the person can
   * edit or delete (approval/tool-seeds.ts); `require` is the catch-all's own answer.
   */
  readonly defaultDecision: 'allow' | 'require';
  /** Argument keys holding paths (made absolute against the working directory before anyone judges the call). */
  readonly pathKeys: readonly string[];
  /** The argument holding a shell command the gate reads with the shell grammar, or null. */
  readonly commandKey: string | null;
  /** Its secret argument is a value to keep (set_secret): every call asks, and no bypass is offered or lifts it. */
  readonly storesSecret: boolean;
  readonly card: CardDisplay;
}

/** A file tool: works on files in the session's working directory and refuses anything outside it by itself. */
export const isFileTool = (t: Pick<ToolTraits, 'kind' | 'category'> | null): boolean =>
  t !== null && t.category === 'filesystem' && (t.kind === 'read' || t.kind === 'edit');

/** Whether a path argument of this call may be written (anything but a read; an unknown tool may write). */
export const mayWrite = (t: Pick<ToolTraits, 'kind'> | null): boolean => t === null || t.kind !== 'read';

/** What the renderer is told of a tool's arguments and kind, with the tool list (the Security page's tester). */
export type ArgumentTraits = Pick<ToolTraits, 'kind' | 'pathKeys' | 'commandKey'>;

/** The argument a person fills first to try a call: its shell command, else its first path; null for neither. */
export const mainArgumentOf = (t: Pick<ToolTraits, 'pathKeys' | 'commandKey'> | null): string | null =>
  t?.commandKey ?? t?.pathKeys[0] ?? null;
