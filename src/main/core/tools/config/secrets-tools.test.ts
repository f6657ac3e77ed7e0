/**
 * The model's secret tools against a real core and the scripted LLM: keys under the app's reserved prefixes
 * (`llm.` provider API keys, `mcp.`, `app.`) and plugins' `plugin.` keys are refused to `set_secret` before any
 * approval card, and `list_secrets` never names a reserved key (docs/plugins.md "Secrets"). An empty or null value
 * deletes; the glob filter lists matching keys only, never a value.
 */
import { afterEach, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../../test/helpers/temp';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  cleanupTempDirs();
});

const activate = { toolCalls: [{ name: 'activate_tools', arguments: { groups: ['config'] } }] };

it('refuses reserved and plugin keys before asking, and list_secrets names neither them nor any value', async () => {
  const reserved = [
    'llm.provider.1.api_key',
    'mcp.github.credential',
    'app.web.access_token',
    'plugin.openai-images.api_key',
  ];
  h = await startHarness({
    turns: [
      activate,
      {
        toolCalls: reserved.map((key, i) => ({
          id: `r${i}`,
          name: 'set_secret',
          arguments: { key, value: `attacker-${i}` },
        })),
      },
      {
        toolCalls: [
          { name: 'list_secrets', arguments: {} },
          { name: 'list_secrets', arguments: { pattern: 'git*.tok?n' } },
        ],
      },
      { text: 'done' },
    ],
  });
  // The harness's provider key lives under `llm.`; a person's secrets beside it.
  const providerKeys = h.core.secrets.list('llm.*');
  expect(providerKeys.length).toBeGreaterThan(0);
  const before = new Map(providerKeys.map((k) => [k, h!.core.secrets.get(k)]));
  h.core.secrets.set('github.token', 'ghp-person-1');
  h.core.secrets.set('gitlab.token', 'glp-person-2');
  h.core.secrets.set('slack.webhook', 'https://hooks.example/person-3');

  await h.call('approval:createRule', { tool_pattern: 'list_secrets', action: 'allow', priority: 1 });

  const session = await h.newSession();
  const events = await h.sendAndSettle(session, 'store these');
  const errors = events.filter((e) => e.type === 'tool_error');
  expect(errors).toHaveLength(4);
  for (const e of errors.slice(0, 3))
    expect(e.type === 'tool_error' && e.error).toMatch(/only the person can change them, in Settings/);
  expect(errors[3]!.type === 'tool_error' && errors[3]!.error).toMatch(/set them with configure_plugin/);
  expect(events.some((e) => e.type === 'approval_required')).toBe(false);
  for (const [k, v] of before) expect(h.core.secrets.get(k)).toBe(v);
  for (const key of reserved.slice(1)) expect(h.core.secrets.has(key)).toBe(false);

  const lists = events.flatMap((e) =>
    e.type === 'tool_done' && e.result.startsWith('{"keys"') ? [JSON.parse(e.result) as { keys: string[] }] : [],
  );
  expect(lists).toEqual([
    { keys: ['github.token', 'gitlab.token', 'slack.webhook'] },
    { keys: ['github.token', 'gitlab.token'] },
  ]);
  expect(JSON.stringify(h.llm.requests.map((r) => r.body))).not.toMatch(/ghp-person-1|glp-person-2|person-3/);
});
