/**
 * The outline tables of the data and markup languages (`languages.ts` has the others): a JSON object's keys, a YAML
 * mapping's keys, HTML's headings, landmarks and elements with an id, CSS's rules and at-rules.
 */
import type { Node } from 'web-tree-sitter';
import { oneLine, type LanguageSpec, type OutlineItem } from './extract';

export const json: LanguageSpec = {
  defs: {},
  custom: (node) => {
    if (node.type !== 'object' && node.type !== 'array') return null;
    if (node.type === 'array')
      return [
        {
          kind: 'array',
          name: `[${node.namedChildren.length} items]`,
          line: node.startPosition.row + 1,
          endLine: node.endPosition.row + 1,
          signature: '[…]',
          children: [],
        },
      ];
    return node.namedChildren
      .filter((p) => p.type === 'pair')
      .map((p) => {
        const key = p.childForFieldName('key');
        const name = key ? key.text.replace(/^"|"$/g, '') : '';
        const value = p.childForFieldName('value');
        return {
          kind: value?.type ?? 'key',
          name,
          line: p.startPosition.row + 1,
          endLine: p.endPosition.row + 1,
          signature: oneLine(
            `${key?.text ?? ''}: ${value?.type === 'object' ? '{…}' : value?.type === 'array' ? '[…]' : (value?.text ?? '')}`,
          ),
          children: [],
        };
      });
  },
};

export const yaml: LanguageSpec = {
  defs: {},
  transparent: new Set(['stream', 'document', 'block_node', 'flow_node']),
  custom: (node) => {
    if (node.type !== 'block_mapping' && node.type !== 'flow_mapping') return null;
    return node.namedChildren
      .filter((p) => p.type === 'block_mapping_pair' || p.type === 'flow_pair')
      .map((p) => {
        const key = p.childForFieldName('key');
        return {
          kind: 'key',
          name: key?.text ?? '',
          line: p.startPosition.row + 1,
          endLine: p.endPosition.row + 1,
          signature: oneLine(p.text.split('\n')[0]!),
          children: [],
        };
      })
      .filter((i) => i.name !== '');
  },
};

function htmlItems(nodes: readonly Node[], depth: number): OutlineItem[] {
  const out: OutlineItem[] = [];
  for (const child of nodes) {
    if (child.type !== 'element' && child.type !== 'script_element' && child.type !== 'style_element') continue;
    const start = child.namedChildren.find((c) => c.type === 'start_tag' || c.type === 'self_closing_tag');
    const tag = start?.namedChildren.find((c) => c.type === 'tag_name')?.text ?? child.type;
    const id = start?.namedChildren
      .find((a) => a.type === 'attribute' && a.namedChildren[0]?.text === 'id')
      ?.namedChildren[1]?.text.replace(/^["']|["']$/g, '');
    const isHeading = /^h[1-6]$/i.test(tag);
    const isLandmark =
      /^(html|head|body|main|header|footer|nav|section|article|aside|form|script|style|template)$/i.test(tag);
    const inner = depth < 6 ? htmlItems(child.namedChildren, depth + 1) : [];
    if (id || isHeading || isLandmark) {
      const name = isHeading ? oneLine(child.text.replace(/<[^>]*>/g, '')) : id ? `${tag}#${id}` : tag;
      out.push({
        kind: tag.toLowerCase(),
        name,
        line: child.startPosition.row + 1,
        endLine: child.endPosition.row + 1,
        signature: oneLine(start?.text ?? tag),
        children: inner,
      });
    } else out.push(...inner);
  }
  return out;
}

export const html: LanguageSpec = { defs: {}, custom: (node) => htmlItems([node], 0) };

export const css: LanguageSpec = {
  defs: {
    rule_set: 'rule',
    media_statement: '@media',
    keyframes_statement: '@keyframes',
    supports_statement: '@supports',
    at_rule: '@rule',
    import_statement: '@import',
  },
  containers: new Set(['@media', '@supports']),
  bodyOf: (n) => n.namedChildren.find((c) => c.type === 'block' || c.type === 'keyframe_block_list') ?? null,
  nameOf: (n) => {
    if (n.type === 'rule_set') return oneLine(n.namedChildren.find((c) => c.type === 'selectors')?.text ?? '');
    if (n.type === 'keyframes_statement') return n.namedChildren.find((c) => c.type === 'keyframes_name')?.text ?? null;
    const body = n.namedChildren.find((c) => c.type === 'block');
    return oneLine(body ? n.text.slice(0, body.startIndex - n.startIndex) : n.text.split('\n')[0]!);
  },
};
