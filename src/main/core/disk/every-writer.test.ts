/**
 * Every writer of the disk in the core, as a class (docs/guards.md "One disk policy"): a folder on the way to what it
 * writes is a symlink into the data folder, a `secrets/` folder or `.git/hooks`, and the write is refused with a
 * sentence, with not a byte landing there. The writers: the file tools (the model names the path), an MCP result's
 * media (`mcp-output`, `mcp-output/<server>`), generated images (`images/`), the before-images of write calls (the
 * blob store's folder), the LaTeX cache, and a rewind writing a file back or removing one (docs/rewind.md). The output folders the app names itself are refused as links even when
 * they lead somewhere harmless: the app chose a plain folder, so a link there was planted. Real core, real links.
 */
import { lstatSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePng } from '../../../../test/helpers/png';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { isSentence, SECRET, type Answer } from '../../../../test/helpers/disk-readers';
import { cleanupTempDirs } from '../../../../test/helpers/temp';
import { toOutcome } from '../tools/mcp/results';
import type { PluginManager } from '../plugins/index';
import { editFileTool } from '../tools/fs/edit-file';
import { writeFileTool } from '../tools/fs/write-file';
import { createImageGenerateTool } from '../tools/image/image-generate';
import { runTool } from '../tools/_testing/workspace';
import type { ToolRunContext } from '../tools/tool';
import { runStep } from '../rewind/restore';
import { BlobStore, hashBytes } from '../viewer/blob-store';
import { LatexCompiler } from '../viewer/latex';

let h: Harness;
let cases = 0;

beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => {
  await h.close();
  cleanupTempDirs();
});

/** One case: a working directory of its own (inside the workspace), as a session working there would have it. */
interface WriterCase {
  dir: string;
  ctx: ToolRunContext;
}

function newCase(): WriterCase {
  const dir = join(h.workspace, 'cases', String(++cases));
  mkdirSync(dir, { recursive: true });
  const ctx: ToolRunContext = {
    workingDir: dir,
    workspaceDir: dir,
    protectedRoots: [h.dataDir],
    signal: new AbortController().signal,
    log: () => undefined,
  };
  return { dir, ctx };
}

const failedAnswer = (outcome: { kind: string; error?: string; result?: string }): Answer =>
  outcome.kind === 'failed' ? { refusal: outcome.error! } : { text: outcome.result ?? outcome.kind };

/** An image provider standing in for the remote server (what is outside the machine): one PNG. */
const onePicture = {
  imageProviders: () => [
    {
      name: 'stand-in',
      title: 'Stand-in',
      provider: { model: 'm', generate: async () => [{ mime: 'image/png', bytes: makePng(1, 1) }] },
    },
  ],
} as unknown as PluginManager;

const latexDoc = (dir: string) => {
  const tex = join(dir, 'doc.tex');
  writeFileSync(tex, '\\documentclass{article}\n\\begin{document}\nHi\n\\end{document}\n');
  return tex;
};

interface DiskWriter {
  name: string;
  /** Where the symlink goes (a folder on the way to what this writer writes). */
  linkAt(c: WriterCase): string;
  /** True for a folder the app names itself: a link there is refused wherever it leads. */
  isAppNamed: boolean;
  write(c: WriterCase): Promise<Answer>;
}

const WRITERS: DiskWriter[] = [
  {
    name: 'write_file',
    linkAt: (c) => join(c.dir, 'out'),
    isAppNamed: false,
    write: async (c) =>
      failedAnswer(await runTool(writeFileTool, { path: join(c.dir, 'out', 'x.txt'), content: SECRET }, c.ctx)),
  },
  {
    name: 'edit_file',
    linkAt: (c) => join(c.dir, 'out'),
    isAppNamed: false,
    write: async (c) =>
      failedAnswer(
        await runTool(
          editFileTool,
          { path: join(c.dir, 'out', 'victim.txt'), old_string: 'ORIGINAL', new_string: SECRET },
          c.ctx,
        ),
      ),
  },
  {
    name: "an MCP result's media (mcp-output a link)",
    linkAt: (c) => join(c.dir, 'mcp-output'),
    isAppNamed: true,
    write: async (c) => mcpAnswer(c),
  },
  {
    name: "an MCP result's media (mcp-output/<server> a link)",
    linkAt: (c) => {
      mkdirSync(join(c.dir, 'mcp-output'), { recursive: true });
      return join(c.dir, 'mcp-output', 'shots');
    },
    isAppNamed: true,
    write: async (c) => mcpAnswer(c),
  },
  {
    name: 'image_generate (images/ a link)',
    linkAt: (c) => join(c.dir, 'images'),
    isAppNamed: true,
    write: async (c) => failedAnswer(await runTool(createImageGenerateTool(onePicture), { prompt: 'a fox' }, c.ctx)),
  },
  {
    name: "the blob store's folder (before-images of write calls)",
    linkAt: (c) => {
      mkdirSync(join(c.dir, 'app-data'), { recursive: true });
      return join(c.dir, 'app-data', 'blobs');
    },
    isAppNamed: true,
    write: async (c) => {
      const dataDir = join(c.dir, 'app-data');
      const store = new BlobStore(h.core.db, dataDir, (workingDir) => ({
        workingDir,
        dataDir,
        workspaceDir: c.dir,
      }));
      writeFileSync(join(c.dir, 'edited.txt'), `${SECRET}\n`);
      const image = store.snapshot(join(c.dir, 'edited.txt'), c.dir);
      return image.state === 'skipped' ? { refusal: image.reason! } : { text: image.state };
    },
  },
  {
    name: 'a rewind writing a before-image back',
    linkAt: (c) => join(c.dir, 'out'),
    isAppNamed: false,
    write: async (c) => rewindStep(c, 'write'),
  },
  {
    name: 'a rewind removing a file the agent created',
    linkAt: (c) => join(c.dir, 'out'),
    isAppNamed: false,
    write: async (c) => rewindStep(c, 'remove'),
  },
  {
    name: 'the LaTeX cache',
    linkAt: (c) => join(c.dir, 'latex-cache'),
    isAppNamed: true,
    write: async (c) => {
      const outcome = await new LatexCompiler(join(c.dir, 'latex-cache')).compile(latexDoc(c.dir));
      return outcome.status === 'ok'
        ? { text: outcome.pdf }
        : { refusal: 'error' in outcome ? outcome.error.message : outcome.message };
    },
  },
];

/** One step of a rewind on `out/victim.txt`, confirmed over what the victim holds (the worst case). */
function rewindStep(c: WriterCase, action: 'write' | 'remove'): Answer {
  const dataDir = join(c.dir, 'app-data');
  mkdirSync(dataDir, { recursive: true });
  const policyOf = (workingDir: string) => ({ workingDir, dataDir, workspaceDir: c.dir });
  const blobs = new BlobStore(h.core.db, dataDir, policyOf);
  const ports = {
    db: h.core.db,
    blobs,
    policyOf,
    workingDir: () => c.dir,
    isRunning: () => false,
    kindOf: () => null,
    label: () => '',
  };
  const target = action === 'write' ? blobs.put(Buffer.from(`${SECRET}\n`)) : null;
  const from = hashBytes(Buffer.from('ORIGINAL\n'));
  const path = join(c.dir, 'out', 'victim.txt');
  const outcome = runStep(ports, { seq: 0, path, shown: 'out/victim.txt', action, from, target, detail: null }, c.dir);
  return outcome.outcome === 'restored' ? { text: 'restored' } : { refusal: outcome.message ?? outcome.outcome };
}

/** The line an MCP result gives for one image: where it was saved, or why it was not. */
function mcpAnswer(c: WriterCase): Answer {
  const outcome = toOutcome(
    { content: [{ type: 'image', data: makePng(1, 1).toString('base64'), mimeType: 'image/png' }] },
    { ...c.ctx, server: 'shots', tool: 'shot' },
  );
  const text = outcome.kind === 'completed' ? outcome.result : outcome.kind === 'failed' ? outcome.error : '';
  const refused = /^\[image not saved: (.*)\]$/.exec(text);
  return refused ? { refusal: refused[1]! } : { text };
}

/** Every name, size and time under a folder (without following links): what must not change. */
function contentsOf(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const full = join(at, name);
      const info = lstatSync(full);
      out.push(`${full}:${info.size}:${info.mtimeMs}`);
      if (info.isDirectory()) walk(full);
    }
  };
  walk(dir);
  return out.sort();
}

const TARGETS = [
  { what: 'the data folder', folder: () => h.dataDir },
  { what: 'a secrets/ folder', folder: (c: WriterCase) => join(c.dir, 'secrets') },
  { what: '.git/hooks', folder: (c: WriterCase) => join(c.dir, '.git', 'hooks') },
];

describe('every disk writer refuses to write through a symlinked folder', () => {
  describe.each(TARGETS)('into $what', ({ folder }) => {
    it.each(WRITERS)('$name', async (writer) => {
      const c = newCase();
      const target = folder(c);
      mkdirSync(target, { recursive: true });
      writeFileSync(join(target, 'victim.txt'), 'ORIGINAL\n');
      symlinkSync(target, writer.linkAt(c));
      const before = contentsOf(target);
      const answer = await writer.write(c);
      expect(answer, JSON.stringify(answer)).toHaveProperty('refusal');
      const refusal = 'refusal' in answer ? answer.refusal : '';
      expect(isSentence(refusal), refusal).toBe(true);
      expect(contentsOf(target)).toEqual(before);
    });
  });

  it.each(WRITERS.filter((w) => w.isAppNamed))(
    '$name: a link to a plain folder of the working directory is refused too',
    async (writer) => {
      const c = newCase();
      const target = join(c.dir, 'elsewhere');
      mkdirSync(target);
      symlinkSync(target, writer.linkAt(c));
      const answer = await writer.write(c);
      expect(answer, JSON.stringify(answer)).toHaveProperty('refusal');
      expect(readdirSync(target)).toEqual([]);
    },
  );

  it.each(WRITERS)('$name writes into a real folder (the control)', async (writer) => {
    const c = newCase();
    mkdirSync(writer.linkAt(c), { recursive: true });
    writeFileSync(join(writer.linkAt(c), 'victim.txt'), 'ORIGINAL\n');
    const answer = await writer.write(c);
    expect(answer, JSON.stringify(answer)).toHaveProperty('text');
  });
});
