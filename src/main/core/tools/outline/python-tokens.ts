/**
 * Python's tokenizer, after CPython's (`Parser/tokenizer.c`), for the outline's Python parser (`python-parse.ts`,
 * docs/outline.md "Python"): logical lines, INDENT and DEDENT with CPython's checks (a dedent to a column no block
 * opened is an IndentationError; indentation whose order differs with tabs counted as 1 and as 8 columns is a
 * TabError), brackets, strings with their prefixes and escapes, numbers with their underscore and leading-zero rules,
 * and f-strings (and t-strings) split into parts as Python 3.12 does (PEP 701), so the parser reads the expressions
 * inside them. Any error stops the tokenizer with Python's message and the line Python gives.
 */
import { PySyntaxError, Tok, type Tokens } from './python-syntax';
import { scanString } from './python-strings';

export { PySyntaxError, Tok, type Tokens } from './python-syntax';

const MAX_INDENT = 100;
// Longest first, so `**=` wins over `**` and `*`.
const OPS =
  '**= //= >>= <<= ... != %= &= ** *= += -= -> // /= := << <= == >= >> @= ^= |= <> % & ( ) * + , - . / : ; < = > @ [ ] ^ { | } ~'.split(
    ' ',
  );
/** By first character code, longest first. */
const OP_BY_FIRST: (string[] | undefined)[] = [];
for (const op of OPS) (OP_BY_FIRST[op.charCodeAt(0)] ??= []).push(op);
const CLOSER: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}' };
/** Words a number may run into without a space (CPython allows them, with a warning). */
const AFTER_NUMBER = /^(?:and|else|for|if|in|is|not|or)/;
const NAME_REST_ASCII = /[A-Za-z0-9_]/;
const ID_START = /[\p{XID_Start}_]/u;
const ID_PART = /[\p{XID_Continue}]/u;
const STRING_PREFIX = /^(?:[rRuUbBfFtT]|[bB][rR]|[rR][bB]|[fF][rR]|[rR][fF]|[tT][rR]|[rR][tT])$/;

const isDigit = (c: number) => c >= 48 && c <= 57;
const isAsciiNameStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
const isAsciiNamePart = (c: number) => isAsciiNameStart(c) || isDigit(c);
/** A digit of base class 0 (decimal), 1 (hex), 2 (octal) or 3 (binary). */
function isDigitOf(c: number, base: number): boolean {
  if (base === 0) return c >= 48 && c <= 57;
  if (base === 1) return (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 102);
  if (base === 2) return c >= 48 && c <= 55;
  return c === 48 || c === 49;
}

export function tokenize(src: string): Tokens {
  return new Tokenizer(src).run();
}

/** The tokens up to the first error, and that error (null when the text tokenizes). */
export function tokenizeUpTo(src: string): { tokens: Tokens; error: PySyntaxError | null } {
  const tokenizer = new Tokenizer(src);
  try {
    return { tokens: tokenizer.run(), error: null };
  } catch (error) {
    if (!(error instanceof PySyntaxError)) throw error;
    return { tokens: tokenizer.tokens, error };
  }
}

export class Tokenizer {
  pos = 0;
  lineNo = 1;
  private count = 0;
  private kinds: Uint8Array;
  private starts: Int32Array;
  private ends: Int32Array;
  private lines: Int32Array;
  private bytes: Uint8Array;
  private readonly values: string[] = [];
  private readonly indents = [0];
  private readonly altIndents = [0];
  /** Open brackets outside f-string fields: their character and line. */
  private readonly brackets: { ch: string; line: number }[] = [];

  constructor(readonly src: string) {
    if (src.charCodeAt(0) === 0xfeff) this.pos = 1;
    const capacity = (src.length >> 2) + 64; // about one token per 4-5 characters of Python
    this.kinds = new Uint8Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    this.lines = new Int32Array(capacity);
    this.bytes = new Uint8Array(capacity);
  }

  /** The tokens so far (all of them once `run` returns). */
  get tokens(): Tokens {
    const n = this.count;
    return {
      kind: this.kinds.subarray(0, n),
      value: this.values,
      start: this.starts.subarray(0, n),
      end: this.ends.subarray(0, n),
      line: this.lines.subarray(0, n),
      bytes: this.bytes.subarray(0, n),
    };
  }

  private grow(): void {
    const capacity = this.kinds.length * 2;
    const more = <T extends Uint8Array | Int32Array>(old: T, made: T): T => {
      made.set(old);
      return made;
    };
    this.kinds = more(this.kinds, new Uint8Array(capacity));
    this.starts = more(this.starts, new Int32Array(capacity));
    this.ends = more(this.ends, new Int32Array(capacity));
    this.lines = more(this.lines, new Int32Array(capacity));
    this.bytes = more(this.bytes, new Uint8Array(capacity));
  }

  run(): Tokens {
    const src = this.src;
    const n = src.length;
    let atLineStart = true;
    let lineHasTokens = false;
    while (this.pos < n) {
      if (atLineStart) {
        atLineStart = false;
        if (this.brackets.length === 0 && this.indentation()) continue; // a blank or comment-only line
      }
      const c = src.charCodeAt(this.pos);
      if (c === 32 || c === 9 || c === 12) {
        this.pos++;
        continue;
      }
      if (c === 10 || c === 13) {
        this.newlineChars();
        if (this.brackets.length === 0 && lineHasTokens) {
          this.push(Tok.Newline, '', this.pos - 1, this.pos);
          lineHasTokens = false;
        }
        this.lineNo++;
        atLineStart = true;
        continue;
      }
      if (c === 35) {
        this.skipComment();
        continue;
      }
      if (c === 92) {
        this.continuation();
        continue;
      }
      lineHasTokens = true;
      this.token(null);
    }
    if (this.brackets.length > 0) {
      const open = this.brackets[this.brackets.length - 1]!;
      throw new PySyntaxError(`'${open.ch}' was never closed`, open.line);
    }
    if (lineHasTokens) this.push(Tok.Newline, '', n, n);
    for (let k = this.indents.length - 1; k > 0; k--) this.push(Tok.Dedent, '', n, n);
    this.push(Tok.End, '', n, n);
    return this.tokens;
  }

  push(kind: Tok, value: string, start: number, end: number, line = this.lineNo, bytes = 0): void {
    const n = this.count;
    if (n === this.kinds.length) this.grow();
    this.kinds[n] = kind;
    this.values.push(value);
    this.starts[n] = start;
    this.ends[n] = end;
    this.lines[n] = line;
    this.bytes[n] = bytes;
    this.count = n + 1;
  }

  newlineChars(): void {
    if (this.src.charCodeAt(this.pos) === 13 && this.src.charCodeAt(this.pos + 1) === 10) this.pos += 2;
    else this.pos++;
  }

  skipComment(): void {
    const src = this.src;
    let p = this.pos;
    for (let c = src.charCodeAt(p); p < src.length && c !== 10 && c !== 13; c = src.charCodeAt(++p));
    this.pos = p;
  }

  /** `\` ends a line: the next line continues this one. */
  continuation(): void {
    const next = this.src.charCodeAt(this.pos + 1);
    if (next === 10 || next === 13) {
      this.pos++;
      this.newlineChars();
      this.lineNo++;
      if (this.pos >= this.src.length) throw new PySyntaxError('unexpected EOF while parsing', this.lineNo);
      return;
    }
    throw new PySyntaxError('unexpected character after line continuation character', this.lineNo);
  }

  /** A line's indentation: INDENT or DEDENTs as CPython counts them. True when the line is blank. */
  private indentation(): boolean {
    const src = this.src;
    let col = 0;
    let alt = 0;
    let p = this.pos;
    for (;;) {
      const c = src.charCodeAt(p);
      if (c === 32) {
        col++;
        alt++;
      } else if (c === 9) {
        col = (Math.floor(col / 8) + 1) * 8;
        alt++;
      } else if (c === 12) col = alt = 0;
      else break;
      p++;
    }
    this.pos = p;
    const c = src.charCodeAt(p);
    if (c === 35 || c === 10 || c === 13 || p >= src.length) return true; // blank, comment only, or the end
    if (c === 92) {
      // A line that is only a continuation is blank too, unless text follows on the next line (then it is a line).
      const next = src.charCodeAt(p + 1);
      if (next !== 10 && next !== 13)
        throw new PySyntaxError('unexpected character after line continuation character', this.lineNo);
    }
    const top = this.indents[this.indents.length - 1]!;
    const altTop = this.altIndents[this.altIndents.length - 1]!;
    if (col === top) {
      if (alt !== altTop) throw new PySyntaxError('inconsistent use of tabs and spaces in indentation', this.lineNo);
    } else if (col > top) {
      if (this.indents.length >= MAX_INDENT) throw new PySyntaxError('too many levels of indentation', this.lineNo);
      if (alt <= altTop) throw new PySyntaxError('inconsistent use of tabs and spaces in indentation', this.lineNo);
      this.indents.push(col);
      this.altIndents.push(alt);
      this.push(Tok.Indent, '', p, p);
    } else {
      while (this.indents.length > 1 && col < this.indents[this.indents.length - 1]!) {
        this.indents.pop();
        this.altIndents.pop();
        this.push(Tok.Dedent, '', p, p);
      }
      if (col !== this.indents[this.indents.length - 1]!)
        throw new PySyntaxError('unindent does not match any outer indentation level', this.lineNo);
      if (alt !== this.altIndents[this.altIndents.length - 1]!)
        throw new PySyntaxError('inconsistent use of tabs and spaces in indentation', this.lineNo);
    }
    return false;
  }

  /**
   * One token at `pos` (not whitespace, newline, comment or continuation). Inside an f-string field (`field` set)
   * brackets are counted by the field, not on the file's stack.
   */
  token(field: { depth: number } | null): void {
    const src = this.src;
    const start = this.pos;
    const c = src.charCodeAt(start);
    if (isAsciiNameStart(c) || c >= 128) {
      const end = this.nameEnd(start);
      const q = src.charCodeAt(end);
      if ((q === 34 || q === 39) && end - start <= 2 && STRING_PREFIX.test(src.slice(start, end))) {
        scanString(this, start, end);
        return;
      }
      this.pos = end;
      this.push(Tok.Name, src.slice(start, end), start, end);
      return;
    }
    if (isDigit(c) || (c === 46 && isDigit(src.charCodeAt(start + 1)))) {
      this.number(start);
      return;
    }
    if (c === 34 || c === 39) {
      scanString(this, start, start);
      return;
    }
    const op = this.operator(c, start);
    if (op) {
      if (op === '<>') throw new PySyntaxError('invalid syntax', this.lineNo);
      this.pos = start + op.length;
      if (op === '(' || op === '[' || op === '{') {
        if (field) field.depth++;
        else this.brackets.push({ ch: op, line: this.lineNo });
      } else if (op === ')' || op === ']' || op === '}') {
        if (field) field.depth--;
        else {
          const open = this.brackets.pop();
          if (!open) throw new PySyntaxError(`unmatched '${op}'`, this.lineNo);
          if (CLOSER[open.ch] !== op) {
            const where = open.line === this.lineNo ? '' : ` on line ${open.line}`;
            throw new PySyntaxError(
              `closing parenthesis '${op}' does not match opening parenthesis '${open.ch}'${where}`,
              this.lineNo,
            );
          }
        }
      }
      this.push(Tok.Op, op, start, this.pos);
      return;
    }
    if (c === 33 && src.charCodeAt(start + 1) !== 61 && field) {
      this.pos++;
      this.push(Tok.Op, '!', start, this.pos);
      return;
    }
    const ch = String.fromCodePoint(src.codePointAt(start)!);
    const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw new PySyntaxError(
      c === 36 || c === 63 || c === 96 || c === 33 ? 'invalid syntax' : `invalid character '${ch}' (U+${code})`,
      this.lineNo,
    );
  }

  /** The longest operator at `start` (its first character `c`), or null. */
  private operator(c: number, start: number): string | null {
    const ops = OP_BY_FIRST[c];
    if (!ops) return null;
    const src = this.src;
    for (const op of ops) {
      if (op.length === 1) return op;
      if (
        src.charCodeAt(start + 1) === op.charCodeAt(1) &&
        (op.length === 2 || src.charCodeAt(start + 2) === op.charCodeAt(2))
      )
        return op;
    }
    return null;
  }

  private nameEnd(start: number): number {
    const src = this.src;
    let p = start;
    for (;;) {
      const c = src.charCodeAt(p);
      if (isAsciiNamePart(c)) p++;
      else if (c >= 128 && p < src.length) {
        const ch = String.fromCodePoint(src.codePointAt(p)!);
        const re = p === start ? ID_START : ID_PART;
        if (!re.test(ch) && !re.test(String.fromCodePoint(ch.normalize('NFKC').codePointAt(0) ?? 0))) {
          if (p === start) {
            const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
            throw new PySyntaxError(`invalid character '${ch}' (U+${code})`, this.lineNo);
          }
          break;
        }
        p += ch.length;
      } else break;
    }
    return p;
  }

  /** Digits of a class (0 decimal, 1 hex, 2 octal, 3 binary) with single underscores between them, from `p`. */
  private digits(p: number, base: number, what: string): number {
    const src = this.src;
    if (!isDigitOf(src.charCodeAt(p), base)) throw new PySyntaxError(`invalid ${what} literal`, this.lineNo);
    for (;;) {
      while (isDigitOf(src.charCodeAt(p), base)) p++;
      if (src.charCodeAt(p) !== 95) return p;
      p++;
      if (!isDigitOf(src.charCodeAt(p), base)) throw new PySyntaxError(`invalid ${what} literal`, this.lineNo);
    }
  }

  private number(start: number): void {
    const src = this.src;
    let p = start;
    const c0 = src.charCodeAt(p);
    const c1 = src.charCodeAt(p + 1) | 32;
    let what = 'decimal';
    if (c0 === 48 && (c1 === 120 || c1 === 111 || c1 === 98)) {
      p += 2;
      if (src.charCodeAt(p) === 95) p++;
      const base = c1 === 120 ? 1 : c1 === 111 ? 2 : 3;
      what = base === 1 ? 'hexadecimal' : base === 2 ? 'octal' : 'binary';
      p = this.digits(p, base, what);
      if (base !== 1 && isDigit(src.charCodeAt(p)))
        throw new PySyntaxError(`invalid digit '${src[p]}' in ${what} literal`, this.lineNo);
    } else {
      let isFloat = false;
      if (c0 !== 46) p = this.digits(p, 0, what);
      const intEnd = p;
      if (src.charCodeAt(p) === 46) {
        isFloat = true;
        p++;
        if (isDigit(src.charCodeAt(p))) p = this.digits(p, 0, what);
      }
      if ((src.charCodeAt(p) | 32) === 101) {
        const sign = src.charCodeAt(p + 1);
        const q = sign === 43 || sign === 45 ? p + 2 : p + 1;
        if (isDigit(src.charCodeAt(q))) {
          isFloat = true;
          p = this.digits(q, 0, what);
        } else if (sign === 43 || sign === 45) throw new PySyntaxError('invalid decimal literal', this.lineNo);
      }
      const j = (src.charCodeAt(p) | 32) === 106;
      if (j) p++;
      if (!isFloat && !j && c0 === 48) {
        // 0, 00, 0_0 are fine; 0777 is not (unless it is a float or imaginary: 0777.0, 0777j).
        for (let k = start; k < intEnd; k++) {
          const d = src.charCodeAt(k);
          if (d !== 48 && d !== 95)
            throw new PySyntaxError(
              'leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers',
              this.lineNo,
            );
        }
      }
    }
    const next = src.charCodeAt(p);
    if (isAsciiNamePart(next) || (next >= 128 && ID_PART.test(String.fromCodePoint(src.codePointAt(p)!)))) {
      if (!AFTER_NUMBER.test(src.slice(p, p + 4))) throw new PySyntaxError(`invalid ${what} literal`, this.lineNo);
    }
    this.pos = p;
    this.push(Tok.Number, '', start, p);
  }
}
