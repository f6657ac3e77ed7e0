/**
 * A text file put in a message (dropped, pasted or picked in the composer; docs/chat-ui.md "Images in a message"):
 * its text goes into the message box as a code block under its name, where the person sees and can edit what is
 * sent; the model reads it as part of the message. Only text: a file with a NUL byte, or one too long for a message,
 * is refused with a sentence saying what to do instead. A PDF's text goes in the same way, page by page, read by the
 * core (`chat:pdfText`, the pdf.js worker read_file uses).
 */
import { MAX_MESSAGE_CHARS } from '../../../shared/contract/chat';
import { CHAT_IMAGE_TYPES, MAX_PICKED_PDF_BYTES } from '../../../shared/chat-images';
import { skald } from '../bridge/skald';
import { fenced } from '../../../shared/fenced';
import { base64Of } from './picked-images';

/** Names taken as text whatever type the browser guessed (a `.ts` file is often "video/mp2t", a `.md` none). */
const TEXT_EXTENSIONS = new Set(
  'txt md markdown log csv tsv json jsonl yaml yml toml ini cfg conf env xml html htm css scss js mjs cjs jsx ts tsx py rb go rs java kt kts c h cc cpp hpp cs sh bash zsh fish ps1 sql tex bib r swift php lua pl diff patch gradle properties dockerfile makefile'.split(
    ' ',
  ),
);
const TEXT_TYPES = /^(text\/|application\/(json|xml|x-yaml|yaml|toml|x-sh|javascript|typescript|sql))/;

const extensionOf = (name: string) => (name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : name).toLowerCase();

export function isTextFile(file: File): boolean {
  return TEXT_TYPES.test(file.type) || TEXT_EXTENSIONS.has(extensionOf(file.name));
}

/** A PDF, by the type the browser gives it or its name (the core reads its header again). */
export const isPdfFile = (file: File): boolean => file.type === 'application/pdf' || extensionOf(file.name) === 'pdf';

/** What the composer's file button offers: the images, PDFs, and the text files above. */
export const ACCEPT_FILES = [
  ...CHAT_IMAGE_TYPES,
  'application/pdf',
  '.pdf',
  'text/*',
  ...[...TEXT_EXTENSIONS].map((e) => `.${e}`),
].join(',');

const count = (n: number) => n.toLocaleString('en-US');

/** The file as a block for the message box (its name, then its text fenced), or why it cannot be one. */
export async function textFileBlock(file: File): Promise<{ block: string } | { problem: string }> {
  const tooLong = (chars: number) => ({
    problem: `${file.name} has ${count(chars)} characters; one message holds at most ${count(MAX_MESSAGE_CHARS)}. Save it in the working directory and ask the agent to read it.`,
  });
  // A UTF-8 character is 1 to 4 bytes: past 4 bytes a character allowed, it cannot fit; read nothing.
  if (file.size > MAX_MESSAGE_CHARS * 4) return tooLong(file.size);
  const text = await file.text();
  if (text.includes('\u0000')) return { problem: `${file.name} is not a text file.` };
  if (text.length > MAX_MESSAGE_CHARS) return tooLong(text.length);
  return { block: `${file.name}:\n${fenced(text)}` };
}

/** A PDF's text as a block for the message box (its name and page count, then its pages fenced), or why not. */
export async function pdfFileBlock(file: File): Promise<{ block: string } | { problem: string }> {
  if (file.size > MAX_PICKED_PDF_BYTES) {
    return {
      problem: `${file.name} is larger than ${MAX_PICKED_PDF_BYTES / 1024 / 1024} MB. Save it in the working directory and ask the agent to read it.`,
    };
  }
  let read: { pages: number; text: string };
  try {
    read = await skald.chat.pdfText({ name: file.name, data: await base64Of(file) });
  } catch (e) {
    return { problem: (e as Error).message };
  }
  const pages = `${count(read.pages)} page${read.pages === 1 ? '' : 's'}`;
  if (!read.text)
    return { problem: `${file.name} (${pages}) has no text to extract: its pages are scanned images or drawings.` };
  if (read.text.length > MAX_MESSAGE_CHARS)
    return {
      problem: `${file.name} has more text than one message holds (${count(MAX_MESSAGE_CHARS)} characters). Save it in the working directory and ask the agent to read it.`,
    };
  return { block: `${file.name} (PDF, ${pages}):\n${fenced(read.text)}` };
}
