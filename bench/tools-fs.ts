/**
 * File tools per call against the same operations through `@modelcontextprotocol/server-filesystem` over stdio
 * (target: at least as fast, docs/performance.md "Performance targets"). Both work on the same generated workspace;
 * ours runs in-process, as in the app; the MCP server is a real child process spoken to with the real SDK client.
 * Pairs: read_file ↔ read_text_file, list_files ↔ list_directory, edit_file ↔ edit_file (a unique replacement,
 * toggled back and forth), search_file ↔ read_text_file + the same regex applied by the client (the server has no
 * in-file search, so that is what an agent using it has to do).
 * Scale rows (1×, 10×, 100× entries): `list_files` of one folder against `list_directory`, and `list_files`
 * recursive against `directory_tree`, on generated trees of 100, 1,000 and 10,000 entries; both sides alternate run
 * by run, and the listed paths must be the same set (folders with their `/`).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { editFileTool } from '../src/main/core/tools/fs/edit-file';
import { listFilesTool } from '../src/main/core/tools/fs/list-files';
import { readFileTool } from '../src/main/core/tools/fs/read-file';
import { searchFileTool } from '../src/main/core/tools/fs/search-file';
import type { Tool, ToolArgs, ToolRunContext } from '../src/main/core/tools/tool';
import { interleaved, median, ms, type BenchOptions, type BenchRow } from './table';

const require = createRequire(import.meta.url);

function workspace(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'skald-bench-fs-')));
  const lines = Array.from(
    { length: 500 },
    (_, i) => `export const value_${i} = compute(${i}, "payload ${i % 17}"); // line ${i}`,
  );
  writeFileSync(join(root, 'module.ts'), `${lines.join('\n')}\n`);
  writeFileSync(join(root, 'edit.ts'), `${lines.join('\n')}\nconst marker = "AAAA";\n`);
  mkdirSync(join(root, 'many'));
  for (let i = 0; i < 200; i++) writeFileSync(join(root, 'many', `file-${String(i).padStart(3, '0')}.txt`), `${i}\n`);
  for (let i = 0; i < 20; i++) mkdirSync(join(root, 'many', `dir-${i}`));
  return root;
}

/** `--quick`: 10 calls a side instead of 100; the scale rows at 1× and 10× only, 3 runs a side. */
export async function run({ quick }: BenchOptions): Promise<BenchRow[]> {
  const root = workspace();
  const ctx: ToolRunContext = {
    workingDir: root,
    workspaceDir: root,
    signal: new AbortController().signal,
    log: () => undefined,
  };
  const serverEntry = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverEntry, root],
    stderr: 'ignore',
  });
  const client = new Client({ name: 'skald-bench', version: '0' });
  await client.connect(transport);
  const mcp = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const result = (await client.callTool({ name, arguments: args })) as {
      content: { type: string; text?: string }[];
      isError?: boolean;
    };
    if (result.isError) throw new Error(`MCP ${name} failed: ${result.content[0]?.text}`);
    return result.content.map((c) => c.text ?? '').join('');
  };
  const ours = async (tool: Tool, args: ToolArgs): Promise<string> => {
    const outcome = await tool.executeAsync(args, ctx);
    if (outcome.kind !== 'completed') throw new Error(`${tool.name} failed: ${JSON.stringify(outcome)}`);
    return outcome.result;
  };

  let flip = false;
  const pairs: { name: string; ours: () => Promise<unknown>; peer: () => Promise<unknown> }[] = [
    {
      name: 'read_file (500 lines)',
      ours: () => ours(readFileTool, { path: 'module.ts' }),
      peer: () => mcp('read_text_file', { path: join(root, 'module.ts') }),
    },
    {
      name: 'list_files (220 entries)',
      ours: () => ours(listFilesTool, { path: 'many' }),
      peer: () => mcp('list_directory', { path: join(root, 'many') }),
    },
    {
      name: 'edit_file (unique replace)',
      ours: () => {
        flip = !flip;
        return ours(editFileTool, {
          path: 'edit.ts',
          old_string: flip ? '"AAAA"' : '"BBBB"',
          new_string: flip ? '"BBBB"' : '"AAAA"',
        });
      },
      peer: () => {
        flip = !flip;
        return mcp('edit_file', {
          path: join(root, 'edit.ts'),
          edits: [{ oldText: flip ? '"AAAA"' : '"BBBB"', newText: flip ? '"BBBB"' : '"AAAA"' }],
        });
      },
    },
    {
      name: 'search_file (regex in 500 lines)',
      ours: () => ours(searchFileTool, { path: 'module.ts', pattern: 'payload 1[0-3]"' }),
      peer: async () => {
        const text = await mcp('read_text_file', { path: join(root, 'module.ts') });
        const re = /payload 1[0-3]"/;
        return text.split('\n').flatMap((line, i) => (re.test(line) ? [`${i + 1}:${line}`] : []));
      },
    },
  ];

  const rows: BenchRow[] = [];
  try {
    rows.push(...(await scaleRows(root, ours, mcp, quick)));
    for (const p of pairs) {
      // Interleaved call by call after 10 warm-up calls a side; edit_file's toggle flips on every call, so the two
      // sides take turns on the same file.
      flip = false;
      const times = await interleaved(p.ours, p.peer, quick ? 10 : 100, 10);
      const [oursMs, peerMs] = [median(times.ours), median(times.peer)];
      rows.push({
        name: `${p.name} per call vs MCP server-filesystem`,
        ours: ms(oursMs),
        peer: `MCP ${ms(peerMs)}`,
        ratio: oursMs / peerMs,
        target: '≤ 1.0× MCP',
        pass: oursMs <= peerMs,
      });
    }
  } finally {
    await client.close();
    rmSync(root, { recursive: true, force: true });
  }
  return rows;
}

/** A folder of `entries` files, and a tree of `entries` entries: 10 folders holding folders of 9 files each. */
function scaleTree(root: string, entries: number): { flat: string; deep: string } {
  const flat = join(root, `flat-${entries}`);
  mkdirSync(flat);
  for (let i = 0; i < entries; i++) writeFileSync(join(flat, `f-${String(i).padStart(5, '0')}.txt`), '');
  const deep = join(root, `deep-${entries}`);
  for (let d = 0; d < Math.floor((entries - 10) / 10); d++) {
    const dir = join(deep, `pkg${d % 10}`, `mod${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 9; f++) writeFileSync(join(dir, `file${f}.ts`), '');
  }
  return { flat, deep };
}

interface TreeNode {
  name: string;
  type: 'file' | 'directory';
  children?: TreeNode[];
}

function treePaths(nodes: readonly TreeNode[], prefix = ''): string[] {
  return nodes.flatMap((n) =>
    n.type === 'directory'
      ? [`${prefix}${n.name}/`, ...treePaths(n.children ?? [], `${prefix}${n.name}/`)]
      : [`${prefix}${n.name}`],
  );
}

/** The same entries, each once: both sides list a folder's entries in their own order, so the lists are sorted. */
const sameSet = (a: string[], b: string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

async function scaleRows(
  root: string,
  ours: (tool: Tool, args: ToolArgs) => Promise<string>,
  mcp: (name: string, args: Record<string, unknown>) => Promise<string>,
  quick: boolean,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const [scale, entries] of (
    [
      ['1×', 100],
      ['10×', 1_000],
      ['100×', 10_000],
    ] as const
  ).slice(0, quick ? 2 : 3)) {
    const { flat, deep } = scaleTree(root, entries);
    const cases = [
      {
        name: `list_files one folder of ${entries.toLocaleString('en')} files (${scale}) vs MCP list_directory`,
        ours: async () =>
          (await ours(listFilesTool, { path: relative(root, flat), limit: 10_000 })).split('\n').slice(0, -1),
        peer: async () =>
          (await mcp('list_directory', { path: flat }))
            .split('\n')
            .map((l) => (l.startsWith('[DIR] ') ? `${l.slice(6)}/` : l.slice(7))),
      },
      {
        name: `list_files recursive, a tree of about ${entries.toLocaleString('en')} files and folders (${scale}) vs MCP directory_tree`,
        ours: async () =>
          (await ours(listFilesTool, { path: relative(root, deep), recursive: true, limit: 10_000 }))
            .split('\n')
            .slice(0, -1),
        peer: async () => treePaths(JSON.parse(await mcp('directory_tree', { path: deep })) as TreeNode[]),
      },
    ];
    for (const c of cases) {
      const theirs = await c.peer();
      const same = sameSet(await c.ours(), theirs);
      const runs = quick ? 3 : entries >= 10_000 ? 10 : 30;
      const ta: number[] = [];
      const tb: number[] = [];
      for (let i = 0; i < runs; i++) {
        let t = performance.now();
        await c.ours();
        ta.push(performance.now() - t);
        t = performance.now();
        await c.peer();
        tb.push(performance.now() - t);
      }
      const [a, b] = [median(ta), median(tb)];
      rows.push({
        name: `${c.name}: ${theirs.length.toLocaleString('en')} entries${same ? ', the same' : ' — ENTRIES DIFFER'}`,
        ours: ms(a),
        peer: `MCP ${ms(b)}`,
        ratio: a / b,
        target: '≤ 1.0× MCP, same entries',
        pass: same && a <= b,
      });
    }
  }
  return rows;
}
