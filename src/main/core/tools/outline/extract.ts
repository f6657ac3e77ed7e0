/**
 * Turns a tree-sitter tree into an outline with one small table per language (`languages.ts`): which node types
 * are definitions (and of what kind), which are wrappers to look through (`export`, decorators, `declare`,
 * templates), and which definitions are containers whose members are listed one level down (class → methods).
 * Bodies are never included: a definition is shown by its signature, the text up to its body.
 */
import type { Language, Node } from 'web-tree-sitter';

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
  /** Node types `custom` applies to; absent = every node (slow path for the whole language). */
  customTypes?: ReadonlySet<string>;
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
  // Most signatures are already one line with single spaces: skip the replace (it allocates) for those.
  const flat = (/\s\s|[\t\n\r\f\v]/.test(text) ? text.replace(/\s+/g, ' ') : text).trim();
  return flat.length > MAX_SIGNATURE ? `${flat.slice(0, MAX_SIGNATURE - 1)}…` : flat;
}

/** Text of the node up to its body (or its first line when it has no body field). */
export function signatureOf(node: Node, body: Node | null): string {
  const text = node.text;
  const firstLine = () => {
    const nl = text.indexOf('\n'); // not split(): a big node's text is long, only its first line matters
    return oneLine(nl === -1 ? text : text.slice(0, nl));
  };
  if (body && body.startIndex > node.startIndex)
    return (
      oneLine(text.slice(0, body.startIndex - node.startIndex))
        .replace(/[{:=]\s*$/, '')
        .trim() || firstLine()
    );
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

const LEAF_NAME = /identifier$|^constant$|^name$|^word$/;

/**
 * Two paths over the same tables. The fast one walks a TreeCursor and slices names and signatures out of the
 * source: no `Node` object is created per definition (creating and marshalling nodes across the wasm boundary
 * was most of the outline's time). Languages with hooks (`nameOf`, `bodyOf`, `custom`) take the `Node` path for
 * the nodes the hooks concern.
 */
export function outlineTree(root: Node, spec: LanguageSpec, source: string, baseDepth = 0): OutlineItem[] {
  const bodyOf = spec.bodyOf ?? ((n: Node) => n.childForFieldName('body'));
  const nameOf = spec.nameOf ?? defaultName;

  const visitNode = (node: Node, depth: number, out: OutlineItem[]): void => {
    if (spec.custom && (!spec.customTypes || spec.customTypes.has(node.type))) {
      const custom = spec.custom(node, depth, membersOfNode);
      if (custom) {
        out.push(...custom);
        return;
      }
    }
    if (spec.transparent?.has(node.type)) {
      for (const child of node.namedChildren) visitNode(child, depth, out);
      return;
    }
    if (spec.wrappers && Object.hasOwn(spec.wrappers, node.type)) {
      const field = spec.wrappers[node.type];
      const inner = field ? node.childrenForFieldName(field) : node.namedChildren;
      for (const child of inner) visitNode(child, depth, out);
      return;
    }
    const kind = Object.hasOwn(spec.defs, node.type) ? spec.defs[node.type] : undefined;
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
      children: body && spec.containers?.has(kind) && depth < MAX_DEPTH ? membersOfNode(body, depth + 1) : [],
    });
  };

  const membersOfNode = (body: Node, depth: number): OutlineItem[] => {
    const out: OutlineItem[] = [];
    for (const child of body.namedChildren) visitNode(child, depth, out);
    return out;
  };

  const cursor = root.walk();
  const lineOf = lineIndex(source);
  const table = roleTable(root.tree.language, spec);

  /** Visits the named children (of `field`, when given) of the node under the cursor; the cursor comes back. */
  const visitChildren = (depth: number, out: OutlineItem[], field: number | null): void => {
    if (!cursor.gotoFirstChild()) return;
    do {
      // One wasm call per child: the type id says both what the node is and whether it is named.
      const role = table.roles[cursor.nodeTypeId];
      if (role !== undefined && (field === null || cursor.currentFieldId === field)) visitCursor(role, depth, out);
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
  };

  const visitCursor = (role: Role, depth: number, out: OutlineItem[]): void => {
    if (role.kind === 'node') return visitNode(cursor.currentNode, depth, out);
    if (role.kind === 'through') return visitChildren(depth, out, role.field);
    const kind = role.def;
    const start = cursor.startIndex;
    const end = cursor.endIndex;
    let name: string | null = null;
    let bodyStart = -1;
    // A `:` right before the body (Python) ends the signature, so comments between it and the body stay out.
    let colonEnd = -1;
    let children: OutlineItem[] = [];
    if (cursor.gotoFirstChild()) {
      do {
        const field = cursor.currentFieldId;
        if ((field === table.nameField || field === table.propertyField) && name === null) {
          name = table.leafName[cursor.nodeTypeId]
            ? source.slice(cursor.startIndex, cursor.endIndex)
            : innermostName(cursor.currentNode);
        } else if (field === table.bodyField && bodyStart < 0) {
          bodyStart = colonEnd >= 0 ? colonEnd : cursor.startIndex;
          if (spec.containers?.has(kind) && depth < MAX_DEPTH) children = membersOfCursor(depth + 1);
        } else if (cursor.nodeTypeId === table.colonId) colonEnd = cursor.endIndex;
        else if (cursor.nodeTypeId !== table.commentId) colonEnd = -1;
      } while (cursor.gotoNextSibling());
      cursor.gotoParent();
    }
    if (!name) return;
    // Lines from offsets, in JS: two fewer wasm calls per definition than startPosition/endPosition.
    out.push({
      kind,
      name,
      line: lineOf(start),
      endLine: lineOf(end),
      signature: signatureFromSource(source, start, end, bodyStart),
      children,
    });
  };

  const membersOfCursor = (depth: number): OutlineItem[] => {
    const out: OutlineItem[] = [];
    visitChildren(depth, out, null);
    return out;
  };

  try {
    return membersOfCursor(baseDepth);
  } finally {
    cursor.delete();
  }
}

/** What the cursor walk does with a named node type: hand it to the `Node` path, look through it, or outline it. */
type Role = { kind: 'node' } | { kind: 'through'; field: number | null } | { kind: 'def'; def: string };

interface RoleTable {
  /** By node type id; undefined for anonymous types and named types the outline ignores. */
  roles: (Role | undefined)[];
  leafName: boolean[];
  nameField: number | null;
  propertyField: number | null;
  bodyField: number | null;
  /** Type ids of `:` and `comment` (-1 when the grammar has none). */
  colonId: number;
  commentId: number;
}

const roleTables = new WeakMap<Language, WeakMap<LanguageSpec, RoleTable>>();

/**
 * The spec's string tables turned into arrays by type id, once per language. Built from every id (not
 * `idForNodeType`), because an aliased node type has several ids with one name.
 */
function roleTable(language: Language, spec: LanguageSpec): RoleTable {
  let bySpec = roleTables.get(language);
  if (!bySpec) roleTables.set(language, (bySpec = new WeakMap()));
  const cached = bySpec.get(spec);
  if (cached) return cached;
  const hasDefHooks = spec.nameOf !== undefined || spec.bodyOf !== undefined;
  const table: RoleTable = {
    roles: [],
    leafName: [],
    nameField: language.fieldIdForName('name'),
    propertyField: language.fieldIdForName('property'),
    bodyField: language.fieldIdForName('body'),
    colonId: language.idForNodeType(':', false) ?? -1,
    commentId: language.idForNodeType('comment', true) ?? -1,
  };
  const field = (name: string | null) => (name === null ? null : (language.fieldIdForName(name) ?? -1));
  for (let id = 0; id < language.nodeTypeCount; id++) {
    const type = language.nodeTypeForId(id);
    if (type === null) continue;
    table.leafName[id] = LEAF_NAME.test(type);
    if (!language.nodeTypeIsNamed(id)) continue;
    if (spec.custom && (!spec.customTypes || spec.customTypes.has(type))) table.roles[id] = { kind: 'node' };
    else if (spec.transparent?.has(type)) table.roles[id] = { kind: 'through', field: null };
    else if (spec.wrappers && Object.hasOwn(spec.wrappers, type))
      table.roles[id] = { kind: 'through', field: field(spec.wrappers[type] ?? null) };
    else if (Object.hasOwn(spec.defs, type))
      table.roles[id] = hasDefHooks ? { kind: 'node' } : { kind: 'def', def: spec.defs[type]! };
  }
  bySpec.set(spec, table);
  return table;
}

/** The 1-based line of a string offset, by binary search over line starts (built on first use). */
export function lineIndex(source: string): (offset: number) => number {
  let starts: number[] | null = null;
  return (offset) => {
    if (!starts) {
      starts = [0];
      for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
    }
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/** `signatureOf` on source offsets: the text up to the body, else the first line. */
export function signatureFromSource(source: string, start: number, end: number, bodyStart: number): string {
  const firstLine = () => {
    const nl = source.indexOf('\n', start);
    return oneLine(source.slice(start, nl === -1 || nl > end ? end : nl));
  };
  if (bodyStart > start)
    return (
      oneLine(source.slice(start, bodyStart))
        .replace(/[{:=]\s*$/, '')
        .trim() || firstLine()
    );
  return firstLine();
}
