/**
 * The decision on each card of a history page (src/main/core/session/history.ts, `storedDecision`): read from the
 * audit row the tool row points at, checked against the contract's shape, parsed once per distinct decision and
 * shared, frozen, by every card that holds it. Through the real bridge (`chat:history`) on a real database.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Decision } from '../../../shared/contract/approval';
import { startHarness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';
import { recordDecision } from '../approval/decisions';
import { SessionStore } from './session-store';

afterAll(cleanupTempDirs);

const RULE_ALLOW: Decision = {
  action: 'allow',
  why: { kind: 'rule', ruleId: 3, text: 'Allowed by rule 3.' },
  actor: 'policy',
};
const BY_YOU: Decision = { action: 'allow', why: { kind: 'human', text: 'Decided by you.' }, actor: 'user' };

describe('the decisions of a history page', () => {
  it('each card shows its own decision; cards with the same one share one frozen object; a damaged one reads as none', async () => {
    const h = await startHarness();
    try {
      const db = h.core.db;
      const store = new SessionStore(db);
      const sessionId = store.createSession('decisions');
      const decisions = [RULE_ALLOW, BY_YOU, RULE_ALLOW, RULE_ALLOW, BY_YOU];
      store.transaction(() => {
        const messageId = store.appendMessage({ sessionId, role: 'assistant', content: '' });
        const calls = decisions.map((_, i) => ({
          id: `call_${i}`,
          name: 'read_file',
          arguments: JSON.stringify({ path: `f${i}.txt` }),
        }));
        const keys = store.insertRoundTools(sessionId, messageId, calls);
        keys.forEach((key, i) => {
          const decisionId = recordDecision(db, { toolCallId: key, sessionId, decision: decisions[i]!, argsHash: 'h' });
          store.prepareTool(key, { effectiveArguments: calls[i]!.arguments, argsHash: 'h', decisionId });
          store.finishTool(key, 'done', 'ok');
        });
        // A sixth call whose audit row no longer reads as a decision (a why kind the contract does not know).
        const [damaged] = store.insertRoundTools(sessionId, messageId, [
          { id: 'call_x', name: 'read_file', arguments: '{}' },
        ]);
        const decisionId = recordDecision(db, { toolCallId: damaged!, sessionId, decision: RULE_ALLOW, argsHash: 'h' });
        db.prepare("UPDATE tool_decisions SET reason_kind = 'no-such-kind' WHERE id = ?").run(decisionId);
        store.prepareTool(damaged!, { effectiveArguments: '{}', argsHash: 'h', decisionId });
        store.finishTool(damaged!, 'done', 'ok');
      });

      const read = async () =>
        (await h.call('chat:history', { sessionId })).messages.flatMap((m) => m.tools.map((t) => t.decision));
      const cards = await read();
      expect(cards).toHaveLength(6);
      expect(cards.slice(0, 5)).toEqual(
        decisions.map((d) => ({ ...d, why: { ...d.why, ruleId: d.why.ruleId ?? null } })),
      );
      expect(cards[5]).toBeNull();
      expect(cards[0]).toBe(cards[2]);
      expect(cards[2]).toBe(cards[3]);
      expect(cards[1]).toBe(cards[4]);
      expect(cards[0]).not.toBe(cards[1]);
      // Shared, so no reader may change it for the others.
      expect(Object.isFrozen(cards[0])).toBe(true);
      expect(Object.isFrozen(cards[0]!.why)).toBe(true);
      // A second read of the page gets the same objects.
      const again = await read();
      expect(again[0]).toBe(cards[0]);
      expect(again[5]).toBeNull();
    } finally {
      await h.close();
    }
  });
});
