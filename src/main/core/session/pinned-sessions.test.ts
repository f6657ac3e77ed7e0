/**
 * Pinned chats (docs/chat-ui.md "Sessions") through the real core's boundary and real SQLite: pinning keeps the chat's
 * last activity as it was (the list puts pinned chats first by the pin's time), unpinning clears it, and a call for a
 * chat that does not exist, or with a bad argument, is refused at the boundary.
 */
import { afterEach, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';

let h: Harness;
afterEach(async () => {
  await h?.close();
  cleanupTempDirs();
});

it('pins and unpins a chat without touching its last activity; refuses what is not a chat', async () => {
  h = await startHarness();
  const sessionId = await h.newSession();
  const listed = async () => (await h.call('chat:listSessions', {})).sessions.find((s) => s.id === sessionId)!;
  const before = await listed();
  expect(before.pinned_at).toBeNull();
  await h.call('chat:pinSession', { sessionId, pinned: true });
  const pinned = await listed();
  expect(pinned.pinned_at).toEqual(expect.any(Number));
  expect(pinned.updated_at).toBe(before.updated_at);
  await h.call('chat:pinSession', { sessionId, pinned: false });
  expect((await listed()).pinned_at).toBeNull();
  await expect(h.call('chat:pinSession', { sessionId: 999_999, pinned: true })).rejects.toThrow(/\[not_found\]/);
  await expect(h.call('chat:pinSession', { sessionId, pinned: 'yes' } as never)).rejects.toThrow(/\[bad_request\]/);
});
