/**
 * The text index maps an edit found in bytes to the same character offsets, lines and columns that the decoded
 * strings give, for ASCII, two-, three- and four-byte characters (surrogate pairs), edits that change one byte
 * inside a character, and chains of edits; bytes that are not UTF-8 get no index.
 */
import { describe, expect, it } from 'vitest';
import { TextIndex } from './text-index';

const PIECES = ['a', 'bc', '\n', 'é', 'è', 'ж', '€', '中', '😀', '𝔸', '\ufeff', ';', '  ', '\r\n'];

function random(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s % n;
  };
}

function randomText(next: (n: number) => number, length: number): string {
  let text = '';
  while (text.length < length) text += PIECES[next(PIECES.length)];
  return text;
}

/** Every answer of the index against the string itself. */
function expectDescribes(index: TextIndex, text: string): void {
  expect(index.chars).toBe(text.length);
  expect(index.bytes).toBe(Buffer.byteLength(text));
  for (let offset = 0; offset <= text.length; offset++) {
    const low = text.charCodeAt(offset);
    if (low >= 0xdc00 && low <= 0xdfff) continue; // inside a surrogate pair: not a character's start
    const before = text.slice(0, offset);
    expect(index.byteOf(offset), `byteOf ${offset}`).toBe(Buffer.byteLength(before));
    expect(index.charOf(Buffer.byteLength(before)), `charOf ${offset}`).toBe(offset);
    expect(index.lineOf(offset), `lineOf ${offset}`).toBe(before.split('\n').length);
    expect(index.columnOf(offset), `columnOf ${offset}`).toBe(offset - (before.lastIndexOf('\n') + 1));
  }
}

describe('TextIndex', () => {
  it('maps bytes to characters, lines and columns on text of every character width', () => {
    const next = random(3);
    for (let round = 0; round < 20; round++) {
      const text = randomText(next, 60);
      const index = TextIndex.of(text, Buffer.from(text));
      expect(index).not.toBeNull();
      expectDescribes(index!, text);
      expect(index!.newlinesIn(0, text.length)).toBe(text.split('\n').length - 1);
    }
  });

  it('follows chains of edits made in the bytes, decoding only the changed span', () => {
    const next = random(11);
    let text = randomText(next, 200);
    let index = TextIndex.of(text, Buffer.from(text))!;
    for (let step = 0; step < 200; step++) {
      const at = next(text.length + 1);
      const cut = Math.min(text.length, at + next(6));
      let edited = text.slice(0, at) + randomText(next, next(4)) + text.slice(cut);
      if (step % 5 === 0) edited = edited.replace('é', 'è'); // the same first byte: the edit starts inside a character
      // Never split a surrogate pair: those strings have no UTF-8 form.
      if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(edited)) continue;
      const old = Buffer.from(text);
      const bytes = Buffer.from(edited);
      const edit = index.edit(old, bytes)!;
      expect(edit, `step ${step}`).not.toBeNull();
      // The changed span, in characters, is where the strings differ; its text is the new text's.
      expect(text.slice(0, edit.prefixChars)).toBe(edited.slice(0, edit.prefixChars));
      expect(text.slice(edit.oldEndChars)).toBe(edited.slice(edit.prefixChars + edit.middle.length));
      expect(edited.slice(edit.prefixChars, edit.prefixChars + edit.middle.length)).toBe(edit.middle);
      expect(Buffer.byteLength(text.slice(0, edit.prefixChars))).toBe(edit.prefixBytes);
      expect(Buffer.byteLength(text.slice(0, edit.oldEndChars))).toBe(edit.oldEndBytes);
      expectDescribes(edit.index, edited);
      text = edited;
      index = edit.index;
    }
  });

  it('gives no index and no edit for bytes that are not UTF-8', () => {
    const bad = Buffer.from([0x61, 0xff, 0x62, 0x0a]);
    expect(TextIndex.of(bad.toString('utf8'), bad)).toBeNull();
    const good = Buffer.from('ab\n');
    const index = TextIndex.of('ab\n', good)!;
    expect(index.edit(good, Buffer.from([0x61, 0xc3, 0x0a]))).toBeNull(); // a character cut short
    expect(index.edit(good, Buffer.from([0x61, 0xf0, 0x9f, 0x98, 0x0a]))).toBeNull(); // four-byte lead, three bytes
  });
});
