/**
 * A plugin's tools through the whole app (docs/plugins.md "Plugins", Tools): offered to the model only while the
 * plugin is enabled, recorded by tool discovery (`known_tools`) the first time they are offered, so the Security
 * page lists them and a rule gates them before the model ever calls one; still listed after the plugin is disabled.
 * Real core, real SQLite, the scripted LLM over HTTP; the plugin is a test definition added to the shipped ones.
 */
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';
import { defineTool } from '../tools/define-tool';
import { definePlugin } from './index';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  cleanupTempDirs();
});

const weather = definePlugin({
  name: 'weather',
  title: 'Weather',
  description: 'test plugin with one tool',
  configSchema: z.object({ city: z.string().default('Oslo') }),
  secretFields: [],
  createTools: (config) => [
    defineTool({
      name: 'weather_now',
      description: 'The weather now.',
      input: z.object({}),
      kind: 'read',
      category: 'introspection',
      isIdempotent: true,
      execute: () => `Sunny in ${config.city}.`,
    }),
  ],
});

const offered = (h: Harness, i: number) =>
  ((h.llm.requests[i]!.body.tools as { function: { name: string } }[]) ?? []).map((t) => t.function.name);

it('offered while enabled, known to the Security page from its first offer, gated by a rule before any call', async () => {
  h = await startHarness({
    extraPlugins: [weather],
    turns: [
      { text: 'before' },
      { text: 'offered now' },
      { toolCalls: [{ name: 'weather_now', arguments: {} }] },
      { text: 'denied, fine' },
    ],
  });
  const session = await h.newSession();
  await h.sendAndSettle(session, 'one');
  expect(offered(h, 0)).not.toContain('weather_now');
  const listed = () => h!.call('approval:listTools', {});
  expect(JSON.stringify(await listed())).not.toContain('weather_now');

  await h.call('plugins:setEnabled', { name: 'weather', enabled: true });
  await h.sendAndSettle(session, 'two');
  expect(offered(h, 1)).toContain('weather_now');
  expect((await listed()).built_in.map((t) => t.name)).toContain('weather_now');

  // The person gates it before the model's first call.
  await h.call('approval:createRule', { tool_pattern: 'weather_now', action: 'deny', priority: 1 });
  const events = await h.sendAndSettle(session, 'three');
  // A Deny rule hides it from the offer, and the call is refused unrun.
  expect(offered(h, 2)).not.toContain('weather_now');
  expect(events.some((e) => e.type === 'tool_done')).toBe(false);
  expect(events.find((e) => e.type === 'tool_error')).toMatchObject({
    error: expect.stringMatching(/"weather_now" is not available to you here/),
  });

  // Disabled: no longer offered, still known (discovery), so its rule stays meaningful on the Security page.
  await h.call('plugins:setEnabled', { name: 'weather', enabled: false });
  await expect.poll(async () => (await listed()).dynamic.map((t) => t.name)).toContain('weather_now');
});

it('the model enables a plugin with toggle_item(kind=plugin) once the person approves; list_items shows it; an unknown plugin is a readable error', async () => {
  h = await startHarness({
    extraPlugins: [weather],
    turns: [
      { toolCalls: [{ name: 'activate_tools', arguments: { groups: ['config'] } }] },
      {
        toolCalls: [
          { id: 'ghost', name: 'toggle_item', arguments: { kind: 'plugin', name: 'ghost', enabled: true } },
          { id: 'on', name: 'toggle_item', arguments: { kind: 'plugin', name: 'weather', enabled: true } },
        ],
      },
      {
        toolCalls: [
          { id: 'list', name: 'list_items', arguments: { type: 'plugins' } },
          { id: 'use', name: 'weather_now', arguments: {} },
        ],
      },
      { text: 'It is sunny.' },
    ],
  });
  await h.call('approval:createRule', { tool_pattern: 'weather_now', action: 'allow', priority: 1 });
  const session = await h.newSession();
  const settled = h.sendAndSettle(session, 'turn on the weather plugin');
  const seen = new Set<number>();
  for (let i = 0; i < 2; i++) {
    const asked = await h.waitForEvent(
      'approval_required',
      (e) => e.tool_name === 'toggle_item' && !seen.has(e.request_id),
    );
    seen.add(asked.request_id);
    await h.call('inbox:resolveApproval', {
      requestId: asked.request_id,
      action: 'approve',
      argsHash: asked.args_hash,
    });
  }
  const events = await settled;
  /** The outcome of the call whose arguments hold `needle` (the row's id is the app's, not the script's). */
  const byId = (needle: string) => {
    const start = events.find((e) => e.type === 'tool_start' && e.arguments.includes(needle));
    const id = start?.type === 'tool_start' ? start.tool_call_id : null;
    return events.find((e) => (e.type === 'tool_done' || e.type === 'tool_error') && e.tool_call_id === id);
  };
  expect(byId('"ghost"')).toMatchObject({
    type: 'tool_error',
    error: expect.stringMatching(/There is no plugin named "ghost"/),
  });
  expect(byId('"weather"')).toMatchObject({ type: 'tool_done', result: 'Enabled plugin "weather".' });
  expect((await h.call('plugins:list', {})).plugins.find((p) => p.name === 'weather')!.enabled).toBe(true);
  const listed = events.find((e) => e.type === 'tool_done' && e.result.startsWith('{"type":"plugins"'));
  const items =
    (
      JSON.parse(listed?.type === 'tool_done' ? listed.result : '{}') as {
        items?: { name: string; enabled: boolean; config_keys: string[] }[];
      }
    ).items ?? [];
  expect(items.find((i) => i.name === 'weather')).toMatchObject({ enabled: true, config_keys: ['city'] });
  expect(events.some((e) => e.type === 'tool_done' && e.result === 'Sunny in Oslo.')).toBe(true);
});
