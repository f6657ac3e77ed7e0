/**
 * Call arguments, subscripts and parameters for the outline's Python parser (`python-expr.ts`), with Python's order
 * rules: no positional argument after a keyword one or after `**`, no `*` after `**`, a generator expression alone
 * unless parenthesized; `/` after at least one parameter and before `*`, defaults once begun for every later
 * positional one, a bare `*` followed by a named one, `**` last.
 */
import type { ExprParser } from './python-cursor';

/** A call's arguments after `(`, with Python's order rules, through `)`. */
export function callArguments(p: ExprParser): void {
  let keyword = false;
  let doubleStar = false;
  let count = 0;
  while (!p.isOp(')')) {
    count++;
    if (p.eat('*')) {
      if (doubleStar) p.fail('iterable argument unpacking follows keyword argument unpacking', p.i - 1);
      p.expression();
    } else if (p.eat('**')) {
      p.expression();
      doubleStar = true;
    } else if (p.isName() && p.isOp('=', p.i + 1)) {
      p.i += 2;
      p.expression();
      keyword = true;
    } else {
      const at = p.i;
      if (p.isKw('True') || p.isKw('False') || p.isKw('None')) {
        if (p.isOp('=', p.i + 1)) p.fail(`cannot assign to ${p.value[p.i]}`);
      }
      p.namedExpression();
      if (p.isOp('=')) p.fail('expression cannot contain assignment, perhaps you meant "=="?', at);
      if (p.isKw('for') || p.isKw('async')) {
        p.forIfClauses();
        if (count > 1 || !p.isOp(')')) p.fail('Generator expression must be parenthesized', at);
        continue;
      }
      if (doubleStar) p.fail('positional argument follows keyword argument unpacking', at);
      if (keyword) p.fail('positional argument follows keyword argument', at);
    }
    if (!p.eat(',')) break;
  }
  p.expect(')');
}

/** Inside `[`: one slice or expression, or a tuple of them (starred elements allowed). */
export function slices(p: ExprParser): void {
  slice(p);
  while (p.eat(',')) {
    if (p.isOp(']')) break;
    slice(p);
  }
}

function slice(p: ExprParser): void {
  if (p.eat('*')) {
    p.bitwiseOr();
    return;
  }
  if (!p.isOp(':')) {
    p.namedExpression();
    if (!p.isOp(':')) return;
  }
  p.i++; // ':'
  if (!p.isOp(':') && !p.isOp(']') && !p.isOp(',')) p.expression();
  if (p.eat(':') && !p.isOp(']') && !p.isOp(',')) p.expression();
}

/**
 * Parameters up to `close` (`)` of a def, `:` of a lambda), with Python's rules: `/` after at least one, before
 * `*`; a default once given for every later positional one; a bare `*` followed by a named one; `**` last.
 */
export function parameters(p: ExprParser, close: string, annotations: boolean): void {
  let sawDefault = false;
  let sawSlash = false;
  let sawStar = false;
  let bareStar = -1;
  let positional = 0;
  while (!p.isOp(close)) {
    if (p.eat('/')) {
      if (sawSlash) p.fail('/ may appear only once', p.i - 1);
      if (sawStar) p.fail('/ must be ahead of *', p.i - 1);
      if (positional === 0) p.fail('at least one argument must precede /', p.i - 1);
      sawSlash = true;
    } else if (p.eat('**')) {
      const at = p.i;
      p.name();
      if (annotations && p.eat(':')) p.expression();
      if (p.isOp('=')) p.fail('var-keyword argument cannot have default value');
      p.eat(',');
      if (!p.isOp(close)) p.fail('arguments cannot follow var-keyword argument', at);
      if (bareStar >= 0) p.fail('named arguments must follow bare *', bareStar);
      break;
    } else if (p.eat('*')) {
      if (sawStar) p.fail('* argument may appear only once', p.i - 1);
      sawStar = true;
      if (p.isOp(',') || p.isOp(close)) bareStar = p.i - 1;
      else {
        p.name();
        if (annotations && p.eat(':')) {
          if (p.eat('*')) p.bitwiseOr();
          else p.expression();
        }
        if (p.isOp('=')) p.fail('var-positional argument cannot have default value');
      }
    } else {
      p.name();
      if (annotations && p.eat(':')) p.expression();
      if (p.eat('=')) {
        p.expression();
        if (!sawStar) sawDefault = true;
      } else if (sawDefault && !sawStar) p.fail('non-default argument follows default argument', p.i - 1);
      if (sawStar) bareStar = -1;
      else positional++;
    }
    if (!p.eat(',')) break;
  }
  if (bareStar >= 0) p.fail('named arguments must follow bare *', bareStar);
}
