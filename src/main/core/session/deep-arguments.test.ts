/**
 * Arguments nested too deep (docs/approval.md "Arguments nested too deep"), through the real session path: the
 * scripted LLM over HTTP in both wire formats, the real registry, gate and SQLite. Past `MAX_ARGUMENT_DEPTH` a call
 * fails with a message the model can act on, and the session goes on: its next request replays the call as `{}`.
 * Before, a call 3,000 levels deep was stored as sent, and every later request of the session overflowed the stack
 * restating it: the session could not be used again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';
import { MAX_ARGUMENT_DEPTH } from '../../../shared/tool-arguments';
import { TN } from '../../../shared/tool-names';

let h: Harness;
afterEach(async () => {
  await h?.close();
  cleanupTempDirs();
});

/** `{"path":"a.txt","x":[[…]]}`: the arguments object is level 1, so `levels` of arrays make it `levels + 1` deep. */
const withArrays = (levels: number) => `{"path":"a.txt","x":${'['.repeat(levels)}${']'.repeat(levels)}}`;
const TOO_DEEP = /^The arguments nest objects or arrays more than 64 levels deep\. Send them again/;

describe.each(['openai_compatible', 'anthropic'] as const)('arguments nested too deep (%s)', (providerKind) => {
  it.each([MAX_ARGUMENT_DEPTH, 3000])(
    '%i levels: the call fails with a message for the model, and the session goes on',
    async (levels) => {
      h = await startHarness({
        providerKind,
        turns: [
          { toolCalls: [{ name: TN.READ_FILE, arguments: withArrays(levels) }] },
          { text: 'noted' },
          { text: 'still here' },
        ],
      });
      const sessionId = await h.newSession();
      const first = await h.sendAndSettle(sessionId, 'go');
      const failed = first.find((e) => e.type === 'tool_error') as { error: string } | undefined;
      expect(failed?.error).toMatch(TOO_DEEP);
      expect(first.some((e) => e.type === 'tool_decision')).toBe(false); // refused before the gate
      expect(first.some((e) => e.type === 'error')).toBe(false);

      const second = await h.sendAndSettle(sessionId, 'and now?');
      expect(second.filter((e) => e.type === 'error')).toEqual([]);
      expect(second.some((e) => e.type === 'done')).toBe(true);
      // The replayed call carries `{}`; its result told the model why.
      const replayed = JSON.stringify(h.llm.requests.at(-1)!.body);
      expect(replayed).not.toContain('[[[[');
      expect(replayed).toContain('levels deep');
    },
    30_000,
  );

  it('one level less runs as sent', async () => {
    h = await startHarness({
      providerKind,
      turns: [{ toolCalls: [{ name: TN.READ_FILE, arguments: withArrays(MAX_ARGUMENT_DEPTH - 1) }] }, { text: 'done' }],
    });
    const sessionId = await h.newSession();
    const events = await h.sendAndSettle(sessionId, 'go');
    expect(events.some((e) => e.type === 'tool_decision')).toBe(true);
    expect((events.find((e) => e.type === 'tool_error') as { error: string }).error).toMatch(/a\.txt does not exist/);
  }, 30_000);

  it('deep enough to overflow the SDK itself: the request fails with a clear reason, and the next one works', async () => {
    h = await startHarness({
      providerKind,
      turns: [{ toolCalls: [{ name: TN.READ_FILE, arguments: withArrays(100_000) }] }, { text: 'fine again' }],
    });
    const sessionId = await h.newSession();
    const first = await h.sendAndSettle(sessionId, 'go');
    expect((first.find((e) => e.type === 'llm_failed') as { last_error: string }).last_error).toMatch(
      /could not be read: the stack overflowed/,
    );
    expect(first.some((e) => e.type === 'error')).toBe(false);
    const second = await h.sendAndSettle(sessionId, 'again');
    expect(second.filter((e) => e.type === 'error')).toEqual([]);
    expect(second.some((e) => e.type === 'done')).toBe(true);
  }, 30_000);
});
