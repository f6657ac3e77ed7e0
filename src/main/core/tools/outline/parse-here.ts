/**
 * One parse on the calling thread, whichever the parser: the unit of work of the outline workers
 * (`outline-worker.ts`), and the fallback when no worker can run.
 */
import type { GrammarId } from '../../treesitter/grammars';
import type { ParsedText } from './pieces';
import { parsePython } from './python-parse';
import { outlineScript, type ScriptLang } from './script-outline';
import { outlineOnThisThread } from './tree-outline';

/** Which parser reads a text: oxc for TypeScript and JavaScript, ours for Python (`python-parse.ts`), tree-sitter for the rest. */
export type ParseEngine =
  | { engine: 'oxc'; lang: ScriptLang }
  | { engine: 'python' }
  | { engine: 'tree-sitter'; grammar: GrammarId };

export async function parseOnThisThread(parser: ParseEngine, text: string, depth: number): Promise<ParsedText> {
  if (parser.engine === 'oxc') return outlineScript(text, parser.lang, depth);
  if (parser.engine === 'python') return parsePython(text, depth);
  const { items, pieces, problems } = await outlineOnThisThread(parser.grammar, text, depth);
  return { items, pieces, problems };
}
