/**
 * Which parser outlines a file, and the cache that makes asking again cheap (docs/outline.md):
 * - TypeScript, JavaScript and `.d.ts`: oxc (`script-outline.ts`). A file oxc cannot parse is outlined by tree-sitter's
 *   error-tolerant parse instead and the result carries oxc's problems, so the answer says it is partial.
 * - The other grammars of languages.ts: tree-sitter; a tree with errors carries their lines the same way.
 * - `.kt .kts .swift .toml .md .sql`: the text outline.
 * The cache keeps, per file (its real path), the bytes last outlined, the outline and its pieces, least recently used
 * first out, within MAX_ENTRIES and MAX_CHARS. A file whose stamp (inode, size, change times) is the kept one is not
 * read again; the same bytes again return the kept outline (one memory compare); changed bytes are compared with
 * the kept bytes, mapped to the kept text through its index (`text-index.ts`, so a big file is never decoded whole
 * for an edit), and only the touched statements are parsed again (`incremental.ts`).
 */
import { extname } from 'node:path';
import type { GrammarId } from '../../treesitter/grammars';
import type { OutlineItem } from './extract';
import { spliceOutline, stringEdit, type TextEdit } from './incremental';
import { GRAMMAR_OF_EXTENSION } from './languages';
import { outlinePool, type OutlinePool, type ParseEngine } from './outline-pool';
import type { ParsedText, ParseProblem, Piece } from './pieces';
import { parsePython } from './python-parse';
import type { ScriptLang } from './script-outline';
import { commonPrefix, TextIndex } from './text-index';
import { textOutline } from './text-outline';

export interface Outline {
  backend: 'oxc' | 'python' | 'tree-sitter' | 'text';
  language: string;
  items: OutlineItem[];
  /** Where the file failed to parse; when not empty the items are a partial outline. */
  problems: ParseProblem[];
}

const SCRIPT_LANG: Readonly<Record<string, ScriptLang>> = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.tsx': 'tsx',
  '.js': 'jsx',
  '.mjs': 'jsx',
  '.cjs': 'jsx',
  '.jsx': 'jsx',
};

/** The extension of a file name, or the name itself when it is only an extension (`'.py'`). */
function extensionOf(name: string): string {
  return (/^\.[^.]+$/.test(name) ? name : extname(name)).toLowerCase();
}

function scriptLangOf(name: string): ScriptLang | null {
  if (/\.d\.[mc]?ts$/i.test(name)) return 'dts';
  return SCRIPT_LANG[extensionOf(name)] ?? null;
}

interface Computed {
  outline: Outline;
  /** For the incremental path; null when the text did not parse cleanly or the language has none. */
  pieces: Piece[] | null;
  parser: ParseEngine | null;
}

/** The outline of `text` as the content of a file named `name` (or of extension `name`); null when none covers it. */
export async function outlineOf(
  text: string,
  name: string,
  pool: OutlinePool = outlinePool(),
): Promise<Outline | null> {
  return (await compute(text, name, pool))?.outline ?? null;
}

async function compute(text: string, name: string, pool: OutlinePool): Promise<Computed | null> {
  const ext = extensionOf(name);
  const grammar: GrammarId | undefined = GRAMMAR_OF_EXTENSION[ext];
  const script = scriptLangOf(name);
  // The exact parser's word on where a file fails; tree-sitter then gives the partial outline.
  let exactProblems: ParseProblem[] = [];
  if (script && grammar) {
    const parser: ParseEngine = { engine: 'oxc', lang: script };
    try {
      const parsed = (await parseScriptWithoutWorker(pool, text, script)) ?? (await pool.parse(parser, text));
      if (parsed.problems.length === 0)
        return {
          outline: { backend: 'oxc', language: grammar, items: parsed.items, problems: [] },
          pieces: parsed.pieces,
          parser,
        };
      exactProblems = parsed.problems;
    } catch {
      // oxc's native binding missing on this platform: tree-sitter outlines the file instead.
    }
  } else if (grammar === 'python') {
    const parser: ParseEngine = { engine: 'python' };
    const parsed = await parseExactPython(pool, text);
    if (parsed.problems.length === 0)
      return {
        outline: { backend: 'python', language: grammar, items: parsed.items, problems: [] },
        pieces: parsed.pieces,
        parser,
      };
    exactProblems = parsed.problems;
  }
  let failure: string | null = null;
  if (grammar) {
    const parser: ParseEngine = { engine: 'tree-sitter', grammar };
    try {
      const parsed = await pool.parse(parser, text);
      const problems = exactProblems.length > 0 ? exactProblems : parsed.problems;
      return {
        outline: { backend: 'tree-sitter', language: grammar, items: parsed.items, problems },
        pieces: problems.length === 0 ? parsed.pieces : null,
        parser,
      };
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error); // e.g. a grammar package missing
    }
  }
  const items = textOutline(text, ext);
  if (items)
    return { outline: { backend: 'text', language: ext.slice(1), items, problems: [] }, pieces: null, parser: null };
  if (failure) throw new Error(`tree-sitter could not outline this file: ${failure}`);
  return null;
}

interface Entry {
  /** The file's stamp when it was read (`fileStamp`): equal again means the bytes were not written since. */
  stamp: string | null;
  bytes: Buffer;
  /**
   * The text, while it is one decoded string: after a parse. An edit does not make the new text; it keeps `index`,
   * and decodes only what it parses again (`text-index.ts`).
   */
  text: string | null;
  /** Lines and multi-byte characters of the bytes: made at the first edit; null when the bytes are not UTF-8. */
  index: TextIndex | null | undefined;
  /** The text's length in UTF-16 units (the cache's bound counts them). */
  chars: number;
  name: string;
  computed: Computed;
  /** The formatted answer's body, once made. */
  formatted: string | null;
}

const MAX_ENTRIES = 32;
const MAX_CHARS = 16 * 1024 * 1024;

export interface CachedOutline {
  outline: Outline;
  /** The formatted body kept with the outline (set by the caller through `keepFormatted`). */
  formatted: string | null;
  keepFormatted: (body: string) => void;
  /** How the outline was made: kept, spliced (only the edit reparsed) or parsed whole. */
  how: 'kept' | 'spliced' | 'parsed';
  /** When spliced: the characters parsed again (tests). */
  reparsedChars?: number;
}

export class OutlineCache {
  private readonly entries = new Map<string, Entry>();
  private chars = 0;

  constructor(
    private readonly pool: () => OutlinePool = outlinePool,
    private readonly maxEntries = MAX_ENTRIES,
    private readonly maxChars = MAX_CHARS,
  ) {}

  /**
   * The outline of the file at `path` (its real path); null when no backend covers it. `read` gives its bytes (or
   * the bytes themselves); `stamp` (`fileStamp`), when given and equal to the kept one, spares even the read.
   */
  async outline(
    path: string,
    read: Buffer | (() => Buffer),
    name: string,
    stamp: string | null = null,
  ): Promise<CachedOutline | null> {
    const entry = this.entries.get(path);
    if (entry && entry.name === name && stamp !== null && entry.stamp === stamp) {
      this.touch(path, entry);
      return this.answer(entry, 'kept');
    }
    const bytes = typeof read === 'function' ? read() : read;
    const common = entry && entry.name === name ? commonPrefix(entry.bytes, bytes) : 0;
    if (entry && entry.name === name && common === bytes.length && common === entry.bytes.length) {
      entry.stamp = stamp;
      this.touch(path, entry);
      return this.answer(entry, 'kept');
    }
    const pool = this.pool();
    // Out of the cache before any await: a second call for the same file meanwhile parses on its own instead of
    // sharing pieces this one is changing.
    this.forget(path);
    if (entry && entry.name === name && entry.computed.pieces && entry.computed.parser) {
      const parser = entry.computed.parser;
      const edited = editOf(entry, bytes, common);
      const spliced = await spliceOutline(
        edited.edit,
        entry.chars,
        entry.computed.pieces,
        (slice, depth) => reparse(pool, parser, slice, depth),
        parser.engine !== 'oxc', // Python's blocks are its indentation (tree-sitter's Python too)
      );
      if (spliced) {
        const outline: Outline = { ...entry.computed.outline, items: spliced.items, problems: [] };
        const kept: Entry = {
          stamp,
          bytes,
          text: edited.text,
          index: edited.index,
          chars: edited.chars,
          name,
          computed: { outline, pieces: spliced.pieces, parser },
          formatted: null,
        };
        return { ...this.answer(this.keep(path, kept), 'spliced'), reparsedChars: spliced.reparsedChars };
      }
    }
    const text = bytes.toString('utf8');
    const computed = await compute(text, name, pool);
    if (!computed) return null;
    return this.answer(
      this.keep(path, { stamp, bytes, text, index: undefined, chars: text.length, name, computed, formatted: null }),
      'parsed',
    );
  }

  /** Forgets every kept outline (tests; the app keeps them for its lifetime, within the bounds). */
  clear(): void {
    this.entries.clear();
    this.chars = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  private answer(entry: Entry, how: CachedOutline['how']): CachedOutline {
    return {
      outline: entry.computed.outline,
      formatted: entry.formatted,
      keepFormatted: (body) => (entry.formatted = body),
      how,
    };
  }

  private keep(path: string, entry: Entry): Entry {
    this.forget(path);
    if (entry.chars > this.maxChars) return entry; // too big to keep: answered, not cached
    this.entries.set(path, entry);
    this.chars += entry.chars;
    for (const [oldest, old] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.chars <= this.maxChars) break;
      this.entries.delete(oldest);
      this.chars -= old.chars;
    }
    return entry;
  }

  private forget(path: string): void {
    const old = this.entries.get(path);
    if (!old) return;
    this.entries.delete(path);
    this.chars -= old.chars;
  }

  private touch(path: string, entry: Entry): void {
    this.entries.delete(path);
    this.entries.set(path, entry);
  }
}

let scriptModule: Promise<typeof import('./script-outline')> | undefined;
/**
 * oxc's outline module, loaded on first use (its binding is native and large). Kept once loaded: every `import()`
 * goes through the module loader's resolve again (through a loader hook's thread where one is registered, as under
 * tsx), which an edit's reparse paid on each call.
 */
function scriptOutline(): Promise<typeof import('./script-outline')> {
  if (!scriptModule) {
    scriptModule = import('./script-outline');
    scriptModule.catch(() => (scriptModule = undefined)); // a binding that failed to load is tried again next time
  }
  return scriptModule;
}

/** A slice this small is parsed by oxc on this thread: well under a millisecond, less than a worker's round trip. */
const HERE_MAX_CHARS = 64 * 1024;
/**
 * A Python text this small is parsed on this thread (`python-parse.ts` reads about 10 MB/s here: a few milliseconds,
 * less than a worker's round trip and far less than a worker's start); a bigger one goes to the pool, cut in parts.
 */
const PYTHON_HERE_MAX_CHARS = 512 * 1024;
/** A script this small is parsed here when no worker is alive (`parseScriptWithoutWorker`): JSON under ~15 ms. */
const COLD_HERE_MAX_CHARS = 256 * 1024;

/**
 * A script text of up to COLD_HERE_MAX_CHARS parsed here while no worker is alive (a fresh process, or the pool
 * ended after idle): a worker's start (a thread, its modules, oxc's binding) costs several times the parse, through
 * JSON, on this thread. A worker is started meanwhile for the next parse. Null: the pool parses it.
 */
async function parseScriptWithoutWorker(pool: OutlinePool, text: string, lang: ScriptLang): Promise<ParsedText | null> {
  if (pool.liveWorkers > 0 || !pool.usesWorkers || text.length > COLD_HERE_MAX_CHARS) return null;
  pool.warmUp();
  try {
    return (await scriptOutline()).outlineScript(text, lang, 0, true);
  } catch {
    return null; // oxc's binding cannot load on this thread: the pool parses it (and says why, if it cannot either)
  }
}

function parseExactPython(pool: OutlinePool, text: string, depth = 0): ParsedText | Promise<ParsedText> {
  return text.length <= PYTHON_HERE_MAX_CHARS
    ? parsePython(text, depth)
    : pool.parse({ engine: 'python' }, text, depth);
}

async function reparse(pool: OutlinePool, parser: ParseEngine, slice: string, depth: number): Promise<ParsedText> {
  if (parser.engine === 'python') return parseExactPython(pool, slice, depth);
  if (parser.engine === 'oxc' && slice.length <= HERE_MAX_CHARS) {
    try {
      return (await scriptOutline()).outlineScript(slice, parser.lang, depth);
    } catch {
      // oxc's binding cannot load on this thread: the workers parse it (and say why, if they cannot either).
    }
  }
  return pool.parse(parser, slice, depth);
}

interface Edited {
  edit: TextEdit;
  /** The new text when it was decoded whole (bytes that are not UTF-8), else null. */
  text: string | null;
  index: TextIndex | null | undefined;
  chars: number;
}

/**
 * The edit from the kept bytes to `bytes`. Through the kept text's index (made from the kept text at the first edit
 * after a parse) only the changed bytes are decoded and the new text is never made whole (`text-index.ts`); bytes
 * that are not UTF-8 are decoded whole and compared as strings.
 */
function editOf(entry: Entry, bytes: Buffer, common: number): Edited {
  if (entry.index === undefined) entry.index = entry.text === null ? null : TextIndex.of(entry.text, entry.bytes);
  const index = entry.index;
  const byBytes = index?.edit(entry.bytes, bytes, common);
  if (!index || !byBytes) {
    const text = bytes.toString('utf8');
    return {
      edit: stringEdit(entry.text ?? entry.bytes.toString('utf8'), text),
      text,
      index: undefined,
      chars: text.length,
    };
  }
  const next = byBytes.index;
  const edit: TextEdit = {
    prefix: byBytes.prefixChars,
    oldEnd: byBytes.oldEndChars,
    delta: next.chars - index.chars,
    lineDelta:
      next.newlinesIn(byBytes.prefixChars, byBytes.prefixChars + byBytes.middle.length) -
      index.newlinesIn(byBytes.prefixChars, byBytes.oldEndChars),
    oldLine: (offset) => index.lineOf(offset),
    oldColumn: (offset) => index.columnOf(offset),
    newColumn: (offset) => next.columnOf(offset),
    slice: (from, to) => bytes.toString('utf8', next.byteOf(from), next.byteOf(to)),
  };
  return { edit, text: null, index: next, chars: next.chars };
}

let shared: OutlineCache | undefined;

/** The process-wide cache the outline tool uses. */
export function outlineCache(): OutlineCache {
  shared ??= new OutlineCache();
  return shared;
}
