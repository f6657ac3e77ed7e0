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
import {
  BIG_PIECE_CHARS,
  CLOSED_BY_BRACE,
  DEFAULT_TAIL,
  FUNCTION_BODY_DEPTH,
  FUNCTION_TYPES,
  INTERFACE_BODY_DEPTH,
  MEMBER_KINDS,
  type N,
  SWITCH_BODY_DEPTH,
  WRAPPED_FUNCTION_DEPTH,
  WRAPPED_INTERFACE_DEPTH,
  WRAPPED_SWITCH_DEPTH,
} from './script-syntax';

export type ScriptLang = 'ts' | 'tsx' | 'js' | 'jsx' | 'dts';

const MAX_PROBLEMS = 5;

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

  /** `fnHead`: inside a function's body, the one-line head that wraps a slice of it (see `functionBody`). */
  statements(list: readonly N[], depth: number, fnHead: string | null = null): Piece[] {
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
      if (depth === WRAPPED_SWITCH_DEPTH) piece.body = this.wrappedClauses(statement);
      else if (
        !piece.body &&
        (depth === WRAPPED_INTERFACE_DEPTH ||
          depth === WRAPPED_FUNCTION_DEPTH ||
          piece.end - piece.start >= BIG_PIECE_CHARS)
      ) {
        piece.body =
          decl.type === 'TSInterfaceDeclaration' && depth !== WRAPPED_FUNCTION_DEPTH
            ? this.interfaceBody(piece, decl)
            : this.functionBody(statement, fnHead);
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
   *
   * Inside a function (`fnHead` given), a block that makes most of a big statement (a long loop's or `if`'s or
   * `try`'s body, a `case`'s braces) is such a body too, with the function's head: a slice of a block parses as the
   * same statements in the function's body. What could differ there, `break` or `continue` outside their loop and
   * labels not in scope, is an error in the slice, and a slice with a problem is never taken (`incremental.ts`).
   */
  private functionBody(node: N, fnHead: string | null = null): PieceBody | null {
    const span = node.end - node.start;
    let current: N = node;
    for (let level = 0; level < 24; level++) {
      const body = current.body as N | null | undefined;
      const isFunction = FUNCTION_TYPES.has(current.type) && body?.type === 'BlockStatement';
      const block = isFunction ? body : fnHead !== null && current.type === 'BlockStatement' ? current : null;
      if (fnHead !== null && current.type === 'SwitchStatement') return this.switchBody(current, fnHead);
      if (block) {
        const head = isFunction
          ? `${current.async ? 'async ' : ''}function${current.generator ? '*' : ''} _() {`
          : (fnHead as string);
        return {
          start: block.start + 1,
          end: block.end - 1,
          head,
          tail: '}',
          depth: FUNCTION_BODY_DEPTH,
          pieces: this.statements(block.body as N[], FUNCTION_BODY_DEPTH, head),
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
   * A big `switch` inside a function: its clauses as pieces that list nothing, so an edit in one reparses that clause
   * (inside `switch (0) {` after the function's head); a big clause has its own statements as a body.
   */
  private switchBody(node: N, fnHead: string): PieceBody | null {
    const discriminant = node.discriminant as N;
    const open = this.text.indexOf('{', discriminant.end);
    // Only `)` and blanks between the discriminant and the brace: a comment there could hide a brace of its own.
    if (open < 0 || !/^\s*\)\s*$/.test(this.text.slice(discriminant.end, open))) return null;
    const clauses = node.cases as N[];
    const hasDefault = clauses.some((c) => c.test === null);
    return {
      start: open + 1,
      end: node.end - 1,
      head: `${fnHead} switch (0) {`,
      tail: hasDefault ? DEFAULT_TAIL : '}}',
      depth: SWITCH_BODY_DEPTH,
      pieces: this.clauses(clauses, fnHead),
    };
  }

  /**
   * The clauses of a `switch` as pieces. Nothing continues a clause past the next `case`, `default` or `}`, so each is
   * closed. A big one's statements are a body, parsed as the function's (as a block's are, see `functionBody`).
   */
  private clauses(list: readonly N[], fnHead: string): Piece[] {
    return list.map((clause): Piece => {
      const piece: Piece = { start: clause.start, end: clause.end, closed: true, items: [], body: null };
      const statements = clause.consequent as N[];
      if (clause.end - clause.start >= BIG_PIECE_CHARS && statements.length > 0) {
        const only = statements.length === 1 && statements[0]!.type === 'BlockStatement' ? statements[0]! : null;
        const inner = only ? (only.body as N[]) : statements;
        piece.body = {
          start: only ? only.start + 1 : statements[0]!.start,
          end: only ? only.end - 1 : statements[statements.length - 1]!.end,
          head: fnHead,
          tail: '}',
          depth: FUNCTION_BODY_DEPTH,
          pieces: this.statements(inner, FUNCTION_BODY_DEPTH, fnHead),
        };
      }
      return piece;
    });
  }

  /**
   * A reparsed slice of clauses comes back as `<function head> switch (0) { <slice> }}`: the wrapper function's one
   * statement is the `switch`, whose clauses are the slice's (the `default` the tail may add left out).
   */
  private wrappedClauses(wrapper: N): PieceBody | null {
    const body = wrapper.body as N | null | undefined;
    // Exactly one statement: a slice such as `} f(); switch (1) {` closes the `switch` early and opens another.
    const statements = (body?.body as N[] | undefined) ?? [];
    const only = statements.length === 1 ? statements[0] : undefined;
    if (!FUNCTION_TYPES.has(wrapper.type) || !only || only.type !== 'SwitchStatement') return null;
    const head = `${wrapper.async ? 'async ' : ''}function${wrapper.generator ? '*' : ''} _() {`;
    let clauses = only.cases as N[];
    const last = clauses[clauses.length - 1];
    if (
      last &&
      last.test === null &&
      this.text.endsWith(DEFAULT_TAIL) &&
      last.start >= this.text.length - DEFAULT_TAIL.length
    )
      clauses = clauses.slice(0, -1);
    return {
      start: only.start,
      end: only.end,
      head: '',
      tail: '',
      depth: SWITCH_BODY_DEPTH,
      pieces: this.clauses(clauses, head),
    };
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
