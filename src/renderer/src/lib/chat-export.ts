/**
 * A chat as one Markdown document (docs/chat-ui.md "Exporting a chat"): the title, then each message under who said
 * it, and each tool call as its label, its outcome and the start of its result in a code block. A fence is always
 * longer than any run of backticks inside it, so a result holding ``` cannot end its block early. Results are cut at
 * RESULT_CHARS: the export is for reading and sharing; the database keeps every byte.
 */
import type { HistoryMessage, ToolCard } from '../../../shared/contract/chat';
import { fenced } from '../../../shared/fenced';

export const RESULT_CHARS = 4_000;

const WHO: Record<HistoryMessage['role'], string> = { user: 'You', assistant: 'Assistant', agent: 'Agent' };

function toolBlock(t: ToolCard): string {
  const result = t.result ?? '';
  const shown =
    result.length > RESULT_CHARS
      ? `${result.slice(0, RESULT_CHARS)}\n… (${result.length - RESULT_CHARS} more characters)`
      : result;
  return [
    `**Tool** \`${t.name}\` · ${t.label_short.replace(/\n/g, ' ')} · ${t.interrupted ? 'interrupted' : t.status}`,
    shown ? fenced(shown) : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

export function chatToMarkdown(title: string, messages: readonly HistoryMessage[], exportedAt: Date): string {
  const parts = [
    `# ${title.replace(/\n/g, ' ') || 'Chat'}`,
    `_Exported from Skald on ${exportedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC; ${messages.length} messages._`,
  ];
  for (const m of messages) {
    const head = `## ${WHO[m.role]}${m.role === 'assistant' && m.model ? ` (${m.model})` : ''}${m.status === 'failed' ? ' (not sent)' : ''}`;
    // Images are named, not embedded: the export stays a text file (docs/chat-ui.md "Exporting a chat").
    const images = m.images?.length
      ? `*Images: ${m.images.map((i) => i.name.replace(/[*_`[\]]/g, '\\$&')).join(', ')}*`
      : '';
    parts.push([head, images, m.content, ...m.tools.map(toolBlock)].filter(Boolean).join('\n\n'));
  }
  return `${parts.join('\n\n')}\n`;
}

/** A file name from a title: letters, digits, dashes; never empty, never a path. */
export function exportFileName(title: string, id: number): string {
  const base = title
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 60);
  return `${base || `chat-${id}`}.md`;
}
