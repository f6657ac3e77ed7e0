/**
 * The outline of TypeScript, JavaScript and `.d.ts` files, from oxc's parser (`oxc-parser`, native, in the outline
 * workers). Chosen over tree-sitter and over the TypeScript compiler by measurement (docs/outline.md "Why oxc for
 * TypeScript and JavaScript"): it gives the compiler's names, parses files tree-sitter's grammar cannot, and is
 * several times faster than both. It recovers from no syntax error: a file that does not parse comes back with its
 * problems and no items, and the caller outlines it with tree-sitter, marked as partial.
 *
 * What is listed (docs/outline.md "What an outline lists"): the file's declarations (function, class, interface,
 * type, enum, namespace/module, each variable of a `var`/`let`/`const`/`using` statement with a plain name), looking
 * through `export`, `export default` and `declare`; the members of classes (constructor, methods, properties,
 * accessors) and the statements of namespaces, down to MAX_DEPTH.
 */
import { parseSync, type ParserOptions } from 'oxc-parser';
import { lineIndex, MAX_DEPTH, signatureFromSource, type OutlineItem } from './extract';
import { parseRaw } from './oxc-raw';
import type { ParsedText, ParseProblem, Piece, PieceBody } from './pieces';

export type ScriptLang = 'ts' | 'tsx' | 'js' | 'jsx' | 'dts';

/** The fields of oxc's ESTree nodes this module reads (the full types live in `@oxc-project/types`). */
interface N {
  type: string;
  start: number;
  end: number;
  [field: string]: unknown;
}

const MAX_PROBLEMS = 5;

/** A statement or member this big gets the body of its main function recorded as a piece body (`functionBody`). */
const BIG_PIECE_CHARS = 16 * 1024;
/** The depth of a function body's statements, where nothing is listed. */
export const FUNCTION_BODY_DEPTH = -1;
/** The depth a reparsed slice of a function body is parsed at: its wrapper function's body is always recorded. */
const WRAPPED_FUNCTION_DEPTH = FUNCTION_BODY_DEPTH - 1;
/** The depth of a big interface's members, where nothing is listed (interface members are not outlined). */
const INTERFACE_BODY_DEPTH = WRAPPED_FUNCTION_DEPTH - 1;
/** The depth a reparsed slice of an interface body is parsed at: its wrapper interface's body is always recorded. */
const WRAPPED_INTERFACE_DEPTH = INTERFACE_BODY_DEPTH - 1;
const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** Statement types that nothing can continue once they end with `}` (see Piece.closed). */
const CLOSED_BY_BRACE = new Set([
  'FunctionDeclaration',
  'ClassDeclaration',
  'TSInterfaceDeclaration',
  'TSEnumDeclaration',
  'TSModuleDeclaration',
  'BlockStatement',
  'TryStatement',
  'SwitchStatement',
  'MethodDefinition',
  'StaticBlock',
]);

const MEMBER_KINDS: Readonly<Record<string, string>> = {
  MethodDefinition: 'method',
  TSAbstractMethodDefinition: 'method',
  PropertyDefinition: 'field',
  TSAbstractPropertyDefinition: 'field',
  AccessorProperty: 'field',
  TSAbstractAccessorProperty: 'field',
};

/**
 * The outline of one script text; `depth` is the depth of its top-level statements (0 for a whole file). `json`:
 * through `parseSync`'s JSON only, never setting raw transfer up (a parse on the main thread: `oxc-raw.ts`).
 */
export function outlineScript(text: string, lang: ScriptLang, depth = 0, json = false): ParsedText {
  const filename = lang === 'dts' ? 'file.d.ts' : `file.${lang}`;
  // A `.js` file may be a script (sloppy mode: `with`, octal literals) or a module: let the parser tell.
  const options: ParserOptions = { lang, sourceType: lang === 'js' || lang === 'jsx' ? 'unambiguous' : 'module' };
  // The same ESTree either way; raw transfer skips the JSON (`oxc-raw.ts`).
  const result = (json ? null : parseRaw(filename, text, options)) ?? parseSync(filename, text, options);
  const lineOf = lineIndex(text);
  const errors = result.errors.filter((e) => e.severity === 'Error');
  if (errors.length > 0) {
    const problems: ParseProblem[] = errors
      .slice(0, MAX_PROBLEMS)
      .map((e) => ({ line: lineOf(e.labels[0]?.start ?? 0), message: e.message }));
    return { items: [], pieces: null, problems };
  }
  const walk = new ScriptWalk(text, lineOf);
  const pieces = walk.statements(result.program.body as unknown as N[], depth);
  return { items: pieces.flatMap((p) => p.items), pieces, problems: [] };
}

class ScriptWalk {
  constructor(
    private readonly text: string,
    private readonly lineOf: (offset: number) => number,
  ) {}

  statements(list: readonly N[], depth: number): Piece[] {
    const out: Piece[] = [];
    for (const statement of list) {
      let decl = statement;
      if (
        (statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration') &&
        statement.declaration
      )
        decl = statement.declaration as N;
      // A decorator before `export` lies outside the statement's own span.
      const decorators = decl.decorators as N[] | undefined;
      const start = decorators?.length ? Math.min(statement.start, decorators[0]!.start) : statement.start;
      const piece: Piece = { start, end: statement.end, closed: this.isClosed(statement, decl), items: [], body: null };
      // Inside a function body nothing is listed: the statements are only places to reparse from.
      if (depth >= 0) this.declare(decl, depth, piece);
      if (
        !piece.body &&
        (depth === WRAPPED_INTERFACE_DEPTH ||
          depth === WRAPPED_FUNCTION_DEPTH ||
          piece.end - piece.start >= BIG_PIECE_CHARS)
      ) {
        piece.body =
          decl.type === 'TSInterfaceDeclaration' && depth !== WRAPPED_FUNCTION_DEPTH
            ? this.interfaceBody(piece, decl)
            : this.functionBody(statement);
      }
      out.push(piece);
    }
    return out;
  }

  private declare(decl: N, depth: number, piece: Piece): void {
    const id = decl.id as N | null | undefined;
    switch (decl.type) {
      case 'FunctionDeclaration':
      case 'TSDeclareFunction':
        if (id) piece.items.push(this.item('function', this.slice(id), decl, decl.body as N | null));
        return;
      case 'TSInterfaceDeclaration':
        if (id) piece.items.push(this.item('interface', this.slice(id), decl, decl.body as N));
        return;
      case 'TSTypeAliasDeclaration':
        if (id) piece.items.push(this.item('type', this.slice(id), decl, null));
        return;
      case 'TSEnumDeclaration':
        if (id) piece.items.push(this.item('enum', this.slice(id), decl, decl.body as N));
        return;
      case 'ClassDeclaration': {
        if (!id) return;
        const body = decl.body as N;
        const item = this.item('class', this.slice(id), decl, body);
        piece.items.push(item);
        if (depth < MAX_DEPTH) {
          const members = this.members(body.body as N[], depth + 1);
          piece.body = this.body(piece, body, '}', depth + 1, members);
          item.children = members.flatMap((m) => m.items);
        }
        return;
      }
      case 'TSModuleDeclaration': {
        const body = decl.body as N | null;
        const kind = decl.kind === 'global' ? 'global' : (decl.kind as string);
        const item = this.item(kind, this.slice(id!), decl, body);
        piece.items.push(item);
        if (body?.type === 'TSModuleBlock' && depth < MAX_DEPTH) {
          const statements = this.statements(body.body as N[], depth + 1);
          piece.body = this.body(piece, body, '}', depth + 1, statements);
          item.children = statements.flatMap((s) => s.items);
        }
        return;
      }
      case 'VariableDeclaration': {
        const kind = decl.kind as string;
        for (const d of decl.declarations as N[]) {
          const name = d.id as N;
          if (name.type !== 'Identifier') continue; // destructuring: no single name
          const init = d.init as N | null;
          const sig = this.signature(d.start, d.end, init ? init.start : -1);
          piece.items.push({
            kind,
            name: this.slice(name),
            line: this.lineOf(d.start),
            endLine: this.lineOf(d.end),
            signature: `${kind} ${sig}`,
            children: [],
          });
        }
        return;
      }
    }
  }

  private members(list: readonly N[], depth: number): Piece[] {
    const out: Piece[] = [];
    for (const member of list) {
      const piece: Piece = {
        start: member.start,
        end: member.end,
        closed: this.isClosed(member, member),
        items: [],
        body: null,
      };
      const kind = MEMBER_KINDS[member.type];
      const key = member.key as N | undefined;
      if (kind && key) {
        const name = member.computed ? `[${this.slice(key)}]` : this.slice(key);
        const value = member.value as N | null | undefined;
        const fnBody = kind === 'method' ? ((value?.body as N | null | undefined) ?? null) : null;
        piece.items.push(this.item(kind, name, member, fnBody));
      }
      if (piece.end - piece.start >= BIG_PIECE_CHARS) piece.body = this.functionBody(member);
      out.push(piece);
    }
    return out;
  }

  /**
   * For a big statement or member: the body of the function that makes most of it (a big function, a method, the
   * function of a bundle's `(function () { … })()`), so an edit inside it reparses some of its statements instead of
   * the whole statement. Its statements list nothing (depth FUNCTION_BODY_DEPTH).
   */
  private functionBody(node: N): PieceBody | null {
    const span = node.end - node.start;
    let current: N = node;
    for (let level = 0; level < 24; level++) {
      const body = current.body as N | null | undefined;
      if (FUNCTION_TYPES.has(current.type) && body?.type === 'BlockStatement') {
        const head = `${current.async ? 'async ' : ''}function${current.generator ? '*' : ''} _() {`;
        return {
          start: body.start + 1,
          end: body.end - 1,
          head,
          tail: '}',
          depth: FUNCTION_BODY_DEPTH,
          pieces: this.statements(body.body as N[], FUNCTION_BODY_DEPTH),
        };
      }
      // Down the largest child, as long as it holds most of the node.
      let largest: N | null = null;
      for (const [field, value] of Object.entries(current)) {
        if (field === 'parent' || value === null || typeof value !== 'object') continue;
        for (const child of Array.isArray(value) ? value : [value]) {
          const c = child as N | null;
          if (
            c &&
            typeof c.type === 'string' &&
            typeof c.start === 'number' &&
            (!largest || c.end - c.start > largest.end - largest.start)
          )
            largest = c;
        }
      }
      if (!largest || (largest.end - largest.start) * 2 < span) return null;
      current = largest;
    }
    return null;
  }

  /**
   * For a big interface (lib.dom's, csstype's run to hundreds of kilobytes): its members as pieces that list nothing,
   * so an edit inside it reparses a few members after the interface's header. A member is closed when it ends with
   * its `;` or `,`.
   */
  private interfaceBody(piece: Piece, decl: N): PieceBody {
    const braces = decl.body as N;
    const members = (braces.body as N[]).map((m): Piece => {
      const last = this.text[m.end - 1];
      return { start: m.start, end: m.end, closed: last === ';' || last === ',', items: [], body: null };
    });
    return this.body(piece, braces, '}', INTERFACE_BODY_DEPTH, members);
  }

  private item(kind: string, name: string, decl: N, body: N | null): OutlineItem {
    const start = this.ownStart(decl);
    return {
      kind,
      name,
      line: this.lineOf(start),
      endLine: this.lineOf(decl.end),
      signature: this.signature(start, decl.end, body ? body.start : -1),
      children: [],
    };
  }

  /** Where a declaration begins, its decorators not counted (as Python's `ast` counts a `def`'s line). */
  private ownStart(decl: N): number {
    const decorators = decl.decorators as N[] | undefined;
    if (!decorators?.length) return decl.start;
    let at = decorators[decorators.length - 1]!.end;
    while (at < decl.end && /\s/.test(this.text[at]!)) at++;
    return at;
  }

  private body(piece: Piece, braces: N, tail: string, depth: number, pieces: Piece[]): PieceBody {
    const open = braces.start + 1;
    const header = this.text.slice(piece.start, open);
    // The header is put on one line before a reparsed slice; a comment or template could swallow the rest there.
    const head = /\/\/|\/\*|`/.test(header) ? '' : header.replace(/\r\n?|\n|\u2028|\u2029/g, ' ');
    return { start: open, end: braces.end - 1, head, tail, depth, pieces };
  }

  private isClosed(statement: N, decl: N): boolean {
    const last = this.text[statement.end - 1];
    if (last === ';') return true;
    return (
      last === '}' && (CLOSED_BY_BRACE.has(statement.type) || (statement !== decl && CLOSED_BY_BRACE.has(decl.type)))
    );
  }

  private signature(start: number, end: number, bodyStart: number): string {
    return signatureFromSource(this.text, start, end, bodyStart);
  }

  /** A name as written; an identifier's span also covers its type annotation, so its `name` is used instead. */
  private slice(node: N): string {
    if (node.type === 'Identifier') return node.name as string;
    if (node.type === 'PrivateIdentifier') return `#${node.name as string}`;
    return this.text.slice(node.start, node.end);
  }
}
