/**
 * The expressions of the outline's Python parser (`python-parse.ts`): Python's grammar (`Grammar/python.gram`, up to
 * 3.14) as a recursive descent over the tokens of `python-tokens.ts`. It builds no tree: each rule checks its tokens
 * and returns what the statement rules need to know about the expression, as `Shape` bits (can it be assigned to,
 * deleted, annotated). An expression Python rejects throws `PySyntaxError` with the line of the token where the
 * parse could not go on.
 */
import { callArguments, parameters, slices } from './python-args';
import { KEYWORDS, PyCursor, Shape, sequenceShape, TARGET } from './python-cursor';
import { braces, list, parenthesized, strings } from './python-displays';
import { Tok } from './python-syntax';

const COMPARE = new Set(['==', '!=', '<', '<=', '>', '>=', 'in', 'is', 'not']);
/** Binary operators by precedence (higher binds tighter). */
const BINARY: Readonly<Record<string, number>> = {
  '|': 1,
  '^': 2,
  '&': 3,
  '<<': 4,
  '>>': 4,
  '+': 5,
  '-': 5,
  '*': 6,
  '/': 6,
  '//': 6,
  '%': 6,
  '@': 6,
};
export const AUGMENTED = new Set(['+=', '-=', '*=', '/=', '//=', '%=', '@=', '&=', '|=', '^=', '>>=', '<<=', '**=']);

export class PyState extends PyCursor {
  /** `expression`: a conditional expression or a lambda. */
  expression(): Shape {
    const quick = this.quickOperand();
    if (quick >= 0) return quick;
    if (this.isKw('lambda')) {
      this.lambda();
      return Shape.None;
    }
    const shape = this.disjunction();
    if (this.isKw('if')) {
      this.i++;
      this.disjunction();
      if (!this.eatKw('else')) this.fail("expected 'else' after 'if' expression");
      this.expression();
      return Shape.None;
    }
    return shape;
  }

  /**
   * The common case without the descent through a dozen precedence rules: a name, dotted name, number or string
   * followed by a token that ends an expression (`,` `)` `]` `}` `:` `=` `;` or the line's end). -1 when it is not
   * that case. The same answer as the full rules, many times faster (most of all before V8 has compiled them).
   */
  private quickOperand(): number {
    let j = this.i;
    const k = this.kind[j];
    let shape: Shape;
    if (k === Tok.Name) {
      const v = this.value[j]!;
      if (KEYWORDS.has(v)) {
        if (v !== 'None' && v !== 'True' && v !== 'False') return -1;
        shape = Shape.None;
      } else shape = TARGET | Shape.Name;
      j++;
      if (shape !== Shape.None)
        while (this.kind[j] === Tok.Op && this.value[j] === '.' && this.kind[j + 1] === Tok.Name) {
          if (KEYWORDS.has(this.value[j + 1]!)) return -1;
          j += 2;
          shape = TARGET;
        }
    } else if (k === Tok.Number || k === Tok.String) {
      shape = Shape.None;
      j++;
    } else return -1;
    const next = this.kind[j];
    if (next !== Tok.Newline) {
      if (next !== Tok.Op) return -1;
      const v = this.value[j];
      if (v !== ',' && v !== ')' && v !== ']' && v !== '}' && v !== ':' && v !== '=' && v !== ';') return -1;
    }
    this.i = j;
    return shape;
  }

  /** `named_expression`: `NAME := expression` or an expression. */
  namedExpression(): Shape {
    if (this.isName() && this.isOp(':=', this.i + 1)) {
      this.i += 2;
      this.expression();
      return Shape.None;
    }
    const shape = this.expression();
    if (this.isOp(':='))
      this.fail(`cannot use assignment expressions with ${shape & Shape.Store ? 'this expression' : 'expression'}`);
    return shape;
  }

  /** `star_expression` (`*` bitwise_or, or an expression). */
  starExpression(): Shape {
    if (this.eat('*')) return this.starred(this.bitwiseOr());
    return this.expression();
  }

  /** `star_named_expression`, an element of a list, set or tuple display. */
  starNamedExpression(): Shape {
    if (this.eat('*')) return this.starred(this.bitwiseOr());
    return this.namedExpression();
  }

  private starred(inner: Shape): Shape {
    return Shape.Starred | (inner & Shape.Store && !(inner & Shape.Starred) ? Shape.Store : 0);
  }

  /** `star_expressions`: one, or a tuple without parentheses. */
  starExpressions(): Shape {
    const first = this.starExpression();
    if (!this.isOp(',')) return first;
    let all = first;
    while (this.eat(',')) {
      if (!this.startsExpression()) break;
      all &= this.starExpression();
    }
    return sequenceShape(all);
  }

  /** Whether the token can start an expression (for optional ones: a trailing comma, `return`, `yield`). */
  startsExpression(at = this.i): boolean {
    const k = this.kind[at];
    if (k === Tok.Name) {
      const v = this.value[at]!;
      return (
        !KEYWORDS.has(v) ||
        v === 'not' ||
        v === 'lambda' ||
        v === 'await' ||
        v === 'None' ||
        v === 'True' ||
        v === 'False' ||
        v === 'yield'
      );
    }
    if (k === Tok.Number || k === Tok.String || k === Tok.FStart) return true;
    if (k !== Tok.Op) return false;
    const v = this.value[at]!;
    return v === '(' || v === '[' || v === '{' || v === '-' || v === '+' || v === '~' || v === '*' || v === '...';
  }

  private disjunction(): Shape {
    let shape = this.conjunction();
    while (this.eatKw('or')) {
      this.conjunction();
      shape = Shape.None;
    }
    return shape;
  }

  private conjunction(): Shape {
    let shape = this.inversion();
    while (this.eatKw('and')) {
      this.inversion();
      shape = Shape.None;
    }
    return shape;
  }

  private inversion(): Shape {
    if (this.eatKw('not')) {
      this.inversion();
      return Shape.None;
    }
    return this.comparison();
  }

  private comparison(): Shape {
    let shape = this.bitwiseOr();
    for (;;) {
      const v = this.value[this.i]!;
      const k = this.kind[this.i];
      if (!((k === Tok.Op || k === Tok.Name) && COMPARE.has(v))) return shape;
      if (v === 'not') {
        if (!this.isKw('in', this.i + 1)) return shape;
        this.i += 2;
      } else if (v === 'is') {
        this.i++;
        this.eatKw('not');
      } else this.i++;
      this.bitwiseOr();
      shape = Shape.None;
    }
  }

  bitwiseOr(): Shape {
    return this.binary(1);
  }

  /** Binary operators from precedence `min` up (precedence climbing, all left-associative). */
  private binary(min: number): Shape {
    let shape = this.factor();
    for (;;) {
      if (this.kind[this.i] !== Tok.Op) return shape;
      const prec = BINARY[this.value[this.i]!];
      if (prec === undefined || prec < min) return shape;
      this.i++;
      this.binaryAbove(prec);
      shape = Shape.None;
    }
  }

  private binaryAbove(prec: number): void {
    this.factor();
    for (;;) {
      if (this.kind[this.i] !== Tok.Op) return;
      const next = BINARY[this.value[this.i]!];
      if (next === undefined || next <= prec) return;
      this.i++;
      this.binaryAbove(next);
    }
  }

  private factor(): Shape {
    if (this.kind[this.i] === Tok.Op) {
      const v = this.value[this.i];
      if (v === '-' || v === '+' || v === '~') {
        this.i++;
        this.factor();
        return Shape.None;
      }
    }
    const shape = this.awaitPrimary();
    if (this.eat('**')) {
      this.factor();
      return Shape.None;
    }
    return shape;
  }

  private awaitPrimary(): Shape {
    if (this.eatKw('await')) {
      this.primary();
      return Shape.None;
    }
    return this.primary();
  }

  /** An atom and its trailers: `.name`, calls, subscripts. */
  primary(): Shape {
    let shape = this.atom();
    for (;;) {
      if (this.kind[this.i] !== Tok.Op) return shape;
      const v = this.value[this.i];
      if (v === '.') {
        this.i++;
        this.name();
        shape = Shape.Store | Shape.Single | Shape.Del;
      } else if (v === '(') {
        this.i++;
        callArguments(this);
        shape = Shape.None;
      } else if (v === '[') {
        this.i++;
        slices(this);
        this.expect(']');
        shape = Shape.Store | Shape.Single | Shape.Del;
      } else return shape;
    }
  }

  private atom(): Shape {
    const k = this.kind[this.i];
    if (k === Tok.Name) {
      const v = this.value[this.i]!;
      if (!KEYWORDS.has(v)) {
        this.i++;
        return TARGET | Shape.Name;
      }
      if (v === 'None' || v === 'True' || v === 'False') {
        this.i++;
        return Shape.None;
      }
      this.fail();
    }
    if (k === Tok.Number) {
      this.i++;
      return Shape.None;
    }
    if (k === Tok.String || k === Tok.FStart) {
      strings(this);
      return Shape.None;
    }
    if (k === Tok.Op) {
      const v = this.value[this.i];
      if (v === '(') return parenthesized(this);
      if (v === '[') return list(this);
      if (v === '{') {
        braces(this);
        return Shape.None;
      }
      if (v === '...') {
        this.i++;
        return Shape.None;
      }
    }
    this.fail();
  }

  /** `for_if_clauses`: (`async`? `for` targets `in` disjunction (`if` disjunction)*)+. */
  forIfClauses(): void {
    while (this.isKw('for') || (this.isKw('async') && this.isKw('for', this.i + 1))) {
      if (this.eatKw('async')) this.i++;
      else this.i++;
      const target = this.starTargets();
      if (!(target & Shape.Store)) this.fail('cannot assign to expression');
      this.expectKw('in');
      this.disjunction();
      while (this.eatKw('if')) this.disjunction();
    }
  }

  /** Targets of `for` and of comprehensions: star expressions up to `in` (checked by the caller). */
  starTargets(): Shape {
    const first = this.starTargetOne();
    if (!this.isOp(',')) return first & Shape.Starred ? first & ~Shape.Store : first;
    let all = first;
    while (this.eat(',')) {
      if (this.isKw('in') || this.isOp('=') || this.isOp(':')) break;
      all &= this.starTargetOne();
    }
    return sequenceShape(all);
  }

  starTargetOne(): Shape {
    if (this.eat('*')) return this.starred(this.bitwiseOr());
    return this.bitwiseOr();
  }

  private lambda(): void {
    this.i++;
    parameters(this, ':', false);
    this.expect(':');
    this.expression();
  }

  /** `yield from expression` or `yield [star_expressions]`. */
  yieldExpression(): void {
    this.i++;
    if (this.eatKw('from')) this.expression();
    else if (this.startsExpression()) this.starExpressions();
  }
}
