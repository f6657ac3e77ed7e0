/**
 * `search_file`: the lines of one file that match a pattern (regex, or case-insensitive), with optional context,
 * numbered like read_file. At most MAX_SEARCH_RESULTS matching lines per call, stated when cut.
 */
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { defineTool, ToolError } from '../define-tool';
import { readCapped } from '../_policy/fs';
import { decodeText } from '../_policy/text-bytes';
import { guardRead } from '../_policy/guard';
import { PATH_ALIASES, pathArg, pathField, plural, searchLabel, shortPath } from './common';
import { clipLine, compileMatcher, MAX_PATTERN_CHARS, hunks, matchingLines, lineIndex } from './search-engine';

export const MAX_SEARCH_RESULTS = 200;
const MAX_SEARCH_BYTES = 64 * 1024 * 1024;

const input = z.object({
  path: pathField('File to search.'),
  pattern: z
    .string()
    .min(1)
    .max(MAX_PATTERN_CHARS)
    .describe('JavaScript regular expression (a plain word works too), matched per line.'),
  case_insensitive: z.boolean().default(false).describe('Ignore letter case.'),
  context_lines: z.coerce
    .number()
    .int()
    .min(0)
    .max(10)
    .default(0)
    .describe('Lines of context before and after each match (0–10).'),
});

export const searchFileTool = defineTool({
  name: TN.SEARCH_FILE,
  card: 'file_hits',
  description:
    'Find the lines of one file that match a regular expression; returns "line:text" (context lines as "line-text"). Use grep_files to search a folder.',
  input,
  kind: 'read',
  category: 'filesystem',
  isIdempotent: true,
  aliases: { ...PATH_ALIASES, query: 'pattern', regex: 'pattern' },
  describe: (a, length) => searchLabel(TN.SEARCH_FILE, a.pattern, shortPath(a.path, length), length),
  targetPath: pathArg,
  execute(a, ctx) {
    const matcher = compileMatcher(a.pattern, a.case_insensitive);
    const g = guardRead(a.path, ctx);
    const read = readCapped(g, MAX_SEARCH_BYTES);
    const decoded = decodeText(read.bytes);
    if (!decoded) throw new ToolError(`${g.display} is a binary file; search_file searches text only.`);
    const { text } = decoded;
    const matches = matchingLines(matcher, text, MAX_SEARCH_RESULTS + 1);
    if (matches.length === 0) return `No lines of ${g.display} match /${a.pattern}/${a.case_insensitive ? 'i' : ''}.`;
    const shown = matches.slice(0, MAX_SEARCH_RESULTS);
    const lines = lineIndex(text);
    const out: string[] = [];
    for (const hunk of hunks(lines, shown, a.context_lines)) {
      if (out.length > 0 && a.context_lines > 0) out.push('--');
      for (const l of hunk.lines) out.push(`${l.no + 1}${l.isMatch ? ':' : '-'}${clipLine(l.text)}`);
    }
    const notes: string[] = [];
    if (matches.length > MAX_SEARCH_RESULTS)
      notes.push(
        `[first ${MAX_SEARCH_RESULTS} matching lines shown; narrow the pattern or use read_file with an offset]`,
      );
    if (read.isTruncated) notes.push(`[only the first ${MAX_SEARCH_BYTES} bytes of the file were searched]`);
    const head = `${plural(shown.length, 'matching line')}${matches.length > MAX_SEARCH_RESULTS ? '+' : ''} in ${g.display}:`;
    return [head, ...out, ...notes].join('\n');
  },
});
