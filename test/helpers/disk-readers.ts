/**
 * Every reader of the disk in the core, as one table (docs/guards.md "One disk policy"), for the class tests of
 * src/main/core/disk/: each row opens a file the way that reader does for a person or the model, on a real core
 * (test/helpers/core-harness.ts: real SQLite, gate, viewer, scripted LLM over HTTP). A row is used in two steps:
 * `open` gets it ready on a harmless file (issues the viewer's handle, compiles the LaTeX document once, makes the
 * write call a revert undoes…), then the returned `read` reads again, after the test has put an attack in its place.
 * A new reader of files in the core gets a row here, and with it every class of attack.
 */
import { lstatSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Harness } from './core-harness';
import { makePdf } from './pdf';
import { BlobStore } from '../../src/main/core/viewer/blob-store';
import { editFileTool } from '../../src/main/core/tools/fs/edit-file';
import { grepFilesTool } from '../../src/main/core/tools/fs/grep-files';
import { pdfText } from '../../src/main/core/tools/fs/pdf-text';
import { readFileTool } from '../../src/main/core/tools/fs/read-file';
import { searchFileTool } from '../../src/main/core/tools/fs/search-file';
import { writeFileTool } from '../../src/main/core/tools/fs/write-file';
import { getAstOutlineTool } from '../../src/main/core/tools/outline/get-ast-outline';
import { runTool } from '../../src/main/core/tools/_testing/workspace';
import type { Tool, ToolRunContext } from '../../src/main/core/tools/tool';

/** What a secret holds in these tests, and what an ordinary file holds. */
export const SECRET = 'SECRET-TOKEN-7f3a';
export const PUBLIC = 'PUBLIC-TOKEN-2b9c';

/** What a reader gave: the text a person or the model would see, or its refusal. */
export type Answer = { text: string } | { refusal: string };

export interface ReaderCase {
  h: Harness;
  /** The case's own folder, inside the working directory. */
  dir: string;
  /** The file the reader reads (`dir` + the row's `file`). */
  path: string;
}

export interface DiskReader {
  name: string;
  /** The name of the file this reader reads, in the case's folder. */
  file: string;
  /** The bytes of an ordinary file holding `text`, in the reader's format. */
  content(text: string): Buffer;
  /** False for a reader that leaves such a file out without a word (a tree search skips it). */
  refuses: boolean;
  /** The reader runs a program on the file before the core reads it (TeX): that program opens what is there. */
  runsAProgram?: true;
  /** The reader reads the file but answers without its text (an edit says what it changed). */
  showsNoText?: true;
  /** Gets ready on the ordinary file; the read it returns may run again and again. */
  open(c: ReaderCase): Promise<() => Promise<Answer>>;
}

const plain = (text: string) => Buffer.from(`${text}\n`);

/** The tools' context as a session at the harness's workspace gives it (session/turn-env.ts). */
export function toolContext(h: Harness): ToolRunContext {
  return {
    workingDir: h.workspace,
    workspaceDir: h.workspace,
    protectedRoots: [h.dataDir],
    signal: new AbortController().signal,
    log: () => undefined,
  };
}

async function toolAnswer(tool: Tool, args: Record<string, unknown>, ctx: ToolRunContext): Promise<Answer> {
  const outcome = await runTool(tool, args, ctx);
  if (outcome.kind === 'completed') return { text: outcome.result };
  if (outcome.kind === 'failed') return { refusal: outcome.error };
  return { refusal: `(${outcome.kind})` };
}

const fromError = (error: unknown): Answer => ({ refusal: error instanceof Error ? error.message : String(error) });

/** A viewer file handle for `path`, or the refusal `viewer:resolve` answered. */
function viewerHandle(h: Harness, path: string): { handle: string; url: string } | Answer {
  const resolved = h.core.viewer.resolve({ path });
  if (resolved.status === 'ok') return { handle: resolved.file.handle, url: resolved.file.url };
  return { refusal: resolved.status === 'confirm' ? resolved.message : resolved.message };
}

const replyAnswer = (reply: { status: number; body: Buffer | string }): Answer =>
  reply.status === 200 ? { text: String(reply.body) } : { refusal: String(reply.body) };

let previewBaseSet = false;
function previewOf(h: Harness, path: string): string | Answer {
  if (!previewBaseSet) h.core.viewer.preview.setBase('http://127.0.0.1:9');
  previewBaseSet = true;
  const handle = viewerHandle(h, path);
  if ('refusal' in handle || 'text' in handle) return handle;
  return new URL(h.core.viewer.previewUrl(handle.handle)).pathname;
}

/** The text of a LaTeX build's PDF (what the viewer would show), or the refusal. */
async function latexAnswer(h: Harness, handle: string): Promise<Answer> {
  try {
    const result = await h.call('viewer:compileLatex', { handle });
    if (result.status !== 'ok') return { refusal: 'error' in result ? result.error.message : result.message };
    const token = result.pdfUrl.split('/').pop()!;
    const pdf = h.core.viewer.serveFile(`/viewer/file/${token}`);
    if (pdf.status !== 200) return { refusal: String(pdf.body) };
    const text = await pdfText('build.pdf', new Uint8Array(pdf.body as Buffer), 100_000, new AbortController().signal);
    return { text: text.pages.join('\n') };
  } catch (error) {
    return fromError(error);
  }
}

/** A write call in a session whose images a revert reads (the call is allowed by a rule, so it runs at once). */
async function writeCall(h: Harness, path: string): Promise<string> {
  h.core.approval.rules.createRule({ tool_pattern: 'write_file', action: 'allow', priority: 40 });
  h.llm.script([{ toolCalls: [{ name: 'write_file', arguments: { path, content: 'agent\n' } }] }, { text: 'ok' }]);
  const sessionId = await h.newSession();
  await h.sendAndSettle(sessionId, 'write it');
  const card = (await h.call('chat:history', { sessionId })).messages
    .flatMap((m) => m.tools)
    .find((t) => t.name === 'write_file');
  if (!card) throw new Error('the write call did not run');
  return card.tool_call_id;
}

const systemOf = (h: Harness) => {
  const last = h.llm.requests.at(-1)!;
  return String((last.body.messages as { content: string }[])[0]!.content);
};

export const DISK_READERS: readonly DiskReader[] = [
  {
    name: 'read_file',
    file: 'note.txt',
    content: plain,
    refuses: true,
    open: async (c) => () => toolAnswer(readFileTool, { path: c.path }, toolContext(c.h)),
  },
  {
    name: 'read_file of a PDF (PDF text)',
    file: 'doc.pdf',
    content: (text) => makePdf([[text]]),
    refuses: true,
    open: async (c) => () => toolAnswer(readFileTool, { path: c.path }, toolContext(c.h)),
  },
  {
    name: 'search_file',
    file: 'note.txt',
    content: plain,
    refuses: true,
    open: async (c) => () => toolAnswer(searchFileTool, { path: c.path, pattern: 'TOKEN' }, toolContext(c.h)),
  },
  {
    name: 'get_ast_outline',
    file: 'notes.md',
    content: (text) => Buffer.from(`# ${text}\n\nbody\n`),
    refuses: true,
    open: async (c) => () => toolAnswer(getAstOutlineTool, { path: c.path }, toolContext(c.h)),
  },
  {
    name: "write_file's approval card (the text it replaces)",
    file: 'note.txt',
    content: plain,
    // A file it cannot show is shown as new: the write replaces a link, never writes through it (the gate decides).
    refuses: false,
    open: async (c) => async () => {
      const preview = writeFileTool.preview({ path: c.path, content: 'new\n' }, toolContext(c.h));
      if (preview?.kind === 'refused') return { refusal: preview.reason };
      return { text: preview?.kind === 'diff' ? (preview.oldContent ?? '') : '' };
    },
  },
  {
    name: 'edit_file',
    file: 'note.txt',
    content: plain,
    refuses: true,
    showsNoText: true,
    open: async (c) => () =>
      toolAnswer(editFileTool, { path: c.path, old_string: 'TOKEN', new_string: 'TOKEN-EDITED' }, toolContext(c.h)),
  },
  {
    name: 'grep_files',
    file: 'note.txt',
    content: plain,
    refuses: false,
    open: async (c) => () => toolAnswer(grepFilesTool, { path: c.dir, pattern: 'TOKEN' }, toolContext(c.h)),
  },
  {
    name: "the viewer's file route",
    file: 'note.txt',
    content: plain,
    refuses: true,
    open: async (c) => {
      const handle = viewerHandle(c.h, c.path);
      if (!('url' in handle)) return async () => handle;
      return async () => replyAnswer(c.h.core.viewer.serveFile(handle.url));
    },
  },
  {
    name: "the viewer's preview origin (the page)",
    file: 'page.html',
    content: (text) => Buffer.from(`<p>${text}</p>\n`),
    refuses: true,
    open: async (c) => {
      const url = previewOf(c.h, c.path);
      if (typeof url !== 'string') return async () => url;
      return async () => replyAnswer(c.h.core.viewer.preview.serve(url));
    },
  },
  {
    name: "the viewer's preview origin (an image of the page's folder)",
    file: 'pic.svg',
    content: (text) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><text>${text}</text></svg>\n`),
    refuses: true,
    open: async (c) => {
      writeFileSync(join(c.dir, 'page.html'), '<img src="pic.svg">\n');
      const url = previewOf(c.h, join(c.dir, 'page.html'));
      if (typeof url !== 'string') return async () => url;
      const asset = `${url.slice(0, url.lastIndexOf('/'))}/pic.svg`;
      return async () => replyAnswer(c.h.core.viewer.preview.serve(asset));
    },
  },
  {
    name: 'a LaTeX input (\\input of the document the viewer compiles)',
    file: 'part.tex',
    content: plain,
    refuses: true,
    runsAProgram: true,
    open: async (c) => {
      writeFileSync(
        join(c.dir, 'main.tex'),
        '\\documentclass{article}\n\\begin{document}\n\\input{part}\n\\end{document}\n',
      );
      const handle = viewerHandle(c.h, join(c.dir, 'main.tex'));
      if (!('handle' in handle)) return async () => handle;
      await latexAnswer(c.h, handle.handle); // the first build, of the ordinary input (or of the attack, if first)
      return () => latexAnswer(c.h, handle.handle);
    },
  },
  {
    name: 'the before-image a write call keeps (blob store)',
    file: 'note.txt',
    content: plain,
    refuses: true,
    open: async (c) => {
      const config = c.h.core.config;
      const store = new BlobStore(c.h.core.db, config.dataDir, (workingDir) => ({
        workingDir,
        dataDir: config.dataDir,
        workspaceDir: config.workspaceDir,
      }));
      return async () => {
        const image = store.snapshot(c.path, c.h.workspace);
        if (image.state !== 'file') return { refusal: image.reason ?? image.state };
        return { text: store.get(image.hash!)!.toString('utf8') };
      };
    },
  },
  {
    name: 'revert (the file as it is now, in the conflict it shows)',
    file: 'note.txt',
    content: plain,
    refuses: true,
    open: async (c) => {
      // The file must exist before the call, or there is no before-image to go back to; an ordinary file gets its
      // bytes back after the call (renamed into place, never written through a link), so "now" is what it held.
      const info = lstatSync(c.path, { throwIfNoEntry: false });
      if (!info) writeFileSync(c.path, 'before\n');
      const kept = info?.isFile() && info.nlink === 1 ? readFileSync(c.path) : null;
      let toolCallId: string;
      try {
        toolCallId = await writeCall(c.h, c.path);
      } catch (error) {
        return async () => fromError(error);
      }
      if (kept) {
        writeFileSync(`${c.path}.restore`, kept);
        renameSync(`${c.path}.restore`, c.path);
      }
      return async () => {
        try {
          const result = await c.h.call('viewer:revert', { toolCallId });
          if (result.status === 'conflict') return { text: result.current.text ?? `(${result.current.state})` };
          return { refusal: 'message' in result ? result.message : result.status };
        } catch (error) {
          return fromError(error);
        }
      };
    },
  },
  {
    name: 'AGENTS.md (project instructions in the system message)',
    file: 'AGENTS.md',
    content: plain,
    refuses: true,
    open: async (c) => {
      const sessionId = await c.h.newSession();
      try {
        await c.h.call('chat:setWorkingDirectory', { sessionId, path: c.dir });
      } catch (error) {
        return async () => fromError(error); // a folder the app refuses as a working directory (the data folder)
      }
      return async () => {
        c.h.llm.script([{ text: 'ok' }]);
        await c.h.sendAndSettle(sessionId, 'hello');
        const system = systemOf(c.h);
        if (system.includes('<project-instructions>')) return { text: system };
        const said = await c.h.call('chat:projectInstructions', { sessionId });
        return { refusal: said.note ?? '(no AGENTS.md)' };
      };
    },
  },
];

/** True when a refusal reads as a sentence for a person or a model: no stack trace, no internal error's shape. */
export function isSentence(text: string): boolean {
  return (
    text.trim().length > 8 &&
    text.length < 1_000 &&
    !/\n\s+at\s/.test(text) &&
    !/\b(undefined|null|\[object Object\])\b/.test(text) &&
    !/unexpectedly/i.test(text)
  );
}
