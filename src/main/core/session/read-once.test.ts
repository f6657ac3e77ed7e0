/**
 * A tool call's arguments on the session's path (docs/architecture.md "The path of one tool call"): read from the
 * model's text once, for the labels of `tool_start` and for the run alike, and serialized once: the text stored
 * and shown (`effective_arguments`, the `tool_decision` event's arguments) is the canonical JSON whose hash binds an
 * approval (`args_hash`).
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';
import { defineTool } from '../tools/index';

const reads = vi.hoisted(() => ({ texts: [] as string[] }));
vi.mock('../../../shared/tool-arguments', async (original) => {
  const real = await original<typeof import('../../../shared/tool-arguments')>();
  return {
    ...real,
    parseToolArguments: (raw: string) => {
      reads.texts.push(raw);
      return real.parseToolArguments(raw);
    },
  };
});

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  cleanupTempDirs();
});

describe("a call's arguments on its way", () => {
  it('are read once, and stored, shown and hashed as one canonical text', async () => {
    const args = { zeta: 'last', alpha: 1, middle: { b: 2, a: [1, { d: 4, c: 3 }] } };
    h = await startHarness({
      turns: [{ text: 'Reading.', toolCalls: [{ name: 'noop_args', arguments: args }] }, { text: 'Done.' }],
    });
    h.core.tools.register(
      defineTool({
        name: 'noop_args',
        description: 'Does nothing.',
        kind: 'read',
        category: 'introspection',
        input: z.object({ zeta: z.string(), alpha: z.number(), middle: z.unknown() }),
        execute: () => 'ok',
      }),
    );
    h.core.approval.rules.createRule({ tool_pattern: 'noop_args', action: 'allow', priority: 1 });
    const text = JSON.stringify(args); // what the scripted model sent
    let readsByDone = -1;
    h.core.events.subscribe('chat', (e) => {
      if (e.type === 'tool_done') readsByDone = reads.texts.filter((t) => t === text).length;
    });
    const sessionId = await h.newSession();
    reads.texts.length = 0;
    await h.sendAndSettle(sessionId, 'go');
    // Once up to the call's result: the round's labels and the run share the reading (the next round's context, which
    // replays the call to the model, reads it again).
    expect(h.events.find((e) => e.type === 'tool_start')).toMatchObject({ arguments: text, label_short: 'noop_args' });
    expect(readsByDone).toBe(1);
    const canonical = '{"alpha":1,"middle":{"a":[1,{"c":3,"d":4}],"b":2},"zeta":"last"}';
    const row = h.core.db
      .prepare('SELECT effective_arguments, args_hash FROM chat_llm_tools WHERE name = ?')
      .get('noop_args') as { effective_arguments: string; args_hash: string };
    expect(row.effective_arguments).toBe(canonical);
    expect(row.args_hash).toBe(createHash('sha256').update(canonical).digest('hex'));
    expect(h.events.find((e) => e.type === 'tool_decision')).toMatchObject({ arguments: canonical });
  });
});
