/**
 * Turns a tree-sitter tree into an outline with one small table per language (`languages.ts`): which node types
 * are definitions (and of what kind), which are wrappers to look through (`export`, decorators, `declare`,
 * templates), and which definitions are containers whose members are listed one level down (class → methods).
 * Bodies are never included: a definition is shown by its signature, the text up to its body.
 */
import type { Node } from 'web-tree-sitter';

export interface OutlineItem {
  kind: string;
  name: string;
  /** 1-based. */
  line: number;
  endLine: number;
  signature: string;
  children: OutlineItem[];
}

export interface LanguageSpec {
  /** node type → kind shown in the outline. */
  defs: Readonly<Record<string, string>>;
  /** Node types looked through: their definition child (field, or every named child) takes their place. */
  wrappers?: Readonly<Record<string, string | null>>;
  /** Definition kinds whose body members are outlined as children. */
  containers?: ReadonlySet<string>;
  /** Node types that group top-level nodes without being definitions (e.g. a YAML document). */
  transparent?: ReadonlySet<string>;
  /** Overrides for languages whose definitions are not plain node types (Elixir calls, JSON keys …). */
  custom?: (node: Node, depth: number, recurse: (body: Node, depth: number) => OutlineItem[]) => OutlineItem[] | null;
  /** The name of a definition when there is no `name` field. */
  nameOf?: (node: Node) => string | null;
  /** Where members live, when not the `body` field. */
  bodyOf?: (node: Node) => Node | null;
}

const MAX_SIGNATURE = 200;
export const MAX_DEPTH = 3;

export function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_SIGNATURE ? `${flat.slice(0, MAX_SIGNATURE - 1)}…` : flat;
}

/** Text of the node up to its body (or its first line when it has no body field). */
export function signatureOf(node: Node, body: Node | null): string {
  const text = node.text;
  const firstLine = () => {
    const nl = text.indexOf('\n'); // not split(): a big node's text is long, only its first line matters
    return oneLine(nl === -1 ? text : text.slice(0, nl));
  };
  if (body && body.startIndex > node.startIndex) return oneLine(text.slice(0, body.startIndex - node.startIndex)).replace(/[{:=]\s*$/, '').trim() || firstLine();
  return firstLine();
}

export function defaultName(node: Node): string | null {
  const name = node.childForFieldName('name') ?? node.childForFieldName('declarator');
  if (name) return innermostName(name);
  return null;
}

/** For C-style declarators (`*foo(int)`), the identifier inside. */
export function innermostName(node: Node): string {
  // Most names are leaves (identifier, type_identifier, …): skip the field lookups, each one a wasm call.
  if (/identifier$|^constant$|^name$|^string$|^word$/.test(node.type)) return node.text;
  let current: Node | null = node;
  for (let i = 0; current && i < 8; i++) {
    const inner: Node | null = current.childForFieldName('declarator') ?? current.childForFieldName('name');
    if (!inner) break;
    current = inner;
  }
  return (current ?? node).text;
}

export function outlineTree(root: Node, spec: LanguageSpec): OutlineItem[] {
  const bodyOf = spec.bodyOf ?? ((n: Node) => n.childForFieldName('body'));
  const nameOf = spec.nameOf ?? defaultName;

  const visit = (node: Node, depth: number, out: OutlineItem[]): void => {
    if (spec.custom) {
      const custom = spec.custom(node, depth, members);
      if (custom) {
        out.push(...custom);
        return;
      }
    }
    if (spec.transparent?.has(node.type)) {
      for (const child of node.namedChildren) visit(child, depth, out);
      return;
    }
    if (spec.wrappers && node.type in spec.wrappers) {
      const field = spec.wrappers[node.type];
      const inner = field ? node.childrenForFieldName(field) : node.namedChildren;
      for (const child of inner) visit(child, depth, out);
      return;
    }
    const kind = spec.defs[node.type];
    if (!kind) return;
    const name = nameOf(node);
    if (name === null || name === '') return;
    const body = bodyOf(node);
    out.push({
      kind,
      name,
      line: node.startPosition.row + 1,
      endLine: node.endPosition.row + 1,
      signature: signatureOf(node, body),
      children: body && spec.containers?.has(kind) && depth < MAX_DEPTH ? members(body, depth + 1) : [],
    });
  };

  const members = (body: Node, depth: number): OutlineItem[] => {
    const out: OutlineItem[] = [];
    for (const child of body.namedChildren) visit(child, depth, out);
    return out;
  };

  return members(root, 0);
}
