/**
 * The outline table of each tree-sitter language (the data and markup ones in `languages-markup.ts`), and the file
 * extension → grammar map (docs/tools.md) (`.py .js .mjs .ts .tsx .go .java .c .h .cpp .cc .hpp .lua .rb .sh .ex .exs
 * .json .yaml .yml .html .css`, plus `.rs`).
 * Node type names are those of the grammar packages in node_modules (checked by the outline tests on samples).
 */
import type { Node } from 'web-tree-sitter';
import type { GrammarId } from '../../treesitter/grammars';
import { defaultName, MAX_DEPTH, oneLine, signatureOf, type LanguageSpec, type OutlineItem } from './extract';
import { css, html, json, yaml } from './languages-markup';

export const GRAMMAR_OF_EXTENSION: Readonly<Record<string, GrammarId>> = {
  '.py': 'python',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascript',
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.go': 'go',
  '.java': 'java',
  '.c': 'c',
  '.h': 'c',
  '.cpp': 'cpp',
  '.cc': 'cpp',
  '.cxx': 'cpp',
  '.hpp': 'cpp',
  '.hh': 'cpp',
  '.lua': 'lua',
  '.rb': 'ruby',
  '.sh': 'bash',
  '.bash': 'bash',
  '.ex': 'elixir',
  '.exs': 'elixir',
  '.json': 'json',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.html': 'html',
  '.htm': 'html',
  '.css': 'css',
  '.rs': 'rust',
};

const set = (...kinds: string[]) => new Set(kinds);

const python: LanguageSpec = {
  defs: { function_definition: 'function', class_definition: 'class' },
  // Wrappers by `null` (all named children) rather than by field: a field lookup is a wasm call per node, and the
  // non-definition children (decorators, identifiers) are ignored by the kind table anyway.
  wrappers: { decorated_definition: null },
  containers: set('class'),
};

/** Names of `const a = …, b = …` (TS compiler: a VariableStatement's declarations). */
function variableItems(node: Node): OutlineItem[] {
  const kind = node.text.startsWith('const') ? 'const' : node.text.startsWith('let') ? 'let' : 'var';
  return node.namedChildren
    .filter((d) => d.type === 'variable_declarator')
    .map((d) => {
      const name = d.childForFieldName('name');
      const value = d.childForFieldName('value');
      return {
        kind,
        name: name?.text ?? '',
        line: d.startPosition.row + 1,
        endLine: d.endPosition.row + 1,
        signature: `${kind} ${signatureOf(d, value)}`,
        children: [],
      };
    })
    .filter((i) => i.name !== '');
}

const jsLike = (isTs: boolean): LanguageSpec => ({
  defs: {
    function_declaration: 'function',
    generator_function_declaration: 'function',
    class_declaration: 'class',
    class: 'class',
    method_definition: 'method',
    ...(isTs
      ? {
          abstract_class_declaration: 'class',
          function_signature: 'function',
          interface_declaration: 'interface',
          type_alias_declaration: 'type',
          enum_declaration: 'enum',
          internal_module: 'namespace',
          module: 'module',
          method_signature: 'method',
          abstract_method_signature: 'method',
          public_field_definition: 'field',
        }
      : { field_definition: 'field' }),
  },
  // `namespace N {}` parses as an expression statement around `internal_module`.
  wrappers: { export_statement: null, ambient_declaration: null, expression_statement: null },
  containers: set('class', 'namespace', 'module'),
  customTypes: set('lexical_declaration', 'variable_declaration'),
  custom: (node) => variableItems(node),
  // No `nameOf`: the fast path takes the `name` field, or `property` (a JS class field).
});

const go: LanguageSpec = {
  defs: { function_declaration: 'func', method_declaration: 'method', type_spec: 'type', type_alias: 'type' },
  wrappers: { type_declaration: null },
};

const java: LanguageSpec = {
  defs: {
    class_declaration: 'class',
    interface_declaration: 'interface',
    enum_declaration: 'enum',
    record_declaration: 'record',
    annotation_type_declaration: 'annotation',
    method_declaration: 'method',
    constructor_declaration: 'constructor',
  },
  containers: set('class', 'interface', 'enum', 'record'),
};

const cFamily = (isCpp: boolean): LanguageSpec => ({
  defs: {
    function_definition: 'function',
    struct_specifier: 'struct',
    enum_specifier: 'enum',
    union_specifier: 'union',
    type_definition: 'typedef',
    declaration: 'declaration',
    ...(isCpp ? { class_specifier: 'class', namespace_definition: 'namespace', field_declaration: 'field' } : {}),
  },
  wrappers: {
    template_declaration: null,
    linkage_specification: 'body',
    preproc_ifdef: null,
    preproc_if: null,
    preproc_else: null,
    declaration_list: null,
  },
  containers: set('class', 'struct', 'namespace'),
  nameOf: (node) => {
    // A plain `int x;` declaration is not a definition worth outlining; a function prototype is.
    if (node.type === 'declaration' || node.type === 'field_declaration') {
      const decl = node.childForFieldName('declarator');
      if (!decl || !decl.text.includes('(')) return null;
    }
    if (
      (node.type === 'struct_specifier' ||
        node.type === 'enum_specifier' ||
        node.type === 'union_specifier' ||
        node.type === 'class_specifier') &&
      !node.childForFieldName('body')
    )
      return null;
    return defaultName(node);
  },
});

/** Lua statements whose blocks may hold functions: looked through at the depth they sit at. */
const LUA_THROUGH = new Set([
  'block',
  'if_statement',
  'elseif_statement',
  'else_statement',
  'for_statement',
  'while_statement',
  'repeat_statement',
  'do_statement',
  'variable_declaration',
]);

function luaFunction(
  node: Node,
  name: string,
  fn: Node,
  depth: number,
  members: (body: Node, depth: number) => OutlineItem[],
): OutlineItem {
  const body = fn.childForFieldName('body');
  return {
    kind: 'function',
    name,
    line: node.startPosition.row + 1,
    endLine: node.endPosition.row + 1,
    signature: signatureOf(node, body),
    children: body && depth < MAX_DEPTH ? members(body, depth + 1) : [],
  };
}

/**
 * Lua: every named function, nested ones too (inside another function's body, or in its `if`, loops and `do`
 * blocks, as that function's children): `function a.b:c()`, `local function f()`, and `x = function () … end`
 * (`local` or not, one per name that gets a function). Anonymous functions (callbacks) are not listed.
 */
const lua: LanguageSpec = {
  defs: {},
  customTypes: new Set([...LUA_THROUGH, 'function_declaration', 'assignment_statement']),
  custom: (node, depth, members) => {
    if (LUA_THROUGH.has(node.type)) return members(node, depth);
    if (node.type === 'function_declaration') {
      const name = node.childForFieldName('name')?.text;
      return name ? [luaFunction(node, name, node, depth, members)] : [];
    }
    const names = node.namedChildren.find((c) => c.type === 'variable_list')?.namedChildren ?? [];
    const values = node.namedChildren.find((c) => c.type === 'expression_list')?.namedChildren ?? [];
    const out: OutlineItem[] = [];
    values.forEach((value, i) => {
      const name = names[i];
      if (value.type === 'function_definition' && name) out.push(luaFunction(node, name.text, value, depth, members));
    });
    return out;
  },
};

const ruby: LanguageSpec = {
  defs: { class: 'class', module: 'module', method: 'method', singleton_method: 'method', singleton_class: 'class' },
  containers: set('class', 'module'),
  bodyOf: (node) =>
    node.childForFieldName('body') ?? node.namedChildren.find((c) => c.type === 'body_statement') ?? null,
  nameOf: (node) =>
    node.type === 'singleton_class'
      ? `<< ${node.childForFieldName('value')?.text ?? 'self'}`
      : (node.childForFieldName('name')?.text ?? null),
};

const bash: LanguageSpec = {
  defs: { function_definition: 'function' },
  nameOf: (n) => n.childForFieldName('name')?.text ?? null,
};

const ELIXIR_DEFS: Readonly<Record<string, string>> = {
  defmodule: 'module',
  defprotocol: 'protocol',
  defimpl: 'impl',
  def: 'def',
  defp: 'defp',
  defmacro: 'defmacro',
  defmacrop: 'defmacrop',
  defstruct: 'struct',
  defguard: 'defguard',
  defdelegate: 'defdelegate',
};
const elixir: LanguageSpec = {
  defs: {},
  custom: (node, depth, members) => {
    if (node.type !== 'call') return null;
    const target = node.childForFieldName('target')?.text ?? '';
    const kind = ELIXIR_DEFS[target];
    if (!kind) return [];
    const args = node.namedChildren.find((c) => c.type === 'arguments');
    const head = args?.namedChildren[0];
    // `def name(args) when guard` → the call's target is the name.
    const nameNode =
      head?.type === 'call'
        ? (head.childForFieldName('target') ?? head)
        : head?.type === 'binary_operator'
          ? head.childForFieldName('left')?.childForFieldName('target')
          : head;
    const name = nameNode?.text ?? (kind === 'struct' ? '%struct{}' : '');
    const body = node.namedChildren.find((c) => c.type === 'do_block') ?? null;
    const children =
      kind === 'module' || kind === 'protocol' || kind === 'impl' ? (body ? members(body, depth + 1) : []) : [];
    return name
      ? [
          {
            kind,
            name,
            line: node.startPosition.row + 1,
            endLine: node.endPosition.row + 1,
            signature: signatureOf(node, body),
            children,
          },
        ]
      : [];
  },
};

const rust: LanguageSpec = {
  defs: {
    function_item: 'fn',
    function_signature_item: 'fn',
    struct_item: 'struct',
    enum_item: 'enum',
    union_item: 'union',
    trait_item: 'trait',
    impl_item: 'impl',
    mod_item: 'mod',
    type_item: 'type',
    const_item: 'const',
    static_item: 'static',
    macro_definition: 'macro',
  },
  containers: set('impl', 'trait', 'mod'),
  nameOf: (n) => {
    if (n.type === 'impl_item') {
      const trait = n.childForFieldName('trait')?.text;
      const type = n.childForFieldName('type')?.text ?? '';
      return trait ? `${trait} for ${type}` : type;
    }
    return n.childForFieldName('name')?.text ?? null;
  },
};

export const LANGUAGE_SPECS: Readonly<Record<GrammarId, LanguageSpec>> = {
  python,
  javascript: jsLike(false),
  typescript: jsLike(true),
  tsx: jsLike(true),
  go,
  java,
  c: cFamily(false),
  cpp: cFamily(true),
  lua,
  ruby,
  bash,
  elixir,
  json,
  yaml,
  html,
  css,
  rust,
};
