/**
 * MCP prompts (docs/mcp.md "Prompts"): the templates a server offers (`prompts/list`), which the person picks in the
 * message box; the chosen one, filled in (`prompts/get`), goes into the box as text the person reads and edits before
 * sending it. Nothing of a prompt reaches the model unless the person sends it. Its messages become text: a person's
 * part as it is, an assistant's part marked as such, an embedded text resource as a code block under its URI; an
 * image, audio or binary resource is named, not inserted.
 */
import { fenced } from '../../../shared/fenced';

export interface McpPromptArgument {
  name: string;
  description: string;
  required: boolean;
}

export interface McpPrompt {
  server: string;
  name: string;
  title: string;
  description: string;
  arguments: McpPromptArgument[];
}

/** At most this many prompts a server lists (a page of `prompts/list` after another, like its tools). */
export const MAX_PROMPTS_PER_SERVER = 500;
/** The text a filled-in prompt may come to (what one message holds). */
export const MAX_PROMPT_TEXT_CHARS = 200_000;

interface PromptContent {
  type: string;
  text?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
}

/** A listed prompt as the SDK gives it, in our shape (strings bounded, arguments named). */
export function listedPrompt(server: string, raw: { name: string; title?: string; description?: string; arguments?: { name: string; description?: string; required?: boolean }[] }): McpPrompt {
  const short = (text: string | undefined, max: number) => (text ?? '').slice(0, max);
  return {
    server,
    name: short(raw.name, 200),
    title: short(raw.title ?? raw.name, 200),
    description: short(raw.description, 1_000),
    arguments: (raw.arguments ?? []).slice(0, 20).map((a) => ({ name: short(a.name, 100), description: short(a.description, 500), required: a.required === true })),
  };
}

function contentText(content: PromptContent): string {
  switch (content.type) {
    case 'text':
      return content.text ?? '';
    case 'resource': {
      const r = content.resource ?? {};
      return typeof r.text === 'string' ? `${r.uri ?? 'resource'}:\n${fenced(r.text)}` : `[resource ${r.uri ?? ''}${r.mimeType ? ` (${r.mimeType})` : ''}: not inserted]`;
    }
    case 'resource_link':
      return `[resource link: ${content.uri ?? ''}${content.name ? ` (${content.name})` : ''}]`;
    default:
      return `[${content.type}${content.mimeType ? ` (${content.mimeType})` : ''} from the prompt: not inserted]`;
  }
}

/** A filled-in prompt's messages as the text that goes into the message box. */
export function promptText(messages: readonly { role: string; content: PromptContent | PromptContent[] }[]): string {
  const parts = messages.map((m) => {
    const text = (Array.isArray(m.content) ? m.content : [m.content]).map(contentText).filter(Boolean).join('\n\n');
    return m.role === 'assistant' ? `(The assistant's part of the prompt:)\n${text}` : text;
  });
  const all = parts.filter(Boolean).join('\n\n');
  return all.length > MAX_PROMPT_TEXT_CHARS ? `${all.slice(0, MAX_PROMPT_TEXT_CHARS)}\n[cut: the prompt came to ${all.length} characters]` : all;
}
