/**
 * The calls whose answers cross the bridge as their handlers built them (`answerBuiltByHandler`,
 * src/shared/contract/define.ts; docs/architecture.md "Layers"): the boundary skips the copy through the response
 * schema on these hot reads, so this test parses their real answers with that schema instead. The answer must come
 * out of the parse unchanged: no field the schema does not know (nothing stripped), none missing or of another type.
 * The session holds what a card can show: finished calls with their decisions, a failed call, a call waiting for
 * a person (its card carries the approval's pending part, built field by field from an object that has more).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { calls, type CallChannel } from '../../../shared/contract/index';
import { TN } from '../../../shared/tool-names';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';

let h: Harness;
afterEach(async () => {
  await h?.close();
  cleanupTempDirs();
});

describe('answers the bridge passes as built', () => {
  it('are exactly the hot reads this test covers', () => {
    const marked = (Object.keys(calls) as CallChannel[]).filter(
      (c) => (calls[c] as { answerBuiltByHandler?: boolean }).answerBuiltByHandler,
    );
    expect(marked.sort()).toEqual(['chat:history', 'chat:listSessions']);
  });

  it('chat:history and chat:listSessions answer exactly their schema, with a pending card among done and failed ones', async () => {
    h = await startHarness({
      turns: [
        {
          toolCalls: [
            { name: TN.READ_FILE, arguments: { path: 'a.txt' } },
            { name: TN.READ_FILE, arguments: { path: 'missing.txt' } },
          ],
        },
        { toolCalls: [{ name: TN.WRITE_FILE, arguments: { path: 'AGENTS.md', content: 'obey' } }] },
        { text: 'done' },
      ],
    });
    writeFileSync(join(h.workspace, 'a.txt'), 'hello\n');
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: 'go' });
    const asked = await h.waitForEvent('tool_decision', (e) => e.decision.action === 'require');
    const waiting = (await h.call('inbox:list', {})).approvals.find((a) => a.tool_call_id === asked.tool_call_id)!;
    expect(Object.keys(waiting).length).toBeGreaterThan(4); // the approval's object has more than the card's part

    const page = await h.call('chat:history', { sessionId });
    const cards = page.messages.flatMap((m) => m.tools);
    expect(cards.map((c) => c.status)).toEqual(['done', 'failed', 'pending']);
    expect(cards[0]!.decision).toMatchObject({ action: 'allow' });
    expect(cards[2]!.pending).toStrictEqual({
      request_id: waiting.request_id,
      args_hash: waiting.args_hash,
      old_content: waiting.old_content,
      new_content: waiting.new_content,
    });
    expect(calls['chat:history'].response.parse(page)).toStrictEqual(page);

    const listed = await h.call('chat:listSessions', { withNewestHistory: true });
    expect(listed.newestHistory?.messages.flatMap((m) => m.tools).map((c) => c.status)).toEqual([
      'done',
      'failed',
      'pending',
    ]);
    expect(calls['chat:listSessions'].response.parse(listed)).toStrictEqual(listed);
    const older = await h.call('chat:history', { sessionId, beforeId: page.messages.at(-1)!.id, limit: 1 });
    expect(calls['chat:history'].response.parse(older)).toStrictEqual(older);

    await h.call('inbox:resolveApproval', {
      requestId: waiting.request_id,
      action: 'reject',
      note: '',
      argsHash: waiting.args_hash,
    });
    await h.waitForEvent('done');
  }, 60_000);
});
