/**
 * Literals and displays for the outline's Python parser (`python-expr.ts`): adjacent strings with f-strings' fields,
 * and the bracketed forms: a group, tuple or generator in `(`, a list or its comprehension in `[`, a dict, a set or
 * their comprehensions in `{`. Each rule returns the `Shape` its display can be the target of.
 */
import { type ExprParser, Shape, sequenceShape } from './python-cursor';
import { Tok } from './python-syntax';

/** Adjacent string literals (bytes may not meet text), f-strings' fields parsed as expressions. */
export function strings(p: ExprParser): void {
  let bytes = -1;
  for (;;) {
    const k = p.kind[p.i];
    let isBytes: number;
    if (k === Tok.String) {
      isBytes = p.t.bytes[p.i]!;
      p.i++;
    } else if (k === Tok.FStart) {
      isBytes = 0;
      fstring(p);
    } else return;
    if (bytes !== -1 && bytes !== isBytes) p.fail('cannot mix bytes and nonbytes literals', p.i - 1);
    bytes = isBytes;
  }
}

function fstring(p: ExprParser): void {
  p.i++; // FStart
  for (;;) {
    const k = p.kind[p.i];
    if (k === Tok.FEnd) {
      p.i++;
      return;
    }
    if (k === Tok.FMiddle) p.i++;
    else replacementField(p);
  }
}

/** `{` expression [`=`] [`!` conversion] [`:` spec] `}`. */
function replacementField(p: ExprParser): void {
  p.expect('{');
  if (p.isOp('}') || p.isOp('!') || p.isOp(':') || p.isOp('='))
    p.fail("f-string: valid expression required before '}'");
  if (p.isKw('yield')) p.yieldExpression();
  else p.starExpressions();
  p.eat('=');
  if (p.eat('!')) {
    const v = p.value[p.i];
    if (p.kind[p.i] !== Tok.Name || (v !== 's' && v !== 'r' && v !== 'a'))
      p.fail("f-string: invalid conversion character: expected 's', 'r', or 'a'");
    p.i++;
  }
  if (p.eat(':')) {
    while (!p.isOp('}')) {
      if (p.kind[p.i] === Tok.FMiddle) p.i++;
      else replacementField(p);
    }
  }
  p.expect('}', "f-string: expecting '}'");
}

/** `(`: a group, a tuple, a generator expression, or `(yield …)`. */
export function parenthesized(p: ExprParser): Shape {
  p.i++;
  if (p.eat(')')) return Shape.Store | Shape.Del; // () = x and del () are valid
  if (p.isKw('yield')) {
    p.yieldExpression();
    p.expect(')');
    return Shape.None;
  }
  const first = p.starNamedExpression();
  if (p.isKw('for') || p.isKw('async')) {
    if (first & Shape.Starred) p.fail('iterable unpacking cannot be used in comprehension');
    p.forIfClauses();
    p.expect(')');
    return Shape.None;
  }
  if (p.eat(')')) {
    if (first & Shape.Starred) p.fail('cannot use starred expression here', p.i - 1);
    // A parenthesized target stays a single target: (a) += 1, (a.b): int = 1.
    return first & (Shape.Store | Shape.Single | Shape.Del);
  }
  let all = first;
  while (p.eat(',')) {
    if (p.isOp(')')) break;
    all &= p.starNamedExpression();
  }
  p.expect(')');
  return sequenceShape(all);
}

export function list(p: ExprParser): Shape {
  p.i++;
  if (p.eat(']')) return Shape.Store | Shape.Del;
  const first = p.starNamedExpression();
  if (p.isKw('for') || p.isKw('async')) {
    if (first & Shape.Starred) p.fail('iterable unpacking cannot be used in comprehension');
    p.forIfClauses();
    p.expect(']');
    return Shape.None;
  }
  let all = first;
  while (p.eat(',')) {
    if (p.isOp(']')) break;
    all &= p.starNamedExpression();
  }
  p.expect(']');
  return sequenceShape(all);
}

/** `{`: a dict, a set, or their comprehensions. */
export function braces(p: ExprParser): void {
  p.i++;
  if (p.eat('}')) return;
  let isDict: boolean;
  if (p.eat('**')) {
    p.bitwiseOr();
    isDict = true;
  } else {
    const first = p.starNamedExpression();
    isDict = p.eat(':');
    if (isDict) {
      if (first & Shape.Starred) p.fail('cannot use a starred expression in a dictionary key');
      p.expression();
    }
    if (p.isKw('for') || p.isKw('async')) {
      if (first & Shape.Starred) p.fail('iterable unpacking cannot be used in comprehension');
      p.forIfClauses();
      p.expect('}');
      return;
    }
  }
  while (p.eat(',')) {
    if (p.isOp('}')) break;
    if (isDict) {
      if (p.eat('**')) p.bitwiseOr();
      else {
        p.expression();
        p.expect(':');
        p.expression();
      }
    } else p.starNamedExpression();
  }
  if (isDict && p.isKw('for')) p.fail('dict unpacking cannot be used in dict comprehension');
  p.expect('}');
}
