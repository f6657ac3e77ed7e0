/**
 * The token cursor of the outline's Python parser (`python-expr.ts`, `python-parse.ts`): where the parse is in the
 * tokens of `python-tokens.ts`, the checks and steps every rule uses, and `Shape`, what a rule says about the
 * expression it read. An error throws `PySyntaxError` with the line of the token where the parse could not go on.
 */
import { PySyntaxError, Tok, type Tokens } from './python-syntax';

/** What an expression can be the target of. */
export const enum Shape {
  None = 0,
  /** A valid `star_target` (assignment, `for`, `with … as`). */
  Store = 1,
  /** A valid `single_target` (augmented assignment, annotation): a name, attribute or subscript, maybe in parens. */
  Single = 2,
  /** A bare, unparenthesized name. */
  Name = 4,
  /** A valid `del` target. */
  Del = 8,
  /** A starred expression (`*x`). */
  Starred = 16,
}
export const TARGET = Shape.Store | Shape.Single | Shape.Del;

export const KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

/** A tuple's or list's shape from the AND of its elements' shapes. */
export function sequenceShape(all: Shape): Shape {
  return (all & Shape.Store ? Shape.Store : 0) | (all & Shape.Del && !(all & Shape.Starred) ? Shape.Del : 0);
}

export class PyCursor {
  i = 0;
  readonly kind: Uint8Array;
  readonly value: string[];
  readonly line: Int32Array;

  constructor(readonly t: Tokens) {
    this.kind = t.kind;
    this.value = t.value;
    this.line = t.line;
  }

  fail(message = 'invalid syntax', at = this.i): never {
    throw new PySyntaxError(message, this.line[Math.min(at, this.line.length - 1)]!);
  }

  isOp(op: string, at = this.i): boolean {
    return this.kind[at] === Tok.Op && this.value[at] === op;
  }

  /** A name that is not a keyword (soft keywords are names). */
  isName(at = this.i): boolean {
    return this.kind[at] === Tok.Name && !KEYWORDS.has(this.value[at]!);
  }

  isKw(word: string, at = this.i): boolean {
    return this.kind[at] === Tok.Name && this.value[at] === word;
  }

  eat(op: string): boolean {
    if (!this.isOp(op)) return false;
    this.i++;
    return true;
  }

  eatKw(word: string): boolean {
    if (!this.isKw(word)) return false;
    this.i++;
    return true;
  }

  expect(op: string, message?: string): void {
    if (!this.eat(op)) this.fail(message ?? (op === ':' ? "expected ':'" : 'invalid syntax'));
  }

  expectKw(word: string): void {
    if (!this.eatKw(word)) this.fail();
  }

  name(): void {
    if (!this.isName()) this.fail();
    this.i++;
  }
}

/**
 * What the rules split out of the expression parser (`python-args.ts`, `python-displays.ts`) call back into it:
 * python-expr.ts `PyState` passes itself, so that none of those files imports it.
 */
export interface ExprParser extends PyCursor {
  expression(): Shape;
  namedExpression(): Shape;
  starNamedExpression(): Shape;
  starExpressions(): Shape;
  bitwiseOr(): Shape;
  forIfClauses(): void;
  yieldExpression(): void;
}
