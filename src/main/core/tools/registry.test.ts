/**
 * ToolRegistry, ToolCatalog, ToolDiscovery (real SQLite file), createBuiltinTools: every method of the spec's
 * table, refusal of duplicates and of both agent flags, the lazy config group, labels within budget, and the
 * inline label/path special cases of non-registry tools.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openDatabase } from '../db/database';
import { ToolCatalog } from './catalog';
import { syntheticToolSpecs } from '../session/synthetic-tools';
import { defineTool, type ToolDefinition } from './define-tool';
import { ToolDiscovery } from '../db/tool-discovery';
import { createBuiltinTools, createToolRegistry } from './index';
import { ToolRegistry } from './registry';
import { makeWorkspace } from './_testing/workspace';
import type { ToolsPort } from '../session/ports';
import type { Tool } from './tool';

const echoInput = z.object({ text: z.string() });
const echo = (name: string, extra: Partial<ToolDefinition<typeof echoInput>> = {}): Tool =>
  defineTool({
    name,
    description: `${name} tool`,
    input: echoInput,
    kind: 'other',
    category: 'introspection',
    execute: (a) => a.text,
    ...extra,
  });

const builtins = () => createBuiltinTools({ requestRestart: () => undefined });

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('createBuiltinTools', () => {
  it('has exactly the catalogue of docs/tools.md', () => {
    expect(
      builtins()
        .map((t) => t.name)
        .sort(),
    ).toEqual([
      'edit_file',
      'execute_cmd',
      'get_ast_outline',
      'grep_files',
      'insert_at_line',
      'list_files',
      'read_file',
      'replace_lines',
      'restart',
      'search_file',
      'write_file',
    ]);
  });

  it('categories, and JSON Schemas that are objects without $schema', () => {
    const registry = createToolRegistry(builtins());
    expect(registry.categoryOf('execute_cmd')).toBe('shell');
    expect(registry.categoryOf('restart')).toBe('shell');
    expect(registry.categoryOf('read_file')).toBe('filesystem');
    expect(registry.categoryOf('mcp__x__y')).toBeNull();
    for (const def of registry.openaiDefinitions()) {
      expect(def.type).toBe('function');
      expect(def.function.parameters.type).toBe('object');
      expect(def.function.parameters).not.toHaveProperty('$schema');
    }
    const grep = registry.get('grep_files')!.parametersSchema() as {
      properties: Record<string, { enum?: string[]; maximum?: number }>;
    };
    expect(grep.properties.output_mode!.enum).toEqual(['content', 'files_only', 'count']);
    expect(grep.properties.context_lines!.maximum).toBe(10);
    const cmd = registry.get('execute_cmd')!.parametersSchema() as {
      properties: Record<string, { default?: number; maximum?: number }>;
    };
    expect(cmd.properties.timeout).toMatchObject({ default: 120, maximum: 600 });
    expect(registry.isIdempotent('read_file')).toBe(true);
    expect(registry.isIdempotent('execute_cmd')).toBe(false);
  });
});

describe('ToolRegistry', () => {
  it('is the ToolsPort the session loop codes against', () => {
    const port: ToolsPort = createToolRegistry(builtins());
    expect(port.categoryOf('list_files')).toBe('filesystem');
  });

  it('refuses duplicates, both agent flags, bad and MCP-prefixed names', () => {
    const registry = new ToolRegistry();
    registry.register(echo('a'));
    expect(() => registry.register(echo('a'))).toThrow(/already registered/);
    const both = { ...echo('both'), subAgentsOnly: true, rootAgentOnly: true };
    expect(() => registry.register(both)).toThrow(/both/);
    expect(() => echo('both2', { subAgentsOnly: true, rootAgentOnly: true })).toThrow(/both/);
    expect(() => registry.register(echo('has space'))).toThrow(/must match/);
    expect(() => registry.register(echo('mcp__srv__x'))).toThrow(/MCP prefix/);
  });

  it('splits definitions by agent depth and by the lazy config group; lists sorted', () => {
    const registry = new ToolRegistry();
    registry.register(echo('zeta'));
    registry.register(echo('sub_only', { subAgentsOnly: true }));
    registry.register(echo('root_only', { rootAgentOnly: true }));
    registry.register(echo('set_thing', { category: 'config' }));
    const names = (defs: { function: { name: string } }[]) => defs.map((d) => d.function.name);
    expect(names(registry.openaiDefinitions())).toEqual(['zeta', 'root_only', 'set_thing']);
    expect(names(registry.openaiDefinitionsSubAgentsOnly())).toEqual(['sub_only']);
    expect(names(registry.openaiDefinitionsConfigOnly())).toEqual(['set_thing']);
    expect(registry.rootAgentOnlyNames()).toEqual(['root_only']);
    expect(registry.listAll().map((t) => t.name)).toEqual(['root_only', 'set_thing', 'sub_only', 'zeta']);
    expect(registry.listAll()[0]).toEqual({ name: 'root_only', description: 'root_only tool' });
  });

  it('run returns null for unknown names; a bad argument is a readable failure', async () => {
    const ws = makeWorkspace();
    dirs.push(ws.base);
    const registry = new ToolRegistry();
    registry.register(echo('say'));
    expect(registry.run('nope', {}, ws.ctx)).toBeNull();
    expect(await registry.run('say', { text: 'hi' }, ws.ctx)!.wait()).toEqual({ kind: 'completed', result: 'hi' });
    expect(await registry.run('say', { text: 3 }, ws.ctx)!.wait()).toEqual({
      kind: 'failed',
      error: expect.stringMatching(/Invalid arguments for say:\n- text/),
    });
  });

  it('describeCall: registry tools, inline special cases, unknown names; always within the label budget', () => {
    const registry = createToolRegistry(builtins());
    expect(registry.describeCall('read_file', { path: 'src/a.ts' }, 'short')).toBe('read_file `src/a.ts`');
    expect(registry.describeCall('show_file_to_user', { path: 'docs/x.md' }, 'short')).toBe(
      'show_file_to_user `docs/x.md`',
    );
    expect(registry.targetPath('show_file_to_user', { path: 'docs/x.md' })).toBe('docs/x.md');
    expect(registry.targetPath('read_file', { path: 'a.ts' })).toBe('a.ts');
    expect(registry.targetPath('grep_files', { path: 'src', pattern: 'x' })).toBeNull();
    expect(registry.targetPath('mcp__a__b', { path: 'x' })).toBeNull();
    const task = { agent_id: 'software-engineer', description: 'Refactor auth module' };
    expect(registry.describeCall('execute_task', { ...task, mode: 'sync' }, 'full')).toBe(
      'execute_task ⚡ → software-engineer: Refactor auth module',
    );
    expect(registry.describeCall('execute_task', { ...task, mode: 'async' }, 'full')).toBe(
      'execute_task 🚀 → software-engineer: Refactor auth module',
    );
    expect(registry.describeCall('execute_task', { ...task, mode: 'cron' }, 'full')).toBe(
      'execute_task 📅 → software-engineer: Refactor auth module',
    );
    expect(registry.describeCall('execute_subtask', { agent_id: 'a', title: 'T' }, 'full')).toBe(
      'execute_subtask → a: T',
    );
    expect(registry.describeCall('run_subtask', {}, 'full')).toBe('run_subtask');
    expect(registry.describeCall('mcp__gmail__send', { to: 'x' }, 'short')).toBe('mcp__gmail__send');
    expect(registry.describeCall('read_file', { path: 5 }, 'short')).toBe('read_file');

    const huge = '🚀'.repeat(300);
    const calls: [string, Record<string, unknown>][] = [
      ['execute_cmd', { command: huge }],
      ['read_file', { path: huge }],
      ['grep_files', { pattern: huge, path: huge }],
      ['list_files', { path: huge }],
      ['execute_task', { agent_id: huge, description: huge }],
      ['show_file_to_user', { path: huge }],
      ['get_ast_outline', { path: huge }],
      ['insert_at_line', { path: huge, line: 1, content: '' }],
      [huge, {}],
    ];
    for (const [name, args] of calls) {
      const short = registry.describeCall(name, args, 'short');
      const full = registry.describeCall(name, args, 'full');
      expect(Array.from(short).length, name).toBeLessThanOrEqual(60);
      expect(Array.from(full).length, name).toBeLessThanOrEqual(120);
      expect(short.endsWith('…')).toBe(true);
      // Cut at a character boundary: no lone surrogate half.
      expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(full)).toBe(false);
    }
  });
});

describe('restart', () => {
  it('asks the injected shell to restart, after its result is out', async () => {
    const ws = makeWorkspace();
    dirs.push(ws.base);
    let restarts = 0;
    const registry = createToolRegistry(createBuiltinTools({ requestRestart: () => restarts++ }));
    expect(await registry.run('restart', {}, ws.ctx)!.wait()).toEqual({
      kind: 'completed',
      result: 'Restarting the app now.',
    });
    expect(restarts).toBe(0); // deferred one tick, so the result is recorded first
    await new Promise((resolve) => setImmediate(resolve));
    expect(restarts).toBe(1);
  });
});

describe('ToolCatalog and ToolDiscovery', () => {
  it('lists built-in + synthetic + MCP + discovered, and discovery upserts each new name once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-disc-'));
    dirs.push(dir);
    const db = openDatabase({ file: join(dir, 'skald.db') });
    let clock = 1000;
    const discovery = new ToolDiscovery(db, { now: () => clock });
    const registry = createToolRegistry(builtins());
    discovery.observe(registry.openaiDefinitions(), (n) => registry.categoryOf(n));
    discovery.observe([{ name: 'send_voice_message' }, { name: 'read_file' }]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM known_tools').get()).toEqual({ n: 0 }); // off the hot path
    await discovery.whenIdle();
    clock = 2000;
    discovery.observe([{ name: 'send_voice_message' }, { name: 'mcp__gone__tool' }]);
    await discovery.whenIdle();
    const known = discovery.knownTools();
    expect(known.map((k) => k.name)).toEqual(
      [...registry.listAll().map((t) => t.name), 'mcp__gone__tool', 'send_voice_message'].sort(),
    );
    expect(known.find((k) => k.name === 'send_voice_message')!.first_seen_at).toBe(1000);
    expect(known.find((k) => k.name === 'execute_cmd')!.category).toBe('shell');

    // A new instance (app restart) loads the seen set and writes nothing again.
    const again = new ToolDiscovery(db, { now: () => 9999 });
    again.observe([{ name: 'send_voice_message' }]);
    await again.whenIdle();
    expect(again.knownTools().find((k) => k.name === 'send_voice_message')!.first_seen_at).toBe(1000);

    const catalog = new ToolCatalog(registry, {
      mcpTools: () => [{ name: 'mcp__fs__read', description: 'read' }],
      discovery,
      sessionTools: syntheticToolSpecs,
    });
    const all = catalog.listAll();
    const builtInNames = all.built_in.map((t) => t.name);
    for (const s of syntheticToolSpecs()) expect(builtInNames).toContain(s.name);
    expect(builtInNames).toContain('grep_files');
    expect(builtInNames).toEqual([...builtInNames].sort());
    expect(all.mcp).toEqual([{ name: 'mcp__fs__read', description: 'read', category: null }]);
    expect(all.dynamic.map((t) => t.name)).toEqual(['mcp__gone__tool', 'send_voice_message']);
    db.close();
  });
});
