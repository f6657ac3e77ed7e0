/**
 * An MCP `tools/call` result turned into the tool outcome the model reads (docs/mcp.md "Results"):
 * - `isError` → a failed call whose message is the server's text;
 * - `structuredContent` → a JSON result (kept as JSON, not flattened to text);
 * - text blocks → joined text; images, audio and embedded binary resources → saved as files under
 *   `<workspace>/mcp-output/<server>/` and returned as paths (relative to the workspace) the viewer opens; written
 *   by the tools' output writer (`writeOutputFile`: the write guard, the disk module's atomic writer, and no
 *   symlink at `mcp-output` or `mcp-output/<server>`), so a result never lands in the data folder, `secrets/` or
 *   `.git/hooks`; a save refused says why in the result's text, and the rest of the result still reaches the model;
 *   resource links → their URI. Base64 is never put in front of the model as text; an image the model can take (a
 *   PNG, JPEG, GIF or WebP by its bytes, up to 5 MB, the first MAX_IMAGES_PER_MESSAGE) goes to it as an image too,
 *   as `read_file`'s does (docs/chat-ui.md "Images a tool returns": a browser server's screenshot is seen at once);
 * - a result (or error text) longer than `MAX_RESULT_CHARS` → its start, and the whole saved under the same folder.
 */
import { randomBytes } from 'node:crypto';
import {
  MAX_IMAGE_BYTES,
  MAX_IMAGES_PER_MESSAGE,
  sniffImageType,
  type NewChatImage,
} from '../../../../shared/chat-images';
import { writeOutputFile } from '../_policy/fs';
import type { PathContext } from '../_policy/guard';
import type { ExecutionOutcome } from '../tool';

interface ContentBlock {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; text?: string; blob?: string; mimeType?: string };
}

export interface RawToolResult {
  content?: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  toolResult?: unknown;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/webm': 'webm',
  'application/pdf': 'pdf',
  'application/gzip': 'gz',
  'application/json': 'json',
  'text/plain': 'txt',
};

/** Where a call's media go: the call's own paths (its working directory, the data folder) and who made them. */
export interface MediaTarget extends PathContext {
  server: string;
  tool: string;
}

function safePart(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 60) || 'tool';
}

/** The images of one result that go to the model as images (besides their saved files). */
type ResultImages = NewChatImage[];

/**
 * Writes one binary block; returns the path the model and the viewer see. An image the model can take is also added
 * to `images` (its type read from its bytes; the declared one is never trusted), while there is room; `null`: none
 * is shown (an error's result).
 */
function saveMedia(
  target: MediaTarget,
  base64: string,
  mimeType: string | undefined,
  index: number,
  images: ResultImages | null,
): { path: string | null; refusal?: string; isSeen: boolean } {
  const bytes = Buffer.from(base64, 'base64');
  const saved = saveOutput(target, bytes, EXTENSIONS[mimeType ?? ''] ?? 'bin', String(index));
  if (!saved.ok) return { path: null, refusal: saved.refusal, isSeen: false };
  const path = saved.path;
  const mediaType = sniffImageType(bytes);
  const isSeen =
    images !== null &&
    mediaType !== null &&
    bytes.byteLength <= MAX_IMAGE_BYTES &&
    images.length < MAX_IMAGES_PER_MESSAGE;
  if (isSeen) images.push({ name: path.slice(path.lastIndexOf('/') + 1), mediaType, bytes });
  return { path, isSeen };
}

const SEEN = ', attached for you to see';

type Saved = { ok: true; path: string } | { ok: false; refusal: string };

/** Saves one output file under `mcp-output/<server>/`; its shown path, or the sentence saying why it was not saved. */
function saveOutput(target: MediaTarget, bytes: Buffer, ext: string, suffix: string): Saved {
  const name = `${safePart(target.tool)}-${Date.now()}-${suffix}.${ext}`;
  try {
    return { ok: true, path: writeOutputFile(['mcp-output', safePart(target.server), name], bytes, target).display };
  } catch (error) {
    return { ok: false, refusal: error instanceof Error ? error.message : String(error) };
  }
}

/** The line of a saved block: where it went, or that (and why) it was not saved. */
const savedLine = (what: string, saved: ReturnType<typeof saveMedia>, detail: string) =>
  saved.path === null
    ? `[${what} not saved: ${saved.refusal}]`
    : `[${what} saved to ${saved.path}${detail}${saved.isSeen ? SEEN : ''}]`;

function blockText(block: ContentBlock, target: MediaTarget, index: number, images: ResultImages | null): string {
  switch (block.type) {
    case 'text':
      return block.text ?? '';
    case 'image':
    case 'audio': {
      const saved = saveMedia(target, block.data ?? '', block.mimeType, index, images);
      return savedLine(block.type, saved, ` (${block.mimeType ?? 'unknown type'})`);
    }
    case 'resource': {
      const r = block.resource ?? {};
      if (typeof r.text === 'string') return `[resource ${r.uri ?? ''}]\n${r.text}`;
      if (typeof r.blob === 'string') {
        const saved = saveMedia(target, r.blob, r.mimeType, index, images);
        return savedLine(`resource ${r.uri ?? ''}`, saved, '');
      }
      return `[resource ${r.uri ?? ''}]`;
    }
    case 'resource_link':
      return `[resource link: ${block.uri ?? ''}${block.name ? ` (${block.name})` : ''}]`;
    default:
      return `[unsupported content type ${block.type}]`;
  }
}

export function toOutcome(result: RawToolResult, target: MediaTarget): ExecutionOutcome {
  // The pre-2024-11 shape: a bare `toolResult`.
  if (!result.content && result.toolResult !== undefined)
    return completed(JSON.stringify(result.toolResult), 'json', target);
  const blocks = result.content ?? [];
  const images: ResultImages = [];
  const text = blocks
    .map((b, i) => blockText(b, target, i, result.isError ? null : images))
    .filter((t) => t !== '')
    .join('\n');
  if (result.isError)
    return {
      kind: 'failed',
      error: cutForModel(text, 'txt', target) || 'The MCP server reported an error without a message.',
    };
  if (result.structuredContent && typeof result.structuredContent === 'object') {
    return withImages(completed(JSON.stringify(result.structuredContent), 'json', target), images);
  }
  return withImages(completed(text === '' ? '(no output)' : text, 'txt', target), images);
}

function withImages(outcome: ExecutionOutcome, images: ResultImages): ExecutionOutcome {
  return outcome.kind === 'completed' && images.length ? { ...outcome, images } : outcome;
}

/** Most of a result the model is given, in characters (about a command's 100 KB of output; some 25,000 tokens). */
export const MAX_RESULT_CHARS = 100 * 1024;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

function completed(text: string, kind: 'json' | 'txt', target: MediaTarget): ExecutionOutcome {
  const cut = cutForModel(text, kind, target);
  // A cut JSON text is no longer JSON: it is shown and sent as text.
  return cut === text && kind === 'json'
    ? { kind: 'completed', result: text, resultType: 'json' }
    : { kind: 'completed', result: cut };
}

/**
 * A result past `MAX_RESULT_CHARS`: its start, and where the whole of it is saved (next to the server's media), so
 * that neither the model's context nor the chat's card carries megabytes; the model can read or search the file.
 */
function cutForModel(text: string, kind: 'json' | 'txt', target: MediaTarget): string {
  if (text.length <= MAX_RESULT_CHARS) return text;
  const saved = saveOutput(target, Buffer.from(text, 'utf8'), kind, `result-${randomBytes(3).toString('hex')}`);
  // Never between the two halves of a surrogate pair.
  const end = isHighSurrogate(text.charCodeAt(MAX_RESULT_CHARS - 1)) ? MAX_RESULT_CHARS - 1 : MAX_RESULT_CHARS;
  const where = saved.ok
    ? `the whole result is saved to ${saved.path}: use read_file or grep_files on it to see the rest`
    : `the whole result could not be saved: ${saved.refusal}`;
  return `${text.slice(0, end)}\n[result cut at ${MAX_RESULT_CHARS} of ${text.length} characters; ${where}]`;
}
