/**
 * A card's two labels (short and full) come from one parse of the same arguments object: a history page builds a
 * hundred cards (docs/architecture.md "Long sessions"). Arguments of another call are parsed for themselves.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define-tool';

describe('defineTool labels', () => {
  it('parses a call once for both of its labels, and each call for its own', () => {
    let parses = 0;
    const tool = defineTool({
      name: 'label_probe', description: 'Labels.', kind: 'read', category: 'introspection',
      input: z.object({ path: z.string() }).superRefine(() => void parses++),
      describe: (args, length) => (length === 'short' ? `read ${args.path}` : `read the file ${args.path}`),
      execute: () => 'ok',
    });
    const a = { path: 'a.txt' };
    expect(tool.describe(a, 'short')).toBe('read a.txt');
    expect(tool.describe(a, 'full')).toBe('read the file a.txt');
    expect(parses).toBe(1);
    expect(tool.describe({ path: 'b.txt' }, 'full')).toBe('read the file b.txt');
    expect(parses).toBe(2);
    expect(tool.describe({ path: 7 }, 'short')).toBe('label_probe'); // unparseable: the bare name
  });
});
