import { describe, expect, it } from 'vitest';
import { canSplit, splitSource } from './split';

const functions = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `export function f${from + i}() {\n  return ${i};\n}\n`).join('\n');

function newlines(text: string): number {
  return text.split('\n').length - 1;
}

describe('splitSource', () => {
  it('cuts at a blank line before a top-level definition; the parts join back to the text', () => {
    const text = functions(300);
    const parts = splitSource(text, 'typescript', 3);
    expect(parts).toHaveLength(3);
    expect(parts.map((p) => p.text).join('')).toBe(text);
    for (const part of parts.slice(1)) expect(part.text).toMatch(/^export function f\d+\(\)/);
    for (const part of parts.slice(0, -1)) expect(part.text.endsWith('}\n\n')).toBe(true);
    let lines = 0;
    for (const part of parts) {
      expect(part.lineOffset).toBe(lines);
      lines += newlines(part.text);
    }
    // Roughly even: no part is more than twice another.
    const sizes = parts.map((p) => p.text.length);
    expect(Math.max(...sizes)).toBeLessThan(2 * Math.min(...sizes));
  });

  it('never cuts before an indented line, a line not after a blank one, or a line that starts no definition', () => {
    const body = Array.from(
      { length: 400 },
      (_, i) => `class A${i}:\n\n    def m(self):\n        pass\nx${i} = 1\n\nprint(x${i})\n`,
    ).join('');
    const text = `${body}\n\ndef last():\n    pass\n`;
    const parts = splitSource(text, 'python', 2);
    expect(parts).toHaveLength(2);
    expect(parts[1]!.text).toMatch(/^def last/); // the only column-0 definition after a blank line
  });

  it('gives the whole text back when there is nowhere to cut, or the language has no rule', () => {
    const oneClass = `class Big {\n${Array.from({ length: 500 }, (_, i) => `\n  m${i}() {}\n`).join('')}}\n`;
    expect(splitSource(oneClass, 'typescript', 2)).toEqual([{ text: oneClass, lineOffset: 0 }]);
    const java = functions(100);
    expect(canSplit('java')).toBe(false);
    expect(splitSource(java, 'java', 4)).toEqual([{ text: java, lineOffset: 0 }]);
    expect(splitSource(java, 'typescript', 1)).toHaveLength(1);
  });

  it('gives fewer parts when the cut points run out before the last ideal position', () => {
    const text = `${functions(50)}\nconst tail = [\n${'  1,\n'.repeat(20_000)}];\n`;
    const parts = splitSource(text, 'typescript', 4);
    expect(parts.length).toBeLessThan(4);
    expect(parts.map((p) => p.text).join('')).toBe(text);
  });

  it('handles CRLF files and counts their lines', () => {
    const text = functions(200).replace(/\n/g, '\r\n');
    const parts = splitSource(text, 'typescript', 2);
    expect(parts).toHaveLength(2);
    expect(parts[1]!.text).toMatch(/^export function/);
    expect(parts[1]!.lineOffset).toBe(newlines(parts[0]!.text));
  });

  it('has rules for the languages whose top level sits at column 0', () => {
    for (const id of ['python', 'javascript', 'typescript', 'tsx', 'go', 'rust'] as const)
      expect(canSplit(id), id).toBe(true);
    for (const id of ['java', 'c', 'cpp', 'ruby', 'elixir', 'json', 'yaml', 'html', 'css', 'lua', 'bash'] as const)
      expect(canSplit(id), id).toBe(false);
  });
});
