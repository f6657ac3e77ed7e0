/**
 * Secrets are sealed whatever the shape of the call that carries them (docs/plugins.md "Secret arguments"): a tool
 * that may carry secrets seals every field it cannot prove public, and its arguments that are not one JSON object
 * are stored only sealed. A class: every shape below (a misspelt plugin name, a setting its schema does not have, a
 * value nested in objects and arrays, arguments cut short, with trailing text, or not an object) leaves its value in
 * no database byte (file and WAL), event, Inbox item, history card, later model request or log line. Real core, real
 * SQLite, the scripted model over HTTP; the person approves what asks.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { captureConsole, databaseHolds } from '../../../../test/helpers/leak-search';
import { cleanupTempDirs } from '../../../../test/helpers/temp';
import { TN } from '../../../shared/tool-names';
import { SEALED_WHOLE_TEXT } from './sealed-args';
import { isReservedSecretKey } from './secret-store';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  vi.restoreAllMocks();
  cleanupTempDirs();
});

const K = (n: number) => `sk-SHAPE-LEAK-${n}-9f8e7d`;

it('every shape of a secret-bearing call: the values are sealed everywhere they are kept or shown', async () => {
  const logged = captureConsole();
  h = await startHarness({
    turns: [
      { toolCalls: [{ name: 'activate_tools', arguments: { groups: ['config'] } }] },
      {
        toolCalls: [
          // A plugin name the registry does not know: every setting sealed, at any depth.
          {
            name: TN.CONFIGURE_PLUGIN,
            arguments: {
              name: 'openai-imagez',
              config: { api_key: K(1), nested: { token: K(2) }, keys: [K(3)], model: 'plain-model' },
            },
          },
          // A known plugin, a setting its schema does not have (a misspelt secret field): sealed; `model` stays plain.
          {
            name: TN.CONFIGURE_PLUGIN,
            arguments: { name: 'openai-images', config: { apikey: K(4), model: 'local-sd' } },
          },
          // set_secret whose arguments are not one JSON object: cut short, trailing text, an array.
          { name: TN.SET_SECRET, arguments: `{"key":"github.token","value":"${K(5)}"` },
          { name: TN.SET_SECRET, arguments: `{"key":"github.token","value":"${K(6)}"} and that is all` },
          { name: TN.SET_SECRET, arguments: `["${K(7)}"]` },
        ],
      },
      { text: 'Tried.' },
      { text: 'Still here.' },
    ],
  });
  const session = await h.newSession();
  const from = h.events.length;
  await h.call('chat:send', { sessionId: session, content: 'configure it' });
  const inboxTexts: string[] = [];
  const answered = new Set<number>();
  await expect
    .poll(
      async () => {
        const inbox = await h!.call('inbox:list', {});
        for (const a of inbox.approvals) {
          if (answered.has(a.request_id)) continue;
          answered.add(a.request_id);
          inboxTexts.push(JSON.stringify(a));
          await h!.call('inbox:resolveApproval', { requestId: a.request_id, action: 'approve', argsHash: a.args_hash });
        }
        return h!.events.slice(from).some((e) => e.type === 'turn_running' && !e.running);
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  await h.sendAndSettle(session, 'and now?');

  // What could not be read as arguments failed with a sentence that quotes none of it; a known plugin's plain
  // setting shows (an unknown plugin's is sealed with the rest: nothing proves it public).
  const errors = h.events.filter((e) => e.type === 'tool_error').map((e) => e.error);
  expect(errors.filter((e) => e === SEALED_WHOLE_TEXT)).toHaveLength(3);
  expect(inboxTexts.join('\n')).toContain('local-sd');

  const history = JSON.stringify(await h.call('chat:history', { sessionId: session }));
  const events = JSON.stringify(h.events);
  const requests = h.llm.requests.slice(2).map((r) => JSON.stringify(r.body));
  expect(requests.length).toBeGreaterThan(0);
  for (let n = 1; n <= 7; n++) {
    const value = K(n);
    expect(events, `events hold ${n}`).not.toContain(value);
    expect(inboxTexts.join('\n'), `the Inbox holds ${n}`).not.toContain(value);
    expect(history, `the history holds ${n}`).not.toContain(value);
    for (const body of requests) expect(body, `a later request holds ${n}`).not.toContain(value);
    expect(logged.join('\n'), `a log line holds ${n}`).not.toContain(value);
    expect(databaseHolds(h.core.db, h.dataDir, value), `the database holds ${n}`).toBe(false);
  }
});

it('reserved secret-key prefixes are reserved in any letter case', () => {
  for (const key of ['LLM.provider.1.api_key', 'Llm.x', 'MCP.server.credential', 'App.web.access_token'])
    expect(isReservedSecretKey(key), key).toBe(true);
  for (const key of ['llmx.a', 'github.token', 'mcpserver']) expect(isReservedSecretKey(key), key).toBe(false);
});
