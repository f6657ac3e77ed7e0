/**
 * Labels and target paths for tool calls that have no `Tool` in the registry (docs/chat-ui.md "Labels,
 * commands and output"): `show_file_to_user` → `show_file_to_user \`path\`` and its path is the target;
 * the sub-agent launchers (`execute_task`, `execute_subtask`, legacy `run_subtask`) → `execute_task ⚡ →
 * agent: description`, with the mode as one emoji (sync ⚡, async 🚀, cron 📅), falling back to `title`, then to
 * the bare name; a result delivered by itself (docs/scheduler.md "Delivery": arguments `{"delivered": true}`) →
 * `read_notification: notifications arrived` / `read_agent_result: a task finished`. Everything is truncated at a
 * character boundary to the label budget.
 */
import { maxLabel, truncateLabel, type LabelLength } from '../../../shared/labels';
import { TN } from '../../../shared/tool-names';
import type { ToolArgs } from './tool';

const MODE_EMOJI: Readonly<Record<string, string>> = { sync: '⚡', async: '🚀', cron: '📅' };
const SUB_AGENT_TOOLS: ReadonlySet<string> = new Set([TN.EXECUTE_TASK, TN.EXECUTE_SUBTASK, TN.RUN_SUBTASK]);

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

export function describeSubAgentCall(name: string, args: ToolArgs): string {
  const mode = name === TN.EXECUTE_TASK ? MODE_EMOJI[str(args.mode) ?? 'sync'] : undefined;
  const head = mode ? `${name} ${mode}` : name;
  const agent = str(args.agent_id);
  const what = str(args.description) ?? str(args.title);
  if (agent && what) return `${head} → ${agent}: ${what.replace(/\s+/g, ' ')}`;
  if (agent) return `${head} → ${agent}`;
  if (what) return `${head}: ${what.replace(/\s+/g, ' ')}`;
  return head;
}

/** The label of a non-registry tool call, or null when it has no special case (the caller uses the name). */
export function describeInline(name: string, args: ToolArgs, length: LabelLength): string | null {
  if (name === TN.SHOW_FILE_TO_USER) {
    const path = str(args.path);
    return truncateLabel(path ? `${name} \`${path}\`` : name, maxLabel(length));
  }
  if (SUB_AGENT_TOOLS.has(name)) return truncateLabel(describeSubAgentCall(name, args), maxLabel(length));
  if (args.delivered === true && name === TN.READ_NOTIFICATION) return `${name}: notifications arrived`;
  if (args.delivered === true && name === TN.READ_AGENT_RESULT) return `${name}: a task finished`;
  return null;
}

export function inlineTargetPath(name: string, args: ToolArgs): string | null {
  return name === TN.SHOW_FILE_TO_USER ? str(args.path) : null;
}
