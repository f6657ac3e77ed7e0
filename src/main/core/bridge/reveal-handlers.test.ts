/**
 * `inbox:revealSecrets` against a real core (real SQLite, the scripted LLM over HTTP, the dispatcher both shells
 * use): the person's reveal opens the sealed value of a call that waits for approval, and nothing else. A malformed
 * request is refused at the boundary; an unknown id, a decided or withdrawn request, and a call without secret
 * arguments are refused with a readable message; the opened value is in the answer only, never in an event (chat or
 * inbox), a log line, the database file or a request to the model.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';
import { captureConsole, databaseHolds } from '../../../../test/helpers/leak-search';
import { dispatchCall } from './dispatch';

const SECRET = 'ghp-REVEAL-ME-0987654321';
let h: Harness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
  vi.restoreAllMocks();
  cleanupTempDirs();
});

/** The outcome as data, refusals included (the harness's `call` throws on a refusal). */
const reveal = (request: unknown) => dispatchCall(h!.core.handlers, 'inbox:revealSecrets', request);

it('opens a pending set_secret value for the person only, and refuses once the call is decided', async () => {
  const logged = captureConsole();
  h = await startHarness({
    turns: [
      { toolCalls: [{ name: 'activate_tools', arguments: { groups: ['config'] } }] },
      { toolCalls: [{ name: 'set_secret', arguments: { key: 'github.token', value: SECRET } }] },
      { text: 'Stored it.' },
    ],
  });
  const inboxEvents: unknown[] = [];
  h.core.events.subscribe('inbox', (e) => void inboxEvents.push(e));
  const session = await h.newSession();
  const settled = h.sendAndSettle(session, 'store my token');
  const asked = await h.waitForEvent('approval_required', (e) => e.tool_name === 'set_secret');
  expect(asked.arguments).not.toContain(SECRET);

  // Malformed: refused at the boundary before any handler runs.
  for (const bad of [
    {},
    { requestId: String(asked.request_id) },
    { requestId: -1 },
    { requestId: asked.request_id, reveal: true },
    null,
  ]) {
    const out = await reveal(bad);
    expect(out).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  }
  expect(await reveal({ requestId: asked.request_id + 1000 })).toMatchObject({
    ok: false,
    error: { code: 'not_found' },
  });

  const opened = await reveal({ requestId: asked.request_id });
  expect(opened).toEqual({ ok: true, result: { values: [{ path: ['value'], value: SECRET }] } });
  // Revealing decides nothing: the call still waits, with the same sealed arguments.
  const inbox = await h.call('inbox:list', {});
  expect(inbox.approvals.map((a) => a.request_id)).toEqual([asked.request_id]);
  expect(inbox.approvals[0]!.arguments).not.toContain(SECRET);

  await h.call('inbox:resolveApproval', { requestId: asked.request_id, action: 'approve', argsHash: asked.args_hash });
  await settled;
  expect(h.core.secrets.get('github.token')).toBe(SECRET);
  const after = await reveal({ requestId: asked.request_id });
  expect(after).toMatchObject({ ok: false, error: { code: 'already_decided' } });
  expect(after.ok ? '' : after.error.message).toMatch(/only while its call waits for your decision/);

  expect(JSON.stringify(h.events)).not.toContain(SECRET);
  expect(JSON.stringify(inboxEvents)).toContain('approval_requested');
  expect(JSON.stringify(inboxEvents)).not.toContain(SECRET);
  for (const request of h.llm.requests) expect(JSON.stringify(request.body)).not.toContain(SECRET);
  expect(logged.join('\n')).not.toContain(SECRET);
  expect(databaseHolds(h.core.db, h.dataDir, SECRET)).toBe(false);
});

it('refuses a withdrawn request and a pending call that has no secret argument', async () => {
  h = await startHarness({
    turns: [{ toolCalls: [{ name: 'write_file', arguments: { path: 'a.md', content: 'plain' } }] }, { text: 'ok' }],
  });
  const session = await h.newSession();
  await h.call('chat:send', { sessionId: session, content: 'write it' });
  const asked = await h.waitForEvent('pending_write');
  const out = await reveal({ requestId: asked.request_id });
  expect(out).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  expect(out.ok ? '' : out.error.message).toContain('write_file has no secret arguments');

  // Stopping the turn withdraws the request: no longer pending, so no reveal either.
  await h.call('chat:stop', { sessionId: session });
  await expect.poll(async () => (await h!.call('inbox:list', {})).approvals.length).toBe(0);
  expect(await reveal({ requestId: asked.request_id })).toMatchObject({
    ok: false,
    error: { code: 'already_decided' },
  });
});
