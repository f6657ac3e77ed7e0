/**
 * A card's two labels (short and full) come from one parse of the same arguments object: a history page builds a
 * hundred cards (docs/performance.md "Long sessions"). Arguments of another call are parsed for themselves.
 * A tool's JSON Schema is built at first use and then handed out as one frozen object, every round.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define-tool';
import { SettledExecution } from './execution';

/** A read tool labelled by its path, whose schema runs `check` each time it parses arguments. */
function labelProbe(check: (args: { path: string }, ctx: z.RefinementCtx) => void) {
  return defineTool({
    name: 'label_probe',
    description: 'Labels.',
    kind: 'read',
    category: 'introspection',
    input: z.object({ path: z.string() }).superRefine(check),
    describe: (args, length) => (length === 'short' ? `read ${args.path}` : `read the file ${args.path}`),
    execute: () => 'ok',
  });
}

describe('defineTool labels', () => {
  it('parses a call once for both of its labels, each call for its own, and keeps none past its full label', () => {
    let parses = 0;
    const tool = labelProbe(() => void parses++);
    const a = { path: 'a.txt' };
    expect(tool.describe(a, 'short')).toBe('read a.txt');
    expect(tool.describe(a, 'full')).toBe('read the file a.txt');
    expect(parses).toBe(1);
    expect(tool.describe({ path: 'b.txt' }, 'full')).toBe('read the file b.txt');
    expect(parses).toBe(2);
    expect(tool.describe(a, 'short')).toBe('read a.txt'); // the full label let go of the kept check
    expect(parses).toBe(3);
    expect(tool.describe({ path: 7 }, 'short')).toBe('label_probe'); // unparseable: the bare name
  });

  it("checks a call's arguments once for its gate, its card and its run, in either order; refused ones too", () => {
    let parses = 0;
    const tool = labelProbe((args, check) => {
      parses++;
      if (args.path === 'bad') check.addIssue({ code: 'custom', message: 'a bad path' });
    });
    const ctx = { workingDir: '/ws', workspaceDir: '/ws', signal: new AbortController().signal, log: () => {} };
    // A round's first call: normalized for the gate, then its card, then its run.
    const first = { path: 'a.txt' };
    const normalized = tool.normalize(first, '/ws');
    expect(normalized).toEqual({ ok: true, args: { path: '/ws/a.txt' } });
    expect(tool.describe(first, 'short')).toBe('read a.txt'); // what the model wrote, not the resolved path
    expect(tool.describe(first, 'full')).toBe('read the file a.txt');
    expect((tool.run(normalized.ok ? normalized.args : {}, ctx as never) as SettledExecution).outcome.kind).toBe(
      'completed',
    );
    expect(parses).toBe(1);
    // A later call of the round: its card first, then normalized and run.
    const later = { path: 'b.txt' };
    expect(tool.describe(later, 'short')).toBe('read b.txt');
    expect(tool.describe(later, 'full')).toBe('read the file b.txt');
    const n2 = tool.normalize(later, '/ws');
    tool.run(n2.ok ? n2.args : {}, ctx as never);
    expect(parses).toBe(3); // the full label let go of the check: the gate's is the second, the run reads the form
    // Refused arguments: the bare name, from the gate's check.
    const bad = { path: 'bad' };
    expect(tool.normalize(bad, '/ws').ok).toBe(false);
    expect(tool.describe(bad, 'short')).toBe('label_probe');
    expect(parses).toBe(4);
    // Another object with the same text is checked for itself.
    expect(tool.describe({ path: 'a.txt' }, 'short')).toBe('read a.txt');
    expect(parses).toBe(5);
  });

  it('gives the bare name where a check throws or is asynchronous, and leaves no rejection behind', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => void rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const common = {
        description: 'Labels.',
        kind: 'read' as const,
        category: 'introspection' as const,
        describe: () => 'a label',
        execute: () => 'ok',
      };
      const throwing = defineTool({
        ...common,
        name: 'throwing_probe',
        input: z.object({ path: z.string() }).transform((): { path: string } => {
          throw new Error('boom');
        }),
      });
      const later = defineTool({
        ...common,
        name: 'async_probe',
        input: z.object({ path: z.string() }).refine(async () => true),
      });
      expect(throwing.describe({ path: 'a.txt' }, 'short')).toBe('throwing_probe');
      expect(later.describe({ path: 'a.txt' }, 'full')).toBe('async_probe');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });
});

describe('defineTool schema', () => {
  it('builds the schema once, hands out the same frozen object, and refuses a non-object input at first use', () => {
    const tool = defineTool({
      name: 'schema_probe',
      description: 'Schema.',
      kind: 'read',
      category: 'introspection',
      input: z.object({ path: z.string(), opts: z.object({ deep: z.boolean() }) }),
      execute: () => 'ok',
    });
    const first = tool.openaiDefinition().function.parameters;
    expect(tool.parametersSchema()).toBe(first);
    expect(tool.openaiDefinition().function.parameters).toBe(first);
    expect(first).toMatchObject({ type: 'object', required: ['path', 'opts'] });
    const deep = (first.properties as Record<string, Record<string, unknown>>).opts!;
    expect(Object.isFrozen(first) && Object.isFrozen(deep) && Object.isFrozen(deep.properties)).toBe(true);
    expect(() => ((deep as { type: string }).type = 'string')).toThrow(TypeError);

    const scalar = defineTool({
      name: 'scalar_probe',
      description: 'Scalar.',
      kind: 'read',
      category: 'introspection',
      input: z.string(),
      execute: () => 'ok',
    });
    expect(() => scalar.parametersSchema()).toThrow('must be a JSON object schema');
  });
});

describe('defineTool runs', () => {
  const ctx = (signal: AbortSignal) => ({ workingDir: '/w', workspaceDir: '/w', signal, log: () => undefined });

  it('runs the normalized form it made as it is (one parse on the session path), and raw arguments normalized', async () => {
    let parses = 0;
    const seen: unknown[] = [];
    const tool = defineTool({
      name: 'parse_probe',
      description: 'Counts parses.',
      kind: 'read',
      category: 'introspection',
      input: z.object({ path: z.string() }).superRefine(() => void parses++),
      execute: (args) => (seen.push(args), 'ok'),
    });
    const normalized = tool.normalize({ path: 'a.txt' }, '/w');
    if (!normalized.ok) throw new Error(normalized.error);
    expect(parses).toBe(1);
    expect(await tool.run(normalized.args, ctx(new AbortController().signal)).wait()).toEqual({
      kind: 'completed',
      result: 'ok',
    });
    expect(parses).toBe(1);
    expect(seen[0]).toBe(normalized.args);
    // Anything else (an object equal to it, raw arguments) is parsed: the shortcut is for the very object.
    await tool.run({ path: 'a.txt' }, ctx(new AbortController().signal)).wait();
    expect(parses).toBe(2);
    expect(seen[1]).toEqual({ path: '/w/a.txt' });
  });

  it('settles sync work as it runs: nothing listens to the turn signal, and a stopped turn runs nothing', async () => {
    let runs = 0;
    const tool = defineTool({
      name: 'sync_probe',
      description: 'Sync.',
      kind: 'edit',
      category: 'introspection',
      input: z.object({}),
      execute: () => (runs++, 'ok'),
    });
    const turn = new AbortController();
    const exec = tool.run({}, ctx(turn.signal));
    expect(exec).toBeInstanceOf(SettledExecution); // holds its outcome alone: no stop token, no listener
    expect(exec.state()).toBe('completed');
    expect(runs).toBe(1);
    expect(await exec.wait()).toEqual({ kind: 'completed', result: 'ok' });
    // Its `executeAsync` (what a walk's tests call) runs the same work.
    expect(await tool.executeAsync({}, ctx(turn.signal))).toEqual({ kind: 'completed', result: 'ok' });
    expect(runs).toBe(2);
    turn.abort();
    const stopped = tool.run({}, ctx(turn.signal));
    expect(await stopped.wait()).toEqual({ kind: 'cancelled' });
    expect(runs).toBe(2);
  });
});
