/**
 * Which messages of the chat offer Edit and Regenerate (docs/chat-ui.md "Regenerate and Edit"), as one string the
 * message list can select from its store without re-rendering on every message.
 */
import type { HistoryMessage } from '../../../shared/contract/chat';
import { newestStanding } from '../../../shared/awaiting-answer';

/**
 * Which messages offer Edit and Regenerate (docs/chat-ui.md "Regenerate and Edit"), as `edit:regenerate` ids (0:
 * none): the person's newest message that stands (not replaced, sent), and the newest message when it is an answer
 * with text after it. The core decides again when asked.
 */
export function offeredIds(messages: readonly HistoryMessage[]): string {
  const newest = newestStanding(messages);
  let edit = 0;
  for (let i = messages.length - 1; i >= 0 && !edit; i--)
    if (messages[i]!.role === 'user' && messages[i]!.status === 'ok' && !messages[i]!.queued) edit = messages[i]!.id;
  const regenerate =
    newest && newest.role === 'assistant' && newest.content && newest.tools.length === 0 && newest.id > edit && edit
      ? newest.id
      : 0;
  return `${edit}:${regenerate}`;
}

export function offerOf(offers: string, id: number): 'edit' | 'regenerate' | null {
  if (!offers) return null;
  const [edit, regenerate] = offers.split(':').map(Number);
  return id === edit ? 'edit' : id === regenerate ? 'regenerate' : null;
}
