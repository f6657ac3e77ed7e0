/**
 * What the outline's script walk (script-outline.ts) knows of oxc's ESTree: the node fields it reads, the node types
 * it sorts by (functions, statements closed by their `}`, class members), and the depths at which a big piece's body
 * is reparsed (negative: inside a function, an interface or a `switch`, where nothing is listed; docs/outline.md).
 */

/** The fields of oxc's ESTree nodes the walk reads (the full types live in `@oxc-project/types`). */
export interface N {
  type: string;
  start: number;
  end: number;
  [field: string]: unknown;
}

/** A statement or member this big gets the body of its main function recorded as a piece body (`functionBody`). */
export const BIG_PIECE_CHARS = 16 * 1024;
/** The depth of a function body's statements, where nothing is listed. */
export const FUNCTION_BODY_DEPTH = -1;
/** The depth a reparsed slice of a function body is parsed at: its wrapper function's body is always recorded. */
export const WRAPPED_FUNCTION_DEPTH = FUNCTION_BODY_DEPTH - 1;
/** The depth of a big interface's members, where nothing is listed (interface members are not outlined). */
export const INTERFACE_BODY_DEPTH = WRAPPED_FUNCTION_DEPTH - 1;
/** The depth a reparsed slice of an interface body is parsed at: its wrapper interface's body is always recorded. */
export const WRAPPED_INTERFACE_DEPTH = INTERFACE_BODY_DEPTH - 1;
/** The depth of a big `switch`'s clauses, where nothing is listed. */
export const SWITCH_BODY_DEPTH = WRAPPED_INTERFACE_DEPTH - 1;
/** The depth a reparsed slice of a `switch`'s clauses is parsed at: its wrapper's clauses are always recorded. */
export const WRAPPED_SWITCH_DEPTH = SWITCH_BODY_DEPTH - 1;
/**
 * After a slice of the clauses of a `switch` that has a `default` clause: one more, so that a slice that brings a
 * second one does not parse (a `switch` with two is a syntax error the whole file would have).
 */
export const DEFAULT_TAIL = ' default: }}';
export const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** Statement types that nothing can continue once they end with `}` (see Piece.closed). */
export const CLOSED_BY_BRACE = new Set([
  'FunctionDeclaration',
  'ClassDeclaration',
  'TSInterfaceDeclaration',
  'TSEnumDeclaration',
  'TSModuleDeclaration',
  'BlockStatement',
  'TryStatement',
  'SwitchStatement',
  'MethodDefinition',
  'StaticBlock',
]);

export const MEMBER_KINDS: Readonly<Record<string, string>> = {
  MethodDefinition: 'method',
  TSAbstractMethodDefinition: 'method',
  PropertyDefinition: 'field',
  TSAbstractPropertyDefinition: 'field',
  AccessorProperty: 'field',
  TSAbstractAccessorProperty: 'field',
};
