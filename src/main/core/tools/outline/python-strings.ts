/**
 * String literals for the Python tokenizer (`python-tokens.ts`): prefixes, quotes, escapes that must be whole, bytes
 * that must be ASCII, and f-strings (and t-strings) split into parts as Python 3.12 does (PEP 701): literal text,
 * then each replacement field as `{`, the expression's own tokens, `=`, `!` NAME, `:` and a format spec, `}`.
 */
import { PySyntaxError, Tok } from './python-syntax';

/**
 * What the string scanner uses of the tokenizer (python-tokens.ts `Tokenizer`, which passes itself), so that neither
 * file imports the other.
 */
export interface Tokenizer {
  readonly src: string;
  pos: number;
  lineNo: number;
  push(kind: Tok, value: string, start: number, end: number, line?: number, bytes?: number): void;
  newlineChars(): void;
  skipComment(): void;
  continuation(): void;
  token(field: { depth: number } | null): void;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

interface FieldEnd {
  /** The f-string's quote and whether it is triple, to notice a string that ends inside a field. */
  quote: number;
  triple: boolean;
}

/** A string literal whose prefix is src[start, quoteAt). */
export function scanString(tk: Tokenizer, start: number, quoteAt: number): void {
  const src = tk.src;
  const prefix = src.slice(start, quoteAt).toLowerCase();
  const raw = prefix.includes('r');
  const isBytes = prefix.includes('b');
  const q = src.charCodeAt(quoteAt);
  const triple = src.charCodeAt(quoteAt + 1) === q && src.charCodeAt(quoteAt + 2) === q;
  const line = tk.lineNo;
  if (prefix.includes('f') || prefix.includes('t')) {
    tk.pos = quoteAt + (triple ? 3 : 1);
    tk.push(Tok.FStart, prefix, start, tk.pos, line);
    fstringBody(tk, { quote: q, triple }, raw, line);
    return;
  }
  let p = quoteAt + (triple ? 3 : 1);
  for (;;) {
    if (p >= src.length) throw unterminated(tk, triple, line);
    const c = src.charCodeAt(p);
    if (c === q && (!triple || (src.charCodeAt(p + 1) === q && src.charCodeAt(p + 2) === q))) {
      p += triple ? 3 : 1;
      break;
    }
    if (c === 10 || c === 13) {
      if (!triple) throw unterminated(tk, false, line);
      if (c === 13 && src.charCodeAt(p + 1) === 10) p++;
      tk.lineNo++;
      p++;
      continue;
    }
    if (c === 92) {
      const e = src.charCodeAt(p + 1);
      if (e === 10 || e === 13) {
        if (e === 13 && src.charCodeAt(p + 2) === 10) p++;
        tk.lineNo++;
        p += 2;
        continue;
      }
      if (!raw) escape(tk, p, isBytes, line);
      p += 2;
      continue;
    }
    if (isBytes && c >= 128) throw new PySyntaxError('bytes can only contain ASCII literal characters', line);
    p++;
  }
  tk.pos = p;
  tk.push(Tok.String, '', start, p, line, isBytes ? 1 : 0);
}

function unterminated(tk: Tokenizer, triple: boolean, line: number): PySyntaxError {
  return triple
    ? new PySyntaxError(`unterminated triple-quoted string literal (detected at line ${tk.lineNo})`, line)
    : new PySyntaxError(`unterminated string literal (detected at line ${tk.lineNo})`, line);
}

/** `\x`, `\u`, `\U` and `\N{…}` must be whole (Python's decoder rejects the string otherwise). */
function escape(tk: Tokenizer, p: number, isBytes: boolean, line: number): void {
  const src = tk.src;
  const e = src.charCodeAt(p + 1);
  const hex = (count: number, name: string): void => {
    for (let k = 0; k < count; k++) {
      const h = src.charCodeAt(p + 2 + k) | 32;
      if (!(isDigit(h) || (h >= 97 && h <= 102)))
        throw new PySyntaxError(
          `(unicode error) 'unicodeescape' codec can't decode bytes in position 0-${k + 1}: truncated ${name} escape`,
          line,
        );
    }
  };
  if (e === 120) hex(2, '\\xXX');
  else if (isBytes) return;
  else if (e === 117) hex(4, '\\uXXXX');
  else if (e === 85) {
    hex(8, '\\UXXXXXXXX');
    if (Number.parseInt(src.slice(p + 2, p + 10), 16) > 0x10ffff)
      throw new PySyntaxError(
        "(unicode error) 'unicodeescape' codec can't decode bytes: illegal Unicode character",
        line,
      );
  } else if (e === 78) {
    const close = src.indexOf('}', p);
    if (src.charCodeAt(p + 2) !== 123 || close === -1 || close === p + 3 || /[\n\r'"]/.test(src.slice(p + 3, close)))
      throw new PySyntaxError(
        "(unicode error) 'unicodeescape' codec can't decode bytes: malformed \\N character escape",
        line,
      );
  }
}

/**
 * An f-string's text after its opening quote: literal parts (FMiddle), and each replacement field as `{`, the
 * expression's own tokens, then `=`, `!` NAME, `:` and a format spec (text and nested fields) as they come, `}`.
 */
function fstringBody(tk: Tokenizer, end: FieldEnd, raw: boolean, line: number): void {
  const src = tk.src;
  const q = end.quote;
  let textStart = tk.pos;
  const flush = () => {
    if (tk.pos > textStart) tk.push(Tok.FMiddle, '', textStart, tk.pos);
  };
  for (;;) {
    const p = tk.pos;
    if (p >= src.length) throw unterminated(tk, end.triple, line);
    const c = src.charCodeAt(p);
    if (c === q && (!end.triple || (src.charCodeAt(p + 1) === q && src.charCodeAt(p + 2) === q))) {
      flush();
      tk.pos = p + (end.triple ? 3 : 1);
      tk.push(Tok.FEnd, '', p, tk.pos);
      return;
    }
    if (c === 10 || c === 13) {
      if (!end.triple) throw unterminated(tk, false, line);
      tk.newlineChars();
      tk.lineNo++;
      continue;
    }
    if (c === 92) {
      const e = src.charCodeAt(p + 1);
      if (e === 10 || e === 13) {
        tk.pos++;
        tk.newlineChars();
        tk.lineNo++;
        continue;
      }
      // `\{` is not an escape: the brace still opens a field (only `\N{…}` holds a brace).
      if (!raw && e === 78 && src.charCodeAt(p + 2) === 123) {
        escape(tk, p, false, line);
        tk.pos = src.indexOf('}', p) + 1;
        continue;
      }
      if (!raw && e !== 123 && e !== 125) escape(tk, p, false, line);
      tk.pos += e === 123 || e === 125 ? 1 : 2;
      continue;
    }
    if (c === 123 || c === 125) {
      if (src.charCodeAt(p + 1) === c) {
        tk.pos += 2; // `{{` or `}}`: a literal brace
        continue;
      }
      if (c === 125) throw new PySyntaxError("f-string: single '}' is not allowed", tk.lineNo);
      flush();
      field(tk, end, raw, line);
      textStart = tk.pos;
      continue;
    }
    tk.pos++;
  }
}

/** A replacement field from its `{` to its `}`. */
function field(tk: Tokenizer, end: FieldEnd, raw: boolean, line: number): void {
  const src = tk.src;
  tk.push(Tok.Op, '{', tk.pos, tk.pos + 1);
  tk.pos++;
  const depth = { depth: 0 };
  for (;;) {
    const p = tk.pos;
    if (p >= src.length) throw new PySyntaxError("f-string: expecting '}'", line);
    const c = src.charCodeAt(p);
    if (c === 32 || c === 9 || c === 12) {
      tk.pos++;
      continue;
    }
    if (c === 10 || c === 13) {
      tk.newlineChars();
      tk.lineNo++;
      continue;
    }
    if (c === 35) {
      tk.skipComment();
      continue;
    }
    if (c === 92) {
      tk.continuation();
      continue;
    }
    if (depth.depth === 0) {
      if (c === end.quote && !end.triple) throw new PySyntaxError("f-string: expecting '}'", tk.lineNo);
      if (c === 125) {
        tk.pos++;
        tk.push(Tok.Op, '}', p, tk.pos);
        return;
      }
      if (c === 58) {
        tk.pos++;
        tk.push(Tok.Op, ':', p, tk.pos);
        formatSpec(tk, end, raw, line);
        tk.push(Tok.Op, '}', tk.pos, tk.pos + 1);
        tk.pos++;
        return;
      }
      if (c === 61 && src.charCodeAt(p + 1) !== 61) {
        tk.pos++;
        tk.push(Tok.Op, '=', p, tk.pos); // `{x=}`: the expression's text is shown too
        continue;
      }
    }
    tk.token(depth);
    if (depth.depth < 0) throw new PySyntaxError("f-string: unmatched ')'", tk.lineNo);
  }
}

/** A format spec's text and nested fields, up to (not past) the field's closing `}`. */
function formatSpec(tk: Tokenizer, end: FieldEnd, raw: boolean, line: number): void {
  const src = tk.src;
  let textStart = tk.pos;
  for (;;) {
    const p = tk.pos;
    if (p >= src.length) throw new PySyntaxError("f-string: expecting '}'", line);
    const c = src.charCodeAt(p);
    if (c === 125 || (c === end.quote && !end.triple)) {
      if (c !== 125) throw new PySyntaxError("f-string: expecting '}'", tk.lineNo);
      if (p > textStart) tk.push(Tok.FMiddle, '', textStart, p);
      return;
    }
    if (c === 123) {
      if (p > textStart) tk.push(Tok.FMiddle, '', textStart, p);
      field(tk, end, raw, line);
      textStart = tk.pos;
      continue;
    }
    if (c === 10 || c === 13) {
      if (!end.triple)
        throw new PySyntaxError(
          'f-string: newlines are not allowed in format specifiers for single quoted f-strings',
          tk.lineNo,
        );
      tk.newlineChars();
      tk.lineNo++;
      continue;
    }
    tk.pos++;
  }
}
