/**
 * A highlighted code block kept as data, not DOM (lib/highlight.ts keeps the last 400 painted blocks): every token's
 * text in one string, where each token ends in it, and its colour class. Three objects a block, whatever its length,
 * where the spans of a block are hundreds of DOM nodes that every full garbage collection of the page traces.
 */
import type { HighlightedLine } from './highlight.worker';

/** A token painted as a plain text node: the line break between two lines. */
export const LINE_BREAK = -2;
/** A token with no colour of its own (a span with no class). */
export const NO_CLASS = -1;

export interface PaintedBlock {
  /** Every token's text, in order, line breaks included. */
  text: string;
  /** Where each token ends in `text`. */
  ends: Uint32Array;
  /** Each token's colour class number (`hl-<n>`), NO_CLASS or LINE_BREAK. */
  classes: Int32Array;
}

/** Encodes the worker's lines; `classOf` names the class of a (light, dark) colour pair. */
export function encodeTokens(lines: HighlightedLine[], classOf: (light: string, dark: string) => number): PaintedBlock {
  const count = lines.reduce((n, line) => n + line.length, 0) + Math.max(0, lines.length - 1);
  const ends = new Uint32Array(count);
  const classes = new Int32Array(count);
  const texts: string[] = [];
  let k = 0;
  let end = 0;
  const push = (text: string, cls: number) => {
    texts.push(text);
    ends[k] = end += text.length;
    classes[k++] = cls;
  };
  lines.forEach((line, i) => {
    for (const [content, light, dark] of line) push(content, light || dark ? classOf(light, dark) : NO_CLASS);
    if (i < lines.length - 1) push('\n', LINE_BREAK);
  });
  return { text: texts.join(''), ends, classes };
}

/** The block's tokens in order: `[text, class]`, as painted (tests and the painter read the same runs). */
export function* tokenRuns(block: PaintedBlock): Generator<[string, number]> {
  let start = 0;
  for (let k = 0; k < block.ends.length; k++)
    yield [block.text.slice(start, (start = block.ends[k]!)), block.classes[k]!];
}
