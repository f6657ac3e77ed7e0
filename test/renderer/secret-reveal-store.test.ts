/**
 * The approvals store's reveal of a secret argument (docs/plugins.md "Revealing a secret argument"), against a real
 * core over the renderer's real boundary: masked until the person asks; the opened value is kept by request id while
 * the call waits, dropped on Hide, on the decision, and never kept for a request that is no longer pending.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildSkaldApi } from '../../src/shared/contract/api';
import { MASK, showSealedJson } from '../../src/shared/sealed';
import { dispatchCall } from '../../src/main/core/bridge/dispatch';
import { startHarness, type Harness } from '../helpers/core-harness';
import { cleanupTempDirs } from '../helpers/temp';

const SECRET = 'sk-SHOWN-ONLY-ON-CLICK-77';
let h: Harness;

const g = globalThis as unknown as { window: { skaldBridge: unknown; location: unknown } };
g.window = {
  location: { search: '' },
  skaldBridge: buildSkaldApi({
    invoke: async (channel, request) => structuredClone(await dispatchCall(h.core.handlers, channel, request)),
    subscribe: (family, listener) => h.core.events.subscribe(family as 'inbox', listener as never),
  }),
};
const { approvals, revealedFor } = await import('../../src/renderer/src/stores/approvals');

beforeAll(async () => {
  h = await startHarness({
    turns: [
      { toolCalls: [{ name: 'activate_tools', arguments: { groups: ['config'] } }] },
      { toolCalls: [{ name: 'set_secret', arguments: { key: 'service.key', value: SECRET } }] },
      { text: 'Stored.' },
    ],
  });
});
afterAll(async () => {
  await h.close();
  cleanupTempDirs();
});

it('shows the value only between Reveal and Hide or the decision', async () => {
  const session = await h.newSession();
  const settled = h.sendAndSettle(session, 'keep this key');
  const stop = approvals.watch();
  try {
    await expect.poll(() => approvals.store.getState().approvals.length, { timeout: 20_000 }).toBe(1);
    const item = approvals.store.getState().approvals[0]!;
    expect(item.arguments).not.toContain(SECRET);
    expect(revealedFor(approvals.store.getState(), item.request_id)).toBeNull();
    expect(JSON.parse(showSealedJson(item.arguments)).value).toBe(MASK);

    await approvals.reveal(item.request_id);
    const values = revealedFor(approvals.store.getState(), item.request_id)!;
    expect(JSON.parse(showSealedJson(item.arguments, values)).value).toBe(SECRET);
    // A refresh while still pending keeps it; Hide drops it.
    await approvals.refresh();
    expect(revealedFor(approvals.store.getState(), item.request_id)).toEqual(values);
    approvals.hide(item.request_id);
    expect(revealedFor(approvals.store.getState(), item.request_id)).toBeNull();

    // Revealed again, then decided: the value goes with the card.
    await approvals.reveal(item.request_id);
    expect(revealedFor(approvals.store.getState(), item.request_id)).not.toBeNull();
    await approvals.resolve(item, { action: 'approve', note: '' });
    expect(approvals.store.getState().revealed).toEqual({});
    await settled;

    // Decided: the core refuses, and the store keeps nothing.
    await expect(approvals.reveal(item.request_id)).rejects.toThrow(/no longer pending/);
    expect(approvals.store.getState().revealed).toEqual({});
    expect(h.core.secrets.get('service.key')).toBe(SECRET);
  } finally {
    stop();
  }
});
