/**
 * MCP prompts and resources for the person (docs/mcp.md "Prompts and resources"): the templates a server offers
 * (`prompts/list`) and the things it can be read for (`resources/list`), which the person picks in the message box.
 * A prompt, filled in (`prompts/get`), goes into the box as text the person reads and edits before sending it; a
 * resource (`resources/read`) as its text under its URI, or, an image, as an image of the message. Nothing of either
 * reaches the model unless the person sends it. A prompt's messages become text: a person's part as it is, an
 * assistant's part marked as such, an embedded text resource as a code block under its URI; an image, audio or binary
 * resource is named, not inserted.
 */
import { MAX_IMAGE_BYTES, sniffImageType, type ChatImageType } from '../../../shared/chat-images';
import { MAX_MESSAGE_CHARS } from '../../../shared/contract/chat';
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
/** The text a filled-in prompt or a read resource may come to: what one message holds. */
export const MAX_PROMPT_TEXT_CHARS = MAX_MESSAGE_CHARS;

/** A server's string, bounded (a listing is the server's to fill). */
const short = (text: string | undefined, max: number) => (text ?? '').slice(0, max);

interface PromptContent {
  type: string;
  text?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
}

/** A listed prompt as the SDK gives it, in our shape (strings bounded, arguments named). */
export function listedPrompt(
  server: string,
  raw: {
    name: string;
    title?: string;
    description?: string;
    arguments?: { name: string; description?: string; required?: boolean }[];
  },
): McpPrompt {
  return {
    server,
    name: short(raw.name, 200),
    title: short(raw.title ?? raw.name, 200),
    description: short(raw.description, 1_000),
    arguments: (raw.arguments ?? []).slice(0, 20).map((a) => ({
      name: short(a.name, 100),
      description: short(a.description, 500),
      required: a.required === true,
    })),
  };
}

function contentText(content: PromptContent): string {
  switch (content.type) {
    case 'text':
      return content.text ?? '';
    case 'resource': {
      const r = content.resource ?? {};
      return typeof r.text === 'string'
        ? `${r.uri ?? 'resource'}:\n${fenced(r.text)}`
        : `[resource ${r.uri ?? ''}${r.mimeType ? ` (${r.mimeType})` : ''}: not inserted]`;
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
  return all.length > MAX_PROMPT_TEXT_CHARS
    ? `${all.slice(0, MAX_PROMPT_TEXT_CHARS)}\n[cut: the prompt came to ${all.length} characters]`
    : all;
}

export interface McpResource {
  server: string;
  uri: string;
  name: string;
  description: string;
  mimeType: string;
}

/** A listed resource as the SDK gives it, in our shape (strings bounded). */
export function listedResource(
  server: string,
  raw: { uri: string; name?: string; title?: string; description?: string; mimeType?: string },
): McpResource {
  return {
    server,
    uri: short(raw.uri, 2_000),
    name: short(raw.title ?? raw.name ?? raw.uri, 200),
    description: short(raw.description, 1_000),
    mimeType: short(raw.mimeType, 100),
  };
}

/** What a read resource puts in the message box: its text under its URI, or an image (base64), or why nothing. */
export type ResourceInsert =
  | { text: string; image: null }
  | { text: null; image: { name: string; media_type: ChatImageType; data: string } };

/** A `resources/read` answer as what goes into the box; a sentence (thrown) for what cannot go. */
export function resourceInsert(
  uri: string,
  contents: readonly { uri: string; mimeType?: string; text?: string; blob?: string }[],
): ResourceInsert {
  const texts = contents.filter((c) => typeof c.text === 'string');
  if (texts.length) {
    const text = texts.map((c) => `${c.uri}:\n${fenced(c.text!)}`).join('\n\n');
    if (text.length > MAX_PROMPT_TEXT_CHARS)
      throw new Error(
        `${uri} has more text than one message holds (${MAX_PROMPT_TEXT_CHARS.toLocaleString('en')} characters); ask the agent to read it instead.`,
      );
    return { text, image: null };
  }
  const blob = contents.find((c) => typeof c.blob === 'string');
  if (!blob) throw new Error(`${uri} has no content.`);
  const bytes = Buffer.from(blob.blob!, 'base64');
  const mediaType = sniffImageType(bytes);
  if (!mediaType)
    throw new Error(
      `${uri} is binary (${blob.mimeType ?? 'of no stated type'}), not text or a PNG, JPEG, GIF or WebP image; it cannot go into a message.`,
    );
  if (bytes.byteLength > MAX_IMAGE_BYTES)
    throw new Error(`${uri} is an image larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB, the most one image may be.`);
  const name = uri.slice(uri.lastIndexOf('/') + 1) || 'resource';
  return { text: null, image: { name, media_type: mediaType, data: bytes.toString('base64') } };
}
