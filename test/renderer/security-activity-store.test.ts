/** Bypasses and the decision log through the store over the real core: revoke one, revoke all, search. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installRealBridge, type RealBridge } from './real-bridge';

let bridge: RealBridge;
let store: typeof import('../../src/renderer/src/stores/security-store-activity');
beforeAll(async () => {
  bridge = await installRealBridge();
  store = await import('../../src/renderer/src/stores/security-store-activity');
});
afterAll(() => bridge.close());

describe('activity store', () => {
  it('lists bypasses with session titles; revokes one, then all', async () => {
    const a = (await bridge.skald.chat.createSession({ title: 'Alpha' })).id;
    const b = (await bridge.skald.chat.createSession({ title: 'Beta' })).id;
    const { bypass } = bridge.core.approval;
    bypass.grant(a, { kind: 'tool', tool: 'write_todos' }, Date.now() + 60_000);
    bypass.grant(a, { kind: 'all' }, null);
    bypass.grant(b, { kind: 'all' }, null);
    await store.loadBypasses();
    const s = store.activityStore.getState();
    expect(s.bypasses).toHaveLength(3);
    expect(s.sessionTitles[a]).toBe('Alpha');
    await store.revokeBypass(s.bypasses.find((x) => x.session_id === a && x.scope.kind === 'all')!);
    expect(bypass.list().map((g) => [g.sessionId, g.scope.kind])).toEqual([
      [a, 'tool'],
      [b, 'all'],
    ]);
    await store.revokeAllBypasses();
    expect(bypass.list()).toEqual([]);
    expect(store.activityStore.getState().bypasses).toEqual([]);
  });

  it('searches the decision log and keeps only the newest search', async () => {
    await store.loadDecisions({ query: 'nothing-matches-this' });
    expect(store.activityStore.getState()).toMatchObject({ decisions: [], query: 'nothing-matches-this', error: null });
    await store.loadDecisions({ query: '' });
    expect(store.activityStore.getState().error).toBeNull();
  });
});
