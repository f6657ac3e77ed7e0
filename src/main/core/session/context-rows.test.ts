/**
 * A round of a long session reads the tail of its history, not the whole of it (docs/architecture.md "Performance
 * targets"): `contextRows` fetches one row past the cap and must pick exactly the rows the whole history would give
 * (every row since the `/clear` point, queued ones and the person's failed messages left out, then capped at a user
 * message). Checked on generated sessions mixing roles, failed and queued messages, sub-agent rows and a `/clear`
 * point, against that definition computed from every row; and the query stays on its index.
 */
import fc from 'fast-check';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { StackStore } from '../agents/stack-store';
import { openDatabase } from '../db/database';
import { capHistory, contextRows, HISTORY_CAP } from './context';
import { HISTORY_SQL, SessionStore } from './session-store';

afterAll(cleanupTempDirs);

const oneIn = (n: number) => fc.nat(n - 1).map((v) => v === 0);
const row = fc.record({
  role: fc.constantFrom('user', 'assistant', 'assistant', 'agent'),
  failed: oneIn(7),
  queued: oneIn(10),
  child: oneIn(10),
});

describe('the rows a model request replays', () => {
  const db = openDatabase({ file: join(tempDir(), 'context.db') });
  const store = new SessionStore(db);
  const stacks = new StackStore(db);

  it('are the tail the whole history would give, for generated sessions', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 120 }).chain((n) => fc.array(row, { minLength: n, maxLength: n })),
        fc.oneof(fc.constant(-1), fc.nat(120)),
        (rows, clearAt) => {
          const sessionId = store.createSession('generated');
          const stackId = stacks.open({
            sessionId,
            agentId: 'helper',
            prompt: 'p',
            depth: 1,
            parentToolCallId: `tc_${sessionId}`,
          });
          const ids = store.transaction(() =>
            rows.map((r) =>
              store.appendMessage({
                sessionId,
                stackId: r.child ? stackId : null,
                role: r.role as 'user',
                content: 'x',
                status: r.failed ? 'failed' : 'ok',
                queued: r.queued,
              }),
            ),
          );
          const from = clearAt < 0 ? 0 : (ids[Math.min(clearAt, ids.length - 1)] ?? 0); // -1: no /clear
          for (const stack of [null, stackId]) {
            const whole = store
              .contextMessages(sessionId, from, stack)
              .filter((m) => !(m.role !== 'assistant' && m.status === 'failed'));
            const expected = capHistory(whole, HISTORY_CAP).map((m) => m.id);
            expect(contextRows(store, { sessionId, contextStartId: from, stackId: stack }).map((m) => m.id)).toEqual(
              expected,
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('read through the session-and-stack index', () => {
    const plan = (
      db.prepare(`EXPLAIN QUERY PLAN ${HISTORY_SQL.recentContext}`).all(1, null, 0, HISTORY_CAP + 1) as {
        detail: string;
      }[]
    )
      .map((r) => r.detail)
      .join('\n');
    expect(plan).toMatch(
      /SEARCH chat_history USING INDEX chat_history_session_stack \(session_id=\? AND stack_id=\? AND id>\?\)/,
    );
    expect(plan).not.toMatch(/\bSCAN chat_history\b/);
  });
});
