/**
 * The compound statements of the outline's Python parser (`python-parse.ts`) other than definitions: `if`, `while`,
 * `for`, `with`, `try` and `match`, each with its blocks read back through the statement parser, which passes itself.
 */
import { Shape } from './python-cursor';
import type { PyState } from './python-expr';
import { patterns } from './python-patterns';
import { PySyntaxError, Tok } from './python-syntax';

/** What these rules use of the statement parser (python-parse.ts), so that neither file imports the other. */
export interface StatementRules {
  readonly p: PyState;
  /** A block after a header's colon, not listed in the outline (these statements list nothing). */
  block(what: string, headerLine: number, depth: -1, out: null): void;
  simpleStatements(): void;
}

/** A compound statement other than a definition; false when `word` starts none (the caller reads a simple one). */
export function compound(s: StatementRules, word: string): boolean {
  const p = s.p;
  const line = p.line[p.i]!;
  switch (word) {
    case 'if': {
      p.i++;
      p.namedExpression();
      p.expect(':');
      s.block("'if' statement", line, -1, null);
      while (p.isKw('elif')) {
        const at = p.line[p.i]!;
        p.i++;
        p.namedExpression();
        p.expect(':');
        s.block("'elif' statement", at, -1, null);
      }
      elseBlock(s);
      return true;
    }
    case 'while':
      p.i++;
      p.namedExpression();
      p.expect(':');
      s.block("'while' statement", line, -1, null);
      elseBlock(s);
      return true;
    case 'for':
      forStatement(s);
      return true;
    case 'with':
      withStatement(s);
      return true;
    case 'try':
      tryStatement(s);
      return true;
    case 'async':
      if (p.isKw('for', p.i + 1)) {
        p.i++;
        forStatement(s);
        return true;
      }
      if (p.isKw('with', p.i + 1)) {
        p.i++;
        withStatement(s);
        return true;
      }
      p.fail();
      break;
    case 'match':
      return tryMatch(s);
  }
  return false;
}

function elseBlock(s: StatementRules): void {
  const p = s.p;
  if (!p.isKw('else')) return;
  const line = p.line[p.i]!;
  p.i++;
  p.expect(':');
  s.block("'else' statement", line, -1, null);
}

function forStatement(s: StatementRules): void {
  const p = s.p;
  const line = p.line[p.i]!;
  p.i++;
  const target = p.starTargets();
  if (!(target & Shape.Store)) p.fail('cannot assign to expression');
  p.expectKw('in');
  p.starExpressions();
  p.expect(':');
  s.block("'for' statement", line, -1, null);
  elseBlock(s);
}

function withStatement(s: StatementRules): void {
  const p = s.p;
  const line = p.line[p.i]!;
  p.i++;
  // `with (a as b, c):` (3.9+) or items without parentheses; a parenthesized expression is an item too.
  const save = p.i;
  if (p.isOp('(')) {
    try {
      p.i++;
      withItems(s, ')');
      p.expect(')');
      if (!p.isOp(':')) throw new PySyntaxError('invalid syntax', p.line[p.i]!);
    } catch (error) {
      if (!(error instanceof PySyntaxError)) throw error;
      p.i = save;
      withItems(s, ':');
    }
  } else withItems(s, ':');
  p.expect(':');
  s.block("'with' statement", line, -1, null);
}

function withItems(s: StatementRules, close: string): void {
  const p = s.p;
  for (;;) {
    p.expression();
    if (p.eatKw('as')) {
      const target = p.starTargetOne();
      if (!(target & Shape.Store)) p.fail('cannot assign to expression');
    }
    if (!p.eat(',')) return;
    if (p.isOp(close)) return;
  }
}

function tryStatement(s: StatementRules): void {
  const p = s.p;
  const line = p.line[p.i]!;
  p.i++;
  p.expect(':');
  s.block("'try' statement", line, -1, null);
  let handlers = 0;
  let star = -1;
  while (p.isKw('except')) {
    const at = p.line[p.i]!;
    p.i++;
    const isStar = p.eat('*');
    if (star !== -1 && star !== (isStar ? 1 : 0))
      p.fail("cannot have both 'except' and 'except*' on the same 'try'", p.i - 1);
    star = isStar ? 1 : 0;
    if (!p.isOp(':')) {
      p.expression();
      if (p.eatKw('as')) p.name();
      else if (p.isOp(',')) {
        // 3.14 (PEP 758): several exception types without parentheses, when nothing is bound.
        while (p.eat(',')) p.expression();
        if (p.isKw('as')) p.fail('multiple exception types must be parenthesized');
      }
    } else if (isStar) p.fail('expected one or more exception types');
    p.expect(':');
    s.block(`'except' statement`, at, -1, null);
    handlers++;
  }
  if (handlers > 0) elseBlock(s);
  if (p.isKw('finally')) {
    const at = p.line[p.i]!;
    p.i++;
    p.expect(':');
    s.block("'finally' statement", at, -1, null);
  } else if (handlers === 0) p.fail("expected 'except' or 'finally' block");
}

/** `match` is a soft keyword: a match statement when it parses as one, else the line is a simple statement. */
function tryMatch(s: StatementRules): boolean {
  const p = s.p;
  const save = p.i;
  if (!p.startsExpression(p.i + 1)) return false;
  try {
    const line = p.line[p.i]!;
    p.i++;
    const first = p.starNamedExpression();
    if (p.eat(',')) {
      while (!p.isOp(':')) {
        p.starNamedExpression();
        if (!p.eat(',')) break;
      }
    } else if (first & Shape.Starred) p.fail();
    p.expect(':');
    if (p.kind[p.i] !== Tok.Newline) p.fail();
    p.i++;
    if (p.kind[p.i] !== Tok.Indent) p.fail(`expected an indented block after 'match' statement on line ${line}`);
    p.i++;
    do {
      const at = p.line[p.i]!;
      p.expectKw('case');
      patterns(p);
      if (p.eatKw('if')) p.namedExpression();
      p.expect(':');
      s.block("'case' statement", at, -1, null);
    } while (p.kind[p.i] !== Tok.Dedent);
    p.i++;
    return true;
  } catch (error) {
    if (!(error instanceof PySyntaxError)) throw error;
    const matchFailedAt = p.i;
    p.i = save;
    try {
      s.simpleStatements();
    } catch (other) {
      // Both readings fail: Python reports the one that got further.
      if (other instanceof PySyntaxError && p.i < matchFailedAt) throw error;
      throw other;
    }
    return true;
  }
}
