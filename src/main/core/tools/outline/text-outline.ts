/**
 * The text outline for languages without a usable tree-sitter grammar here (`.kt .toml .md .sql`; also
 * `.swift`, whose npm grammar needs a binary download at install time that this build cannot do). One regular
 * expression per language picks definition lines; indentation decides nesting for Kotlin and Swift. Limits: a
 * regex cannot see strings or comments, so a `fun` inside a multi-line string is listed, and nesting is a guess.
 */
import type { OutlineItem } from './extract';
import { oneLine } from './extract';

interface TextSpec {
  pattern: RegExp;
  /** Group of the pattern holding the name. */
  nameGroup: number;
  kindOf: (m: RegExpExecArray) => string;
  nestByIndent?: boolean;
}

const KOTLIN_SWIFT =
  /^(\s*)(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|internal|protected|open|final|abstract|sealed|data|enum|inner|override|suspend|inline|static|fileprivate|mutating|class|indirect|convenience|required|lateinit|operator|infix|tailrec|external|annotation|companion|value)\s+)*(fun|func|class|object|interface|struct|enum|protocol|extension|typealias|init|val|var|let)\b\s*(?:<[^>]*>\s*)?([A-Za-z_][\w.]*)?/;

export const TEXT_SPECS: Readonly<Record<string, TextSpec>> = {
  '.md': { pattern: /^(#{1,6})\s+(.+?)\s*#*\s*$/, nameGroup: 2, kindOf: (m) => `h${m[1]!.length}` },
  '.markdown': { pattern: /^(#{1,6})\s+(.+?)\s*#*\s*$/, nameGroup: 2, kindOf: (m) => `h${m[1]!.length}` },
  '.toml': {
    pattern: /^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/,
    nameGroup: 2,
    kindOf: (m) => (m[1] === '[[' ? 'array-table' : 'table'),
  },
  '.sql': {
    pattern:
      /^\s*create\s+(?:or\s+replace\s+)?(?:temp(?:orary)?\s+|unique\s+|materialized\s+|virtual\s+)*(table|view|index|function|procedure|trigger|type|schema|sequence)\s+(?:if\s+not\s+exists\s+)?([\w."`[\]]+)/i,
    nameGroup: 2,
    kindOf: (m) => m[1]!.toLowerCase(),
  },
  '.kt': { pattern: KOTLIN_SWIFT, nameGroup: 3, kindOf: (m) => m[2]!, nestByIndent: true },
  '.kts': { pattern: KOTLIN_SWIFT, nameGroup: 3, kindOf: (m) => m[2]!, nestByIndent: true },
  '.swift': { pattern: KOTLIN_SWIFT, nameGroup: 3, kindOf: (m) => m[2]!, nestByIndent: true },
};

export function textOutline(text: string, ext: string): OutlineItem[] | null {
  const spec = TEXT_SPECS[ext];
  if (!spec) return null;
  const roots: OutlineItem[] = [];
  const stack: { indent: number; item: OutlineItem }[] = [];
  const lines = text.split('\n');
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    if (ext === '.md' || ext === '.markdown') {
      if (/^\s*(```|~~~)/.test(line)) inFence = !inFence; // a `#` inside a code block is not a heading
      if (inFence) continue;
    }
    const m = spec.pattern.exec(line);
    if (!m) continue;
    const kind = spec.kindOf(m);
    const name = kind === 'init' ? 'init' : (m[spec.nameGroup] ?? '').trim();
    if (name === '') continue;
    const indent = spec.nestByIndent ? (m[1] ?? '').replace(/\t/g, '    ').length : 0;
    // Members (`val`/`var`/`let`) are listed only inside a type, not as top-level noise.
    if (spec.nestByIndent && (kind === 'val' || kind === 'var' || kind === 'let') && indent === 0) continue;
    const item: OutlineItem = { kind, name, line: i + 1, endLine: i + 1, signature: oneLine(line), children: [] };
    while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop();
    const parent = spec.nestByIndent ? stack[stack.length - 1] : undefined;
    if (parent) parent.item.children.push(item);
    else roots.push(item);
    if (spec.nestByIndent) stack.push({ indent, item });
  }
  return roots;
}
