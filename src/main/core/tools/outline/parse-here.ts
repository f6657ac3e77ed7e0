/**
 * One parse on the calling thread, whichever the parser: the unit of work of the outline workers
 * (`outline-worker.ts`), and the fallback when no worker can run.
 */
import type { ParseEngine } from './outline-pool';
import type { ParsedText } from './pieces';
import { parsePython } from './python-parse';
import { outlineScript } from './script-outline';
import { outlineOnThisThread } from './tree-outline';

export async function parseOnThisThread(parser: ParseEngine, text: string, depth: number): Promise<ParsedText> {
  if (parser.engine === 'oxc') return outlineScript(text, parser.lang, depth);
  if (parser.engine === 'python') return parsePython(text, depth);
  const { items, pieces, problems } = await outlineOnThisThread(parser.grammar, text, depth);
  return { items, pieces, problems };
}
