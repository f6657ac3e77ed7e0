/**
 * One pending approval as its card shows it, and what the card may be answered with (docs/approval.md "Approval
 * binding", "The sandbox on the card"). The card is shaped by the tool's preview, never by its name; an answer may
 * grant only a bypass scope the card offered, and a sandbox choice only for a command. The Inbox (pending.ts) holds
 * these items and decides when they are asked, answered or withdrawn.
 */
import { BridgeError } from '../../../shared/contract/define';
import type { ChatEventBody } from '../../../shared/contract/chat';
import type { InboxApproval } from '../../../shared/contract/inbox';
import type { SandboxChoice, SandboxLine } from '../../../shared/contract/sandbox';
import { parseMcpToolName, type ToolCategory } from '../../../shared/tool-names';
import type { Preview } from '../tools/tool';
import type { SandboxDecision } from '../sandbox/decision';
import type { BypassKind, BypassOption } from './bypass';
import type { ApprovalOutcome } from './decisions';

/** What the session's chat hears of a request: that it waits. Its answer arrives as the call's `tool_decision`. */
export type SessionApprovalEvent = Extract<
  ChatEventBody,
  { type: 'approval_required' | 'pending_write' | 'agent_question' }
>;

export interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

export interface ApprovalItem extends Omit<InboxApproval, 'live' | 'sandbox'> {
  /** The command runs in the sandbox for a session working here; the card's line is drawn when listed. */
  sandbox_dir: string | null;
  args: Record<string, unknown>;
  /** Where the preview's diff or command line goes on the card (`src/a.ts`, `$ execute_cmd`); null = no preview. */
  preview_path: string | null;
  waiter: Waiter<ApprovalOutcome> | null;
  timer: ReturnType<typeof setTimeout> | null;
}

/** A new item for the Inbox, no one waiting on it yet; its card is drawn from the preview (null: none, after a restart). */
export function newApprovalItem(f: {
  requestId: number;
  sessionId: number;
  toolCallId: string;
  toolName: string;
  args: Record<string, unknown>;
  argsHash: string;
  agentId: string;
  source: string;
  contextLabel: string | null;
  at: number;
  category: ToolCategory | null;
  preview: Preview | null;
  bypassOptions: BypassOption[];
}): ApprovalItem {
  return {
    request_id: f.requestId,
    session_id: f.sessionId,
    tool_call_id: f.toolCallId,
    tool_name: f.toolName,
    arguments: JSON.stringify(f.args),
    args: f.args,
    args_hash: f.argsHash,
    agent_id: f.agentId,
    source: f.source,
    context_label: f.contextLabel,
    created_at: f.at,
    tool_category: f.category,
    mcp_server: parseMcpToolName(f.toolName)?.server ?? null,
    ...shown(f.preview, f.toolName),
    bypass_options: f.bypassOptions,
    waiter: null,
    timer: null,
  };
}

/** What an item shows of a preview: old/new text and where (a diff or a command line), or the tool's refusal. */
export function shown(
  preview: Preview | null,
  toolName: string,
): Pick<ApprovalItem, 'preview_path' | 'old_content' | 'new_content' | 'refusal' | 'sandbox_dir'> {
  if (preview?.kind === 'diff')
    return {
      preview_path: preview.path,
      old_content: preview.oldContent,
      new_content: preview.newContent,
      refusal: null,
      sandbox_dir: null,
    };
  if (preview?.kind === 'command')
    return {
      preview_path: `$ ${toolName}`,
      old_content: null,
      new_content: preview.text,
      refusal: null,
      sandbox_dir: preview.sandboxedIn ?? null,
    };
  return {
    preview_path: null,
    old_content: null,
    new_content: null,
    refusal: preview?.kind === 'refused' ? preview.reason : null,
    sandbox_dir: null,
  };
}

/**
 * Shaped by the tool's preview, never by its name: a diff or a command line → pending_write (old/new, or
 * `$ <command>` under the path `$ <tool>`); no preview or a refusal → approval_required (the full arguments).
 */
export function pendingEvent(item: ApprovalItem): SessionApprovalEvent {
  const base = {
    request_id: item.request_id,
    tool_call_id: item.tool_call_id,
    status: 'pending' as const,
    args_hash: item.args_hash,
  };
  if (item.preview_path !== null && item.new_content !== null) {
    return {
      type: 'pending_write',
      ...base,
      path: item.preview_path,
      old_content: item.old_content,
      new_content: item.new_content,
    };
  }
  return { type: 'approval_required', ...base, tool_name: item.tool_name, arguments: item.arguments };
}

/**
 * The person's "with network" or "outside the sandbox" (docs/approval.md "The sandbox on the card"): for this call
 * alone, so never with a bypass (a bypass never lifts the sandbox), and only for a call whose card offered it (a
 * command; "with network" only where the sandbox runs). `line` is the card's sandbox line (null: no command).
 */
export function sandboxChoice(
  item: ApprovalItem,
  line: SandboxLine | null,
  choice: SandboxChoice,
  bypassSecs: number | undefined,
): SandboxDecision {
  const words = choice === 'network' ? 'with network' : 'outside the sandbox';
  if (line === null)
    throw new BridgeError('invalid_input', `${item.tool_name} runs no command: it cannot be approved ${words}.`);
  if (bypassSecs !== undefined)
    throw new BridgeError(
      'invalid_input',
      `Approving ${words} is for this call only; it cannot start a bypass. Approve it once, or approve with a bypass in the sandbox.`,
    );
  if (choice === 'unconfined') return { mode: 'unconfined' };
  if (line.state !== 'sandboxed')
    throw new BridgeError('invalid_input', `The sandbox does not run here, so there is no network to grant in it.`);
  return { mode: 'sandboxed', network: true };
}

/** Only a scope the card offered for this very call can be granted; none named = the narrowest (the default). */
export function offered(item: ApprovalItem, kind: BypassKind | undefined): BypassOption {
  const option = kind === undefined ? item.bypass_options[0] : item.bypass_options.find((o) => o.scope.kind === kind);
  if (!option && !item.bypass_options.length)
    throw new BridgeError(
      'invalid_input',
      `No bypass is offered for ${item.tool_name}: it asks every time; approve it once.`,
    );
  if (!option)
    throw new BridgeError(
      'invalid_input',
      `A bypass of scope "${kind}" is not offered for ${item.tool_name}; choose one of: ${item.bypass_options.map((o) => o.scope.kind).join(', ')}.`,
    );
  return option;
}
