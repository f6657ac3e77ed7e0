/**
 * The patterns of Python's `match` statement (3.10+), for the outline's Python parser: the `case` rules of
 * `Grammar/python.gram` (literals, captures, `_`, dotted values, groups, sequences, mappings, class patterns,
 * `|` and `as`). Checked, not built.
 */
import type { PyState } from './python-expr';
import { Tok } from './python-syntax';

/** `patterns`: an open sequence (`case a, *b:`) or one pattern. */
export function patterns(p: PyState): void {
  const star = maybeStar(p);
  if (p.isOp(',')) {
    while (p.eat(',')) {
      if (p.isOp(':') || p.isKw('if')) break;
      maybeStar(p);
    }
  } else if (star) p.fail('invalid syntax');
}

/** A pattern, or `*name` (true) where a sequence allows it. */
function maybeStar(p: PyState): boolean {
  if (p.eat('*')) {
    p.name();
    return true;
  }
  pattern(p);
  return false;
}

function pattern(p: PyState): void {
  orPattern(p);
  if (p.eatKw('as')) {
    if (p.isKw('_')) p.fail("cannot use '_' as a target");
    p.name();
  }
}

function orPattern(p: PyState): void {
  closedPattern(p);
  while (p.eat('|')) closedPattern(p);
}

function signedNumber(p: PyState): void {
  p.eat('-');
  if (p.kind[p.i] !== Tok.Number) p.fail();
  p.i++;
  if ((p.isOp('+') || p.isOp('-')) && p.kind[p.i + 1] === Tok.Number) p.i += 2;
}

function closedPattern(p: PyState): void {
  const k = p.kind[p.i];
  if (k === Tok.Number || p.isOp('-')) return signedNumber(p);
  if (k === Tok.String) {
    while (p.kind[p.i] === Tok.String) p.i++;
    if (p.kind[p.i] === Tok.FStart) p.fail('patterns may only match literals and attribute lookups');
    return;
  }
  if (k === Tok.FStart) p.fail('patterns may only match literals and attribute lookups');
  if (p.isKw('None') || p.isKw('True') || p.isKw('False')) {
    p.i++;
    return;
  }
  if (p.isName()) {
    p.i++;
    while (p.eat('.')) p.name();
    if (p.eat('(')) classArguments(p);
    return;
  }
  if (p.eat('(')) {
    if (p.eat(')')) return;
    const star = maybeStar(p);
    if (p.isOp(',')) {
      while (p.eat(',')) {
        if (p.isOp(')')) break;
        maybeStar(p);
      }
    } else if (star) p.fail();
    p.expect(')');
    return;
  }
  if (p.eat('[')) {
    while (!p.isOp(']')) {
      maybeStar(p);
      if (!p.eat(',')) break;
    }
    p.expect(']');
    return;
  }
  if (p.eat('{')) return mapping(p);
  p.fail();
}

function mapping(p: PyState): void {
  while (!p.isOp('}')) {
    if (p.eat('**')) {
      p.name();
      p.eat(',');
      break;
    }
    // A key: a literal or a dotted value.
    const k = p.kind[p.i];
    if (k === Tok.Number || p.isOp('-')) signedNumber(p);
    else if (k === Tok.String) while (p.kind[p.i] === Tok.String) p.i++;
    else if (p.isKw('None') || p.isKw('True') || p.isKw('False')) p.i++;
    else if (p.isName() && p.isOp('.', p.i + 1)) {
      p.i++;
      while (p.eat('.')) p.name();
    } else p.fail();
    p.expect(':');
    pattern(p);
    if (!p.eat(',')) break;
  }
  p.expect('}');
}

function classArguments(p: PyState): void {
  let keyword = false;
  while (!p.isOp(')')) {
    if (p.isName() && p.isOp('=', p.i + 1)) {
      p.i += 2;
      pattern(p);
      keyword = true;
    } else {
      const at = p.i;
      pattern(p);
      if (keyword) p.fail('positional patterns follow keyword patterns', at);
    }
    if (!p.eat(',')) break;
  }
  p.expect(')');
}
