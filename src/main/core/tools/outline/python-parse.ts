/**
 * The outline of a Python file from our own parser of Python's grammar (docs/outline.md "Python"): the tokenizer
 * (`python-tokens.ts`), the expressions (`python-expr.ts`), the patterns (`python-patterns.ts`), the compound
 * statements (`python-compound.ts`) and, here, the other statements. It accepts what Python 3.8 to 3.14 accept and rejects what every one of them rejects, with the line
 * Python gives (the first error only, as `ast.parse` does), and lists what `ast` lists: the `def`, `async def` and
 * `class` statements of the module and of class bodies (MAX_DEPTH), with their pieces for the incremental path.
 * It is exact where tree-sitter's Python grammar is permissive (it reads Python 2's `print "x"`, a bad dedent or
 * mixed tabs as a file) and many times faster than both tree-sitter's wasm parse and `ast.parse`, so a Python file
 * is parsed on the calling thread; a file it rejects gets tree-sitter's error-tolerant outline, marked partial.
 */
import { lineIndex, MAX_DEPTH, signatureFromSource, type OutlineItem } from './extract';
import { callArguments, parameters } from './python-args';
import { Shape } from './python-cursor';
import { compound, type StatementRules } from './python-compound';
import { AUGMENTED, PyState } from './python-expr';
import { PySyntaxError, Tok } from './python-syntax';
import { tokenizeUpTo } from './python-tokens';
import type { ParsedText, Piece } from './pieces';

const CLASS_HEAD = 'class _:';

/** Parses `text`, whose top-level statements sit at `depth` (0 for a whole file; a class body's slice: its depth). */
export function parsePython(text: string, depth = 0): ParsedText {
  const { tokens, error } = tokenizeUpTo(text);
  const parser = new StatementParser(new PyState(tokens), text);
  try {
    const pieces = parser.file(depth);
    if (error) throw error;
    return { items: pieces.flatMap((p) => p.items), pieces, problems: [] };
  } catch (thrown) {
    if (!(thrown instanceof PySyntaxError)) throw thrown;
    // The tokenizer stopped at an error. Python's parser pulls tokens one at a time, so a grammar error before it
    // is the one reported, with two exceptions: running out of tokens is no grammar error, and a plain "invalid
    // syntax" gives way to an error the tokenizer finds in the rest of the file (CPython tokenizes the whole source
    // then), an unclosed bracket only when it opened on an earlier line than the grammar error's.
    const overrides =
      error !== null &&
      (parser.ranOut() || (thrown.message === 'invalid syntax' && (!error.unclosed || thrown.line > error.line)));
    const found = overrides ? error : thrown;
    return { items: [], pieces: null, problems: [{ line: found.line, message: `${found.kind}: ${found.message}` }] };
  }
}

class StatementParser implements StatementRules {
  private readonly lineOf: (offset: number) => number;

  constructor(
    readonly p: PyState,
    private readonly src: string,
  ) {
    this.lineOf = lineIndex(src);
  }

  /** True when the parse stopped because the tokens ended early (the tokenizer's own error comes first). */
  ranOut(): boolean {
    return this.p.i >= this.p.kind.length - 1;
  }

  file(depth: number): Piece[] {
    const p = this.p;
    const out: Piece[] = [];
    while (p.kind[p.i] !== Tok.End) {
      if (p.kind[p.i] === undefined) p.fail('unexpected EOF while parsing');
      this.statement(depth, out);
    }
    return out;
  }

  /** The end offset of the last token before the current one that is not a NEWLINE, INDENT or DEDENT. */
  private lastEnd(): number {
    const p = this.p;
    let j = p.i - 1;
    while (j > 0 && (p.kind[j] === Tok.Newline || p.kind[j] === Tok.Dedent || p.kind[j] === Tok.Indent)) j--;
    return p.t.end[j]!;
  }

  /** One statement; when `out` is given (a listed body), its piece (and outline item) goes there. */
  private statement(depth: number, out: Piece[] | null): void {
    const p = this.p;
    const start = p.t.start[p.i]!;
    const k = p.kind[p.i];
    if (k === Tok.Indent) p.fail('unexpected indent');
    if (k === Tok.Dedent) p.fail('unindent does not match any outer indentation level');
    if (k === Tok.Name || p.isOp('@')) {
      const v = p.value[p.i]!;
      if (v === 'def' || v === 'class' || v === '@' || (v === 'async' && p.isKw('def', p.i + 1))) {
        const piece = this.definition(depth, out !== null);
        if (out) out.push({ ...piece, start });
        return;
      }
      if (compound(this, v)) {
        if (out) out.push({ start, end: this.lastEnd(), closed: true, items: [], body: null });
        return;
      }
    }
    this.simpleStatements();
    if (out) out.push({ start, end: this.lastEnd(), closed: true, items: [], body: null });
  }

  /** Decorators, then `def`, `async def` or `class`. */
  private definition(depth: number, listed: boolean): Piece {
    const p = this.p;
    while (p.eat('@')) {
      p.namedExpression();
      if (p.kind[p.i] !== Tok.Newline) p.fail();
      p.i++;
    }
    const defAt = p.i;
    const isClass = p.isKw('class');
    if (p.isKw('async')) p.i++;
    if (!p.eatKw('def') && !p.eatKw('class')) p.fail();
    const nameAt = p.i;
    p.name();
    if (p.isOp('[')) this.typeParameters();
    if (isClass) {
      if (p.eat('(')) callArguments(p);
    } else {
      if (!p.eat('(')) p.fail("expected '('");
      parameters(p, ')', true);
      p.expect(')');
      if (p.eat('->')) p.expression();
    }
    p.expect(':');
    const colonEnd = p.t.end[p.i - 1]!;
    const headerLine = p.line[defAt]!;
    const members = isClass && listed && depth < MAX_DEPTH ? ([] as Piece[]) : null;
    this.block(isClass ? 'class definition' : 'function definition', headerLine, depth + 1, members);
    const end = this.lastEnd();
    const piece: Piece = { start: 0, end, closed: true, items: [], body: null };
    if (!listed) return piece;
    const start = p.t.start[defAt]!;
    const item: OutlineItem = {
      kind: isClass ? 'class' : 'function',
      name: p.value[nameAt]!,
      line: headerLine,
      endLine: this.lineOf(end),
      signature: signatureFromSource(this.src, start, end, colonEnd),
      children: members ? members.flatMap((m) => m.items) : [],
    };
    piece.items.push(item);
    if (members) piece.body = { start: colonEnd, end, head: CLASS_HEAD, tail: '', depth: depth + 1, pieces: members };
    return piece;
  }

  /** `[T, *Ts, **P]` (3.12), with bounds and defaults (3.13). */
  private typeParameters(): void {
    const p = this.p;
    p.i++;
    while (!p.isOp(']')) {
      if (!p.eat('**')) p.eat('*');
      p.name();
      if (p.eat(':')) p.expression();
      if (p.eat('=')) {
        if (!p.eat('*')) p.expression();
        else p.bitwiseOr();
      }
      if (!p.eat(',')) break;
    }
    p.expect(']');
  }

  /**
   * A block after a header's colon: an indented suite or simple statements on the same line. Its statements are
   * listed (`out`) only in a listed class body.
   */
  block(what: string, headerLine: number, depth: number, out: Piece[] | null): void {
    const p = this.p;
    if (p.kind[p.i] !== Tok.Newline) {
      const start = p.t.start[p.i]!;
      this.simpleStatements();
      if (out) out.push({ start, end: this.lastEnd(), closed: true, items: [], body: null });
      return;
    }
    p.i++;
    if (p.kind[p.i] !== Tok.Indent) p.fail(`expected an indented block after ${what} on line ${headerLine}`);
    p.i++;
    while (p.kind[p.i] !== Tok.Dedent) {
      if (p.kind[p.i] === undefined || p.kind[p.i] === Tok.End) p.fail('unexpected EOF while parsing');
      this.statement(depth, out);
    }
    p.i++;
  }

  /** `simple_stmt (';' simple_stmt)* [';'] NEWLINE`. */
  simpleStatements(): void {
    const p = this.p;
    for (;;) {
      this.simpleStatement();
      if (p.kind[p.i] === Tok.Newline) break;
      if (!p.eat(';')) p.fail();
      if (p.kind[p.i] === Tok.Newline) break;
    }
    p.i++;
  }

  private simpleStatement(): void {
    const p = this.p;
    if (p.kind[p.i] === Tok.Name) {
      switch (p.value[p.i]) {
        case 'pass':
        case 'break':
        case 'continue':
          p.i++;
          return;
        case 'return':
          p.i++;
          if (p.startsExpression()) p.starExpressions();
          return;
        case 'raise':
          p.i++;
          if (p.startsExpression()) {
            p.expression();
            if (p.eatKw('from')) p.expression();
          }
          return;
        case 'global':
        case 'nonlocal':
          p.i++;
          do p.name();
          while (p.eat(','));
          return;
        case 'del': {
          p.i++;
          const at = p.i;
          const shape = p.starExpressions();
          if (!(shape & Shape.Del)) p.fail('cannot delete expression', at);
          return;
        }
        case 'assert':
          p.i++;
          p.expression();
          if (p.eat(',')) p.expression();
          return;
        case 'import':
          p.i++;
          do {
            this.dottedName();
            if (p.eatKw('as')) p.name();
          } while (p.eat(','));
          return;
        case 'from':
          return this.fromImport();
        case 'type':
          if (p.isName(p.i + 1) && (p.isOp('=', p.i + 2) || p.isOp('[', p.i + 2))) {
            p.i += 2;
            if (p.isOp('[')) this.typeParameters();
            p.expect('=');
            p.expression();
            return;
          }
      }
    }
    this.expressionStatement();
  }

  private dottedName(): void {
    const p = this.p;
    p.name();
    while (p.eat('.')) p.name();
  }

  private fromImport(): void {
    const p = this.p;
    p.i++;
    let dots = 0;
    while (p.isOp('.') || p.isOp('...')) dots += p.value[p.i++]!.length;
    if (!p.isKw('import')) this.dottedName();
    else if (dots === 0) p.fail();
    p.expectKw('import');
    if (p.eat('*')) return;
    const parens = p.eat('(');
    for (;;) {
      p.name();
      if (p.eatKw('as')) p.name();
      if (!p.eat(',')) break;
      if (parens && p.isOp(')')) break;
      if (!parens && !p.isName()) p.fail('trailing comma not allowed without surrounding parentheses', p.i - 1);
    }
    if (parens) p.expect(')');
  }

  /** An expression, an assignment (chained), an augmented assignment or an annotated one. */
  private expressionStatement(): void {
    const p = this.p;
    const at = p.i;
    if (p.isKw('yield')) {
      p.yieldExpression();
      if (!p.isOp('=')) return;
    }
    const shape = at === p.i ? p.starExpressions() : Shape.Store;
    const k = p.kind[p.i];
    if (k !== Tok.Op) return;
    const v = p.value[p.i]!;
    if (v === '=') {
      let target = shape;
      while (p.eat('=')) {
        if (!(target & Shape.Store)) p.fail('cannot assign to expression here', at);
        if (p.isKw('yield')) {
          p.yieldExpression();
          target = Shape.None;
        } else target = p.starExpressions();
      }
      return;
    }
    if (AUGMENTED.has(v)) {
      if (!(shape & Shape.Single)) p.fail('illegal expression for augmented assignment', at);
      p.i++;
      if (p.isKw('yield')) p.yieldExpression();
      else p.starExpressions();
      return;
    }
    if (v === ':') {
      if (!(shape & Shape.Single)) p.fail('only single target (not tuple) can be annotated', at);
      p.i++;
      p.expression();
      if (p.eat('=')) {
        if (p.isKw('yield')) p.yieldExpression();
        else p.starExpressions();
      }
    }
  }
}
