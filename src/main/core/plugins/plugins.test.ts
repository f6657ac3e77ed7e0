/**
 * Plugins against real things: a real SQLite file, the real key-file cipher, the real scripted image servers over
 * HTTP, a real temp workspace.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PNG_1X1, startComfyUiServer, startOpenAiImagesServer } from '../../../../test/image-servers/index';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { closeDatabase, openDatabase, type Db } from '../db/database';
import { createKeyFileCipher, SecretStore } from '../secrets/index';
import { defineTool } from '../tools/define-tool';
import { makeWorkspace, runTool } from '../tools/_testing/workspace';
import { createConfigurePluginTool } from '../tools/config/configure-plugin';
import { createImageGenerateTool, createImageProvidersListTool, slugOf } from '../tools/image/image-generate';
import { BUILTIN_PLUGINS, definePlugin, PluginError, PluginManager, PluginStore } from './index';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  cleanupTempDirs();
});

const echoPlugin = definePlugin({
  name: 'echo',
  title: 'Echo',
  description: 'test plugin with a tool',
  configSchema: z.object({
    greeting: z.string().default('hi'),
    token: z.string().min(4).optional(),
    count: z.number().int().min(1).max(5).default(1),
  }),
  secretFields: ['token'],
  createTools: (config) => [
    defineTool({
      name: 'echo_say',
      description: 'say',
      input: z.object({}),
      kind: 'config',
      category: 'config',
      execute: () => `${config.greeting}`.repeat(config.count),
    }),
  ],
});

function setup(definitions = [...BUILTIN_PLUGINS, echoPlugin]) {
  const dir = tempDir('skald-plugins-');
  const dbPath = join(dir, 'skald.db');
  const db: Db = openDatabase({ file: dbPath });
  cleanups.push(() => closeDatabase(db));
  const secrets = new SecretStore(db, createKeyFileCipher(dir));
  const manager = new PluginManager(definitions, new PluginStore(db, secrets));
  const ws = makeWorkspace();
  cleanups.push(ws.cleanup);
  return { dir, dbPath, db, secrets, manager, ws };
}

describe('PluginManager', () => {
  it('lists the shipped plugins, disabled, with their schema and no secret values', () => {
    const { manager } = setup();
    const views = manager.list();
    expect(views.map((v) => v.name)).toEqual(['openai-images', 'comfyui', 'echo']);
    const openai = views[0]!;
    expect(openai.enabled).toBe(false);
    expect(openai.secretFields).toEqual([{ name: 'api_key', isSet: false }]);
    expect(openai.config).toMatchObject({ base_url: 'https://api.openai.com/v1', model: 'gpt-image-1' });
    expect(Object.keys(openai.schema.properties as object)).toContain('api_key');
    expect(views[1]!.isReady).toBe(false); // ComfyUI needs a workflow
    expect(views[1]!.problem).toMatch(/workflow/);
  });

  it('merges a patch, validates the whole, keeps secrets in the secret store only', () => {
    const { manager, secrets, db, dbPath } = setup();
    const view = manager.configure('echo', { greeting: 'hello', token: 'tok-SECRET-123' });
    expect(view.config).toEqual({ greeting: 'hello', count: 1 });
    expect(view.secretFields).toEqual([{ name: 'token', isSet: true }]);
    expect(JSON.stringify(view)).not.toContain('tok-SECRET-123');
    expect(secrets.get('plugin.echo.token')).toBe('tok-SECRET-123');
    const row = db.prepare("SELECT config FROM plugins WHERE name = 'echo'").get() as { config: string };
    expect(row.config).not.toContain('tok-SECRET');
    db.pragma('wal_checkpoint(TRUNCATE)');
    expect(readFileSync(dbPath).includes(Buffer.from('tok-SECRET-123'))).toBe(false);
    // A later patch of another field keeps the secret; null deletes it.
    manager.configure('echo', { count: 3 });
    expect(secrets.get('plugin.echo.token')).toBe('tok-SECRET-123');
    manager.configure('echo', { token: null });
    expect(secrets.has('plugin.echo.token')).toBe(false);
  });

  it('refuses an unknown plugin, an unknown field and a bad value, writing nothing', () => {
    const { manager, secrets, db } = setup();
    manager.configure('echo', { greeting: 'before', token: 'keep-me' });
    expect(() => manager.configure('nope', {})).toThrow(PluginError);
    expect(() => manager.configure('nope', {})).toThrow(/no plugin named "nope".*openai-images, comfyui, echo/);
    expect(() => manager.configure('echo', { colour: 'red' })).toThrow(/no setting "colour"/);
    // A bad value next to a good one and a new secret: neither is saved.
    expect(() => manager.configure('echo', { greeting: 'after', count: 99, token: 'new-secret' })).toThrow(/count/);
    expect(manager.view('echo').config.greeting).toBe('before');
    expect(secrets.get('plugin.echo.token')).toBe('keep-me');
    expect(() => manager.configure('echo', { token: 'abc' })).toThrow(/token/); // under its min length
    expect((db.prepare('SELECT count(*) AS n FROM plugins').get() as { n: number }).n).toBe(1);
  });

  it('a secret write that fails rolls the row back too (one transaction)', () => {
    const { manager, db } = setup();
    manager.configure('echo', { greeting: 'before' });
    // A value over the secret store's limit passes the plugin schema but fails in the store, after the row write.
    const big = 'x'.repeat(70 * 1024);
    expect(() => manager.configure('echo', { greeting: 'after', token: big })).toThrow(/longer than/);
    expect(manager.view('echo').config.greeting).toBe('before');
    expect((db.prepare("SELECT config FROM plugins WHERE name='echo'").get() as { config: string }).config).toContain(
      'before',
    );
  });

  it('offers the tools of enabled, ready plugins only', () => {
    const { manager } = setup();
    expect(manager.tools()).toEqual([]);
    manager.setEnabled('echo', true);
    expect(manager.tools().map((t) => t.name)).toEqual(['echo_say']);
    manager.setEnabled('echo', false);
    expect(manager.tools()).toEqual([]);
  });

  it('a plugin whose tools throw is left out and logged, the others stay', () => {
    const broken = definePlugin({
      name: 'broken',
      title: 'B',
      description: '',
      configSchema: z.object({}),
      secretFields: [],
      createTools: () => {
        throw new Error('boom');
      },
    });
    const logs: string[] = [];
    const dir = tempDir();
    const db = openDatabase({ file: join(dir, 'x.db') });
    cleanups.push(() => closeDatabase(db));
    const manager = new PluginManager(
      [broken, echoPlugin],
      new PluginStore(db, new SecretStore(db, createKeyFileCipher(dir))),
      (m) => logs.push(m),
    );
    manager.setEnabled('broken', true);
    manager.setEnabled('echo', true);
    expect(manager.tools().map((t) => t.name)).toEqual(['echo_say']);
    expect(logs.join()).toMatch(/broken could not build its tools/);
  });

  it('refuses two plugins with one name and bad definitions', () => {
    const dir = tempDir();
    const db = openDatabase({ file: join(dir, 'x.db') });
    cleanups.push(() => closeDatabase(db));
    expect(
      () =>
        new PluginManager([echoPlugin, echoPlugin], new PluginStore(db, new SecretStore(db, createKeyFileCipher(dir)))),
    ).toThrow(/two plugins/);
    expect(() =>
      definePlugin({ name: 'Bad Name', title: '', description: '', configSchema: z.object({}), secretFields: [] }),
    ).toThrow(/must match/);
    expect(() =>
      definePlugin({
        name: 'x',
        title: '',
        description: '',
        configSchema: z.object({}),
        secretFields: ['nope' as never],
      }),
    ).toThrow(/not in its schema/);
  });
});

describe('configure_plugin', () => {
  it('answers with the plugin summary, and a clear tool error for bad input', async () => {
    const { manager, ws } = setup();
    const tool = createConfigurePluginTool(manager);
    const done = await runTool(tool, { name: 'echo', config: { greeting: 'yo', token: 'secret-value-1' } }, ws.ctx);
    expect(done.kind).toBe('completed');
    const result = JSON.parse((done as { result: string }).result);
    expect(result).toMatchObject({
      name: 'echo',
      enabled: false,
      ready: true,
      config: { greeting: 'yo' },
      secrets: { token: 'set' },
    });
    expect(JSON.stringify(result)).not.toContain('secret-value-1');
    const bad = await runTool(tool, { name: 'echo', config: { count: 'many' } }, ws.ctx);
    expect(bad).toMatchObject({ kind: 'failed' });
    expect((bad as { error: string }).error).toMatch(/not saved: count/);
    expect(await runTool(tool, { name: 'ghost', config: {} }, ws.ctx)).toMatchObject({
      kind: 'failed',
      error: expect.stringMatching(/no plugin named "ghost"/),
    });
  });
});

describe('image generation (OpenAI-compatible server)', () => {
  it('generates into images/<date>-<slug>.png and lists the provider', async () => {
    const { manager, ws } = setup();
    const server = await startOpenAiImagesServer();
    cleanups.push(() => server.close());
    const list = createImageProvidersListTool(manager);
    expect(JSON.parse(((await runTool(list, {}, ws.ctx)) as { result: string }).result)).toEqual({ providers: [] });
    const gen = createImageGenerateTool(manager);
    expect(await runTool(gen, { prompt: 'a fox' }, ws.ctx)).toMatchObject({
      kind: 'failed',
      error: expect.stringMatching(/No image provider is set up/),
    });

    manager.configure('openai-images', {
      base_url: `${server.url}/v1`,
      api_key: 'sk-test-KEY',
      model: 'local-diffusion',
    });
    manager.setEnabled('openai-images', true);
    expect(JSON.parse(((await runTool(list, {}, ws.ctx)) as { result: string }).result)).toEqual({
      providers: [{ name: 'openai-images', title: 'OpenAI-compatible images', model: 'local-diffusion' }],
    });

    const out = await runTool(gen, { prompt: 'A red fox, at dusk!', n: 2, size: '512x512' }, ws.ctx);
    expect(out.kind).toBe('completed');
    const { images } = JSON.parse((out as { result: string }).result) as { images: { path: string; mime: string }[] };
    const day = new Date();
    const date = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
    expect(images.map((i) => i.path)).toEqual([
      `images/${date}-a-red-fox-at-dusk.png`,
      `images/${date}-a-red-fox-at-dusk-2.png`,
    ]);
    for (const i of images) expect(readFileSync(join(ws.root, i.path)).equals(PNG_1X1)).toBe(true);
    const sent = server.requests.find((r) => r.path === '/v1/images/generations')!;
    expect(sent.body).toEqual({ model: 'local-diffusion', prompt: 'A red fox, at dusk!', n: 2, size: '512x512' });
    expect(sent.headers.authorization).toBe('Bearer sk-test-KEY');

    // A second call with the same prompt never overwrites.
    await runTool(gen, { prompt: 'A red fox, at dusk!' }, ws.ctx);
    expect(readdirSync(join(ws.root, 'images'))).toHaveLength(3);
    // URL answers are fetched too.
    server.mode = 'url';
    expect((await runTool(gen, { prompt: 'url mode' }, ws.ctx)).kind).toBe('completed');
  });

  it('server errors, garbage, an unknown provider and bad arguments are clear tool results; nothing is saved', async () => {
    const { manager, ws } = setup();
    const server = await startOpenAiImagesServer();
    cleanups.push(() => server.close());
    manager.configure('openai-images', { base_url: `${server.url}/v1`, timeout_seconds: 5 });
    manager.setEnabled('openai-images', true);
    const gen = createImageGenerateTool(manager);
    server.mode = 500;
    expect(await runTool(gen, { prompt: 'x' }, ws.ctx)).toMatchObject({
      kind: 'failed',
      error: expect.stringMatching(/HTTP 500: scripted failure/),
    });
    server.mode = 'garbage';
    expect(await runTool(gen, { prompt: 'x' }, ws.ctx)).toMatchObject({
      kind: 'failed',
      error: expect.stringMatching(/without images/),
    });
    expect(await runTool(gen, { prompt: 'x', provider: 'dalle' }, ws.ctx)).toMatchObject({
      kind: 'failed',
      error: expect.stringMatching(/no image provider "dalle".*openai-images/),
    });
    expect(await runTool(gen, { prompt: '', n: 9 }, ws.ctx)).toMatchObject({
      kind: 'failed',
      error: expect.stringMatching(/prompt[\s\S]*n:/),
    });
    expect(existsSync(join(ws.root, 'images'))).toBe(false);
    await server.close();
    expect(await runTool(gen, { prompt: 'x' }, ws.ctx)).toMatchObject({
      kind: 'failed',
      error: expect.stringMatching(/could not be reached/),
    });
  });

  it('a provider that does not answer in time times out with a clear message', async () => {
    const { manager, ws } = setup();
    const server = await startOpenAiImagesServer();
    cleanups.push(() => server.close());
    server.delayMs = 8_000;
    manager.configure('openai-images', { base_url: `${server.url}/v1`, timeout_seconds: 5 });
    manager.setEnabled('openai-images', true);
    const out = await runTool(createImageGenerateTool(manager), { prompt: 'slow' }, ws.ctx);
    expect(out).toMatchObject({ kind: 'failed', error: expect.stringMatching(/did not answer within 5 s/) });
  }, 15_000);
});

describe('image generation (ComfyUI)', () => {
  const workflow = JSON.stringify({
    '3': { class_type: 'KSampler', inputs: { seed: '{{seed}}' } },
    '6': { class_type: 'CLIPTextEncode', inputs: { text: 'photo of {{prompt}}, sharp' } },
    '9': { class_type: 'SaveImage', inputs: {} },
  });

  it('queues the workflow with the prompt filled in, polls, fetches the image', async () => {
    const { manager, ws } = setup();
    const server = await startComfyUiServer();
    cleanups.push(() => server.close());
    server.finishAfterPolls = 2;
    manager.configure('comfyui', { base_url: server.url, workflow, poll_interval_ms: 50 });
    manager.setEnabled('comfyui', true);
    const out = await runTool(
      createImageGenerateTool(manager),
      { prompt: 'a "quoted" cat }', provider: 'comfyui' },
      ws.ctx,
    );
    expect(out.kind).toBe('completed');
    const sent = server.workflows[0] as Record<string, { inputs: Record<string, unknown> }>;
    expect(sent['6']!.inputs.text).toBe('photo of a "quoted" cat }, sharp');
    expect(typeof sent['3']!.inputs.seed).toBe('number');
    const { images } = JSON.parse((out as { result: string }).result) as { images: { path: string }[] };
    expect(readFileSync(join(ws.root, images[0]!.path)).equals(PNG_1X1)).toBe(true);
  });

  it('a workflow error is reported with the node and message', async () => {
    const { manager, ws } = setup();
    const server = await startComfyUiServer();
    cleanups.push(() => server.close());
    server.failJobs = true;
    manager.configure('comfyui', { base_url: server.url, workflow, poll_interval_ms: 50 });
    manager.setEnabled('comfyui', true);
    expect(await runTool(createImageGenerateTool(manager), { prompt: 'x' }, ws.ctx)).toMatchObject({
      kind: 'failed',
      error: expect.stringMatching(/KSampler: out of memory/),
    });
  });

  it('a workflow without {{prompt}} is refused at configure time', () => {
    const { manager } = setup();
    expect(() => manager.configure('comfyui', { workflow: '{"1":{}}' })).toThrow(/\{\{prompt\}\}/);
    expect(() => manager.configure('comfyui', { workflow: 'not json {{prompt}}' })).toThrow(/JSON object/);
  });

  it('stopping mid-generation reaches /interrupt and removes the queued prompt', async () => {
    const { manager, ws } = setup();
    const server = await startComfyUiServer();
    cleanups.push(() => server.close());
    server.finishAfterPolls = Infinity;
    manager.configure('comfyui', { base_url: server.url, workflow, poll_interval_ms: 50 });
    manager.setEnabled('comfyui', true);
    const cancel = new AbortController();
    const running = runTool(createImageGenerateTool(manager), { prompt: 'never finishes' }, ws.ctx, cancel.signal);
    while (!server.requests.some((r) => r.path.startsWith('/history/'))) await new Promise((r) => setTimeout(r, 20));
    cancel.abort();
    expect(await running).toEqual({ kind: 'cancelled' });
    expect(server.interrupts).toBe(1);
    expect(server.queueDeletes).toEqual(['job-1']);
    expect(existsSync(join(ws.root, 'images'))).toBe(false);
  });
});

describe('slugOf', () => {
  it('makes short ASCII names', () => {
    expect(slugOf('Crème brûlée — très bon!')).toBe('creme-brulee-tres-bon');
    expect(slugOf('日本')).toBe('image');
    expect(slugOf('a'.repeat(80))).toHaveLength(40);
  });
});

describe('plugin tools in the registry', () => {
  it('appear while the plugin is enabled and go when it is disabled; a clash with a built-in is left out', async () => {
    const { ToolRegistry } = await import('../tools/registry');
    const { manager } = setup();
    const registry = new ToolRegistry();
    registry.register(
      defineTool({
        name: 'builtin_one',
        description: 'b',
        input: z.object({}),
        kind: 'config',
        category: 'config',
        execute: () => 'b',
      }),
    );
    const stop = manager.syncToolsInto(registry);
    expect(registry.has('echo_say')).toBe(false);
    manager.setEnabled('echo', true);
    expect(registry.has('echo_say')).toBe(true);
    manager.configure('echo', { greeting: 'yo' });
    expect(registry.has('echo_say')).toBe(true);
    manager.setEnabled('echo', false);
    expect(registry.has('echo_say')).toBe(false);
    stop();
    manager.setEnabled('echo', true);
    expect(registry.has('echo_say')).toBe(false);
    expect(registry.has('builtin_one')).toBe(true);
  });
});
