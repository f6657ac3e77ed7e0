/**
 * `get_ast_outline`: the top-level definitions of a source file (functions, classes, structs, methods one level
 * down) with line numbers and signatures, without bodies — a map of a file before reading it.
 * Backends: web-tree-sitter with the grammar packages' wasm, in worker threads (`outline-pool.ts`), for every
 * extension of languages.ts (`.rs` included); a text outline for `.kt .kts .swift .toml .md .sql`. Other extensions get
 * a clear "no outline" message. Files are capped at MAX_OUTLINE_BYTES.
 */
import { extname } from 'node:path';
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { defineTool, ToolError } from '../define-tool';
import { fileStamp, readCapped } from '../_policy/fs';
import { utf8TextBytes } from '../_policy/text-bytes';
import { guardRead } from '../_policy/guard';
import { label, PATH_ALIASES, pathArg, pathField, shortPath } from '../fs/common';
import type { OutlineItem } from './extract';
import { GRAMMAR_OF_EXTENSION } from './languages';
import { outlineCache, type Outline } from './outline-service';
import type { ParseProblem } from './pieces';
import { TEXT_SPECS } from './text-outline';

export { outlineOf, type Outline } from './outline-service';

export const MAX_OUTLINE_BYTES = 8 * 1024 * 1024;

export function formatOutline(items: readonly OutlineItem[], depth = 0): string[] {
  const out: string[] = [];
  for (const item of items) {
    out.push(
      `${'  '.repeat(depth)}L${item.line}${item.endLine > item.line ? `-${item.endLine}` : ''}: ${item.signature}`,
    );
    out.push(...formatOutline(item.children, depth + 1));
  }
  return out;
}

const input = z.object({ path: pathField('Source file to outline.') });
const SUPPORTED = [...new Set([...Object.keys(GRAMMAR_OF_EXTENSION), ...Object.keys(TEXT_SPECS)])].sort().join(' ');

export const getAstOutlineTool = defineTool({
  name: TN.GET_AST_OUTLINE,
  description:
    'Outline a source file: its top-level definitions (functions, classes, structs, types; methods one level down) ' +
    'with line ranges and signatures, without bodies. Use it to find your way in a large file before read_file with an offset. ' +
    `Supported: ${SUPPORTED}.`,
  input,
  kind: 'read',
  category: 'filesystem',
  isIdempotent: true,
  aliases: PATH_ALIASES,
  describe: (a, length) => label(TN.GET_AST_OUTLINE, shortPath(a.path, length), length),
  targetPath: pathArg,
  async executeAsync(a, ctx) {
    const g = guardRead(a.path, ctx);
    const ext = extname(g.real).toLowerCase();
    if (!GRAMMAR_OF_EXTENSION[ext] && !TEXT_SPECS[ext])
      throw new ToolError(
        `No outline for ${ext || 'files without an extension'} files. Supported: ${SUPPORTED}. Use read_file or grep_files instead.`,
      );
    const stamp = fileStamp(g.real);
    let isTruncated = (stamp?.size ?? 0) > MAX_OUTLINE_BYTES;
    const readText = () => {
      const read = readCapped(g, MAX_OUTLINE_BYTES);
      const bytes = utf8TextBytes(read.bytes);
      if (!bytes) throw new ToolError(`${g.display} is a binary file.`);
      isTruncated = read.isTruncated;
      return bytes;
    };
    const cached = await outlineCache().outline(g.real, readText, g.real, stamp?.key ?? null);
    if (!cached) throw new ToolError(`No outline backend for ${ext}.`);
    const { outline } = cached;
    const head = `${g.display} (${outline.language}, ${BACKEND_LABEL[outline.backend]})${isTruncated ? ` [only the first ${MAX_OUTLINE_BYTES} bytes]` : ''}`;
    if (outline.problems.length > 0) return [`${head}: the file does not parse.`, ...problemLines(outline)].join('\n');
    if (outline.items.length === 0) return `${head}: no top-level definitions found.`;
    let body = cached.formatted;
    if (body === null) {
      body = formatOutline(outline.items).join('\n');
      cached.keepFormatted(body);
    }
    return `${head}:\n${body}`;
  },
});

const BACKEND_LABEL: Readonly<Record<Outline['backend'], string>> = {
  oxc: 'oxc',
  python: 'Python grammar',
  'tree-sitter': 'tree-sitter',
  text: 'text outline',
};

/** A failed parse: where it failed, then the error-tolerant outline, said to be partial (never passed off as whole). */
function problemLines(outline: Outline): string[] {
  const first = Math.min(...outline.problems.map((p: ParseProblem) => p.line));
  const out = outline.problems.map((p) => `  line ${p.line}: ${p.message}`);
  if (outline.items.length === 0) return [...out, 'No outline: nothing before the errors could be outlined.'];
  return [
    ...out,
    `Partial outline from an error-tolerant parse: it may be wrong or incomplete from line ${first} on.`,
    ...formatOutline(outline.items),
  ];
}
