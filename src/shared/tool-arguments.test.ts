/** The one reader of a call's arguments (docs/approval.md "Arguments nested too deep"). */
import { describe, expect, it } from 'vitest';
import { MAX_ARGUMENT_DEPTH, nestedDeeperThan, parseToolArguments } from './tool-arguments';

const nest = (levels: number, open = '{"a":', close = '}') => `${open.repeat(levels)}1${close.repeat(levels)}`;

describe('parseToolArguments', () => {
  it('reads an object; an empty text is no arguments', () => {
    expect(parseToolArguments('{"path":"a.txt","n":[1,{"b":2}]}')).toEqual({
      ok: true,
      args: { path: 'a.txt', n: [1, { b: 2 }] },
    });
    expect(parseToolArguments('  ')).toEqual({ ok: true, args: {} });
  });

  it('refuses what is not one JSON object, saying what to send', () => {
    expect(parseToolArguments('{"path":')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^The arguments are not valid JSON \(.+\)\. Send them again as one JSON object\.$/),
    });
    for (const raw of ['[]', '"a"', '3', 'null'])
      expect(parseToolArguments(raw)).toEqual({ ok: false, error: 'The arguments must be a JSON object.' });
  });

  it('takes exactly MAX_ARGUMENT_DEPTH levels of objects or arrays, counting the arguments object', () => {
    expect(parseToolArguments(nest(MAX_ARGUMENT_DEPTH)).ok).toBe(true);
    expect(parseToolArguments(nest(MAX_ARGUMENT_DEPTH + 1))).toEqual({
      ok: false,
      error: expect.stringMatching(/more than 64 levels deep/),
    });
    const arrays = (levels: number) => `{"x":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    expect(parseToolArguments(arrays(MAX_ARGUMENT_DEPTH - 1)).ok).toBe(true);
    expect(parseToolArguments(arrays(MAX_ARGUMENT_DEPTH)).ok).toBe(false);
  });

  it('any depth is read without recursion: 200,000 levels is refused, not a stack overflow', () => {
    expect(parseToolArguments(nest(200_000)).ok).toBe(false);
    expect(parseToolArguments(`{"x":${'['.repeat(200_000)}${']'.repeat(200_000)}}`).ok).toBe(false);
  });
});

describe('nestedDeeperThan', () => {
  it('counts only objects and arrays; long flat values are one level', () => {
    expect(nestedDeeperThan('text', 0)).toBe(false);
    expect(nestedDeeperThan({ a: Array.from({ length: 10_000 }, (_, i) => i) }, 2)).toBe(false);
    expect(nestedDeeperThan({ a: Array.from({ length: 10_000 }, (_, i) => i) }, 1)).toBe(true);
    expect(nestedDeeperThan({ a: 1, b: { c: { d: null } } }, 3)).toBe(false);
    expect(nestedDeeperThan({ a: 1, b: { c: { d: {} } } }, 3)).toBe(true);
  });
});
