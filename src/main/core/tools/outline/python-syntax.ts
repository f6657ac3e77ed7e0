/**
 * The shapes shared by the outline's Python parser (`python-parse.ts`): token kinds, the token arrays, and the error
 * Python would raise.
 */

export const enum Tok {
  Name,
  Number,
  String,
  Op,
  Newline,
  Indent,
  Dedent,
  End,
  /** `f"` … : the start of an f-string or t-string (with its prefix). */
  FStart,
  /** Literal text inside an f-string (or its format spec). */
  FMiddle,
  FEnd,
}

/** What Python would raise: its class (IndentationError and TabError are SyntaxErrors), message and line. */
export class PySyntaxError extends Error {
  readonly kind: 'SyntaxError' | 'IndentationError' | 'TabError';
  /** A bracket still open at the end of the text (CPython's parser, not its tokenizer, reports that one). */
  readonly unclosed: boolean;

  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.unclosed = message.endsWith('was never closed');
    this.kind = /^inconsistent use of tabs/.test(message)
      ? 'TabError'
      : /^(?:unindent does not match|unexpected indent|expected an indented block|too many levels of indentation)/.test(
            message,
          )
        ? 'IndentationError'
        : 'SyntaxError';
  }
}

/** The tokens as parallel arrays (typed: a big file has hundreds of thousands). */
export interface Tokens {
  kind: Uint8Array;
  /** The operator or name; '' for other tokens. */
  value: string[];
  start: Int32Array;
  end: Int32Array;
  line: Int32Array;
  /** Strings: 1 bytes, 0 text (for the mixing check). */
  bytes: Uint8Array;
}
