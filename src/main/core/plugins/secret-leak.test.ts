/**
 * A secret the model stores with `set_secret` leaves no plaintext anywhere but the secret store's sealed value:
 * not the database file or its WAL, not an event the renderer sees, not a later request to the model, not a log
 * line. Real core, real SQLite, the scripted LLM over HTTP; the person approves the call through the Inbox.
 * Also: `set_secret` always asks, even under an allow rule, and its card offers no bypass.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';
import { captureConsole, databaseHolds } from '../../../../test/helpers/leak-search';

const SECRET = 'ghp-PLAINTEXT-1234567890-abcdef';
let h: Harness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
  vi.restoreAllMocks();
  cleanupTempDirs();
});

it('a secret set by the model appears in no database byte, event, model request or log line', async () => {
  const logged = captureConsole();
  h = await startHarness({
    turns: [
      // Config tools are a lazy group (docs/agents.md "activate_tools"): activated first, offered from the next round.
      { toolCalls: [{ name: 'activate_tools', arguments: { groups: ['config'] } }] },
      { toolCalls: [{ name: 'set_secret', arguments: { key: 'github.token', value: SECRET } }] },
      { text: 'Stored it.' },
      { text: 'Still here.' },
    ],
  });
  // Even an explicit allow rule does not lift "set_secret always asks".
  await h.call('approval:createRule', { tool_pattern: 'set_secret', action: 'allow', priority: 1 });
  const session = await h.newSession();
  const settled = h.sendAndSettle(session, 'store my token');
  const asked = await h.waitForEvent('approval_required', (e) => e.tool_name === 'set_secret');
  expect(asked.arguments).not.toContain(SECRET);
  // No bypass is offered (none could stop it asking next time), and one asked for anyway is refused.
  const [item] = (await h.call('inbox:list', {})).approvals;
  expect(item!.bypass_options).toEqual([]);
  await expect(
    h.call('inbox:resolveApproval', {
      requestId: asked.request_id,
      action: 'approve',
      argsHash: asked.args_hash,
      bypassSecs: 900,
      bypassScope: 'all',
    }),
  ).rejects.toThrow(/No bypass is offered for set_secret/);
  await h.call('inbox:resolveApproval', { requestId: asked.request_id, action: 'approve', argsHash: asked.args_hash });
  await settled;
  expect(h.core.secrets.get('github.token')).toBe(SECRET);
  await h.sendAndSettle(session, 'and now?');
  expect(h.llm.requests.length).toBe(4); // activate_tools, set_secret, the answer, the next turn

  const events = JSON.stringify(h.events);
  expect(events).toContain('set_secret');
  expect(events).not.toContain(SECRET);
  for (const request of h.llm.requests.slice(1)) {
    const body = JSON.stringify(request.body);
    expect(body).toContain('github.token'); // the call is in the history the model sees …
    expect(body).not.toContain(SECRET); // … without its value
  }
  const history = await h.call('chat:history', { sessionId: session });
  expect(JSON.stringify(history)).not.toContain(SECRET);
  expect(logged.join('\n')).not.toContain(SECRET);

  expect(databaseHolds(h.core.db, h.dataDir, SECRET)).toBe(false);
  const dbFile = join(h.dataDir, 'skald.db');
  await h.close();
  h = undefined;
  expect(readFileSync(dbFile).includes(Buffer.from(SECRET))).toBe(false);
});

it("a plugin's secret field set by the model with configure_plugin is sealed the same way, and revealed only on the card", async () => {
  const logged = captureConsole();
  const KEY = 'sk-PLUGIN-PLAINTEXT-5551234';
  h = await startHarness({
    turns: [
      { toolCalls: [{ name: 'activate_tools', arguments: { groups: ['config'] } }] },
      {
        toolCalls: [
          {
            name: 'configure_plugin',
            arguments: { name: 'openai-images', config: { api_key: KEY, model: 'local-sd' } },
          },
        ],
      },
      { toolCalls: [{ name: 'list_items', arguments: { type: 'plugins' } }] },
      { text: 'Configured.' },
    ],
  });
  const session = await h.newSession();
  const settled = h.sendAndSettle(session, 'set up images');
  const asked = await h.waitForEvent('approval_required', (e) => e.tool_name === 'configure_plugin');
  expect(asked.arguments).toContain('local-sd');
  expect(asked.arguments).not.toContain(KEY);
  const opened = await h.call('inbox:revealSecrets', { requestId: asked.request_id });
  expect(opened.values).toEqual([{ path: ['config', 'api_key'], value: KEY }]);
  await h.call('inbox:resolveApproval', { requestId: asked.request_id, action: 'approve', argsHash: asked.args_hash });
  await settled;
  expect(h.core.secrets.get('plugin.openai-images.api_key')).toBe(KEY);
  expect((await h.call('plugins:list', {})).plugins.find((p) => p.name === 'openai-images')!.config.model).toBe(
    'local-sd',
  );

  expect(JSON.stringify(h.events)).toContain('api_key'); // list_items names the field that is set …
  expect(JSON.stringify(h.events)).not.toContain(KEY); // … never its value
  for (const request of h.llm.requests) expect(JSON.stringify(request.body)).not.toContain(KEY);
  expect(JSON.stringify(await h.call('chat:history', { sessionId: session }))).not.toContain(KEY);
  expect(logged.join('\n')).not.toContain(KEY);
  expect(databaseHolds(h.core.db, h.dataDir, KEY)).toBe(false);
});
