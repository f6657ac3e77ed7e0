/**
 * The note a rewind leaves in the chat (docs/rewind.md "The model is told"): a row of the session's own history
 * (role `agent`, as a sub-agent's prompt is), which the next request merges into the person's next message, so the
 * model knows the files are as they were before that message and does not trust what it remembers of them.
 */
import type { RewindMode, RewindOutcome } from '../../../shared/contract/rewind';

const MAX_LISTED = 50;

function listed(outcomes: readonly RewindOutcome[]): string {
  const names = outcomes.slice(0, MAX_LISTED).map((o) => o.shown);
  const more = outcomes.length - names.length;
  return names.join(', ') + (more > 0 ? ` and ${more} more` : '');
}

export function rewindNote(mode: RewindMode, message: string, outcomes: readonly RewindOutcome[]): string {
  const quoted = message.length > 200 ? `${message.slice(0, 200)}…` : message;
  const restored = outcomes.filter((o) => o.outcome === 'restored');
  const left = outcomes.filter((o) => o.outcome !== 'restored');
  const lines = [
    mode === 'files'
      ? `[Rewind] The person restored the files to the state before their message "${quoted}"; the conversation is kept.`
      : `[Rewind] The person took the chat back to before their message "${quoted}"; what came after it is no longer part of this conversation.`,
  ];
  if (mode === 'chat') lines.push('The files were left as they are now; read them again before you rely on them.');
  else {
    if (restored.length) lines.push(`These files were restored to the state before that message: ${listed(restored)}.`);
    else lines.push('No file needed restoring.');
    if (left.length) lines.push(`Left as they are now: ${listed(left)}.`);
    lines.push('Read a file again before you edit it.');
  }
  return lines.join(' ');
}
