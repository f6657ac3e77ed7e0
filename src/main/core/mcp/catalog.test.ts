/**
 * The MCP catalog (docs/mcp.md "Catalog"). The data: every entry is a valid server once answered, ids and titles are
 * unique, every placeholder names a parameter and every parameter is used, an optional parameter never leaves a flag
 * without its value, and a secret never reaches `args` or `env` (it goes to the secret store, given in one variable).
 * The building: an npm package installed with the app runs from it with node, else through `npx -y`, a Python one
 * through `uvx`; missing answers are refused in a sentence. And end to end, on the real services with a real server
 * process: a catalog server added as the person's is trusted, starts, lists its tools, keeps its secret out of its
 * command line, and a second one of the same name is refused; one that npx must fetch, offline, fails saying so.
 */
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServerInputSchema, MAX_MCP_SERVER_NAME, MCP_SERVER_NAME_PATTERN } from '../../../shared/contract/mcp';
import { CATALOG, type CatalogEntry } from './catalog-data';
import {
  CatalogError,
  catalogServerInput,
  catalogView,
  localBin,
  placeholdersOf,
  type CatalogContext,
} from './catalog';
import { closeKit, EVERYTHING, kitDir, startKit, type McpKit } from './test-kit';

const SECRET = 'catalog-secret-value-7f3a';
/** The repository: the MCP test servers are devDependencies here. */
const repoCtx: CatalogContext = {
  workspaceDir: '/home/me/workspace',
  appDir: __dirname,
  pathDirs: [],
  nodeCommand: process.execPath,
};
/** Nothing installed with the app: every npm entry goes through npx. */
const bareCtx = (): CatalogContext => ({ ...repoCtx, appDir: kitDir('skald-catalog-bare-') });

/** Answers a person could give: defaults kept, a sample value where there is none, the secret when one is asked. */
const answersFor = (entry: CatalogEntry) => ({
  params: Object.fromEntries((entry.params ?? []).filter((p) => !p.default).map((p) => [p.key, `/sample/${p.key}`])),
  ...(entry.secret ? { credential: SECRET } : {}),
});
const strings = (entry: CatalogEntry) => [...entry.args, ...Object.values(entry.env ?? {})];

describe('the catalog data', () => {
  it('has the servers a newcomer looks for, each id a valid server name, ids and titles unique', () => {
    const ids = CATALOG.map((e) => e.id);
    expect(ids).toEqual(
      expect.arrayContaining(['filesystem', 'git', 'fetch', 'memory', 'sqlite', 'time', 'everything', 'playwright']),
    );
    expect(ids).toContain('github');
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(CATALOG.map((e) => e.title)).size).toBe(CATALOG.length);
    for (const id of ids) {
      expect(id).toMatch(MCP_SERVER_NAME_PATTERN);
      expect(id.length).toBeLessThanOrEqual(MAX_MCP_SERVER_NAME);
    }
  });

  it.each(CATALOG.map((e) => [e.id, e] as const))('%s: placeholders, parameters and its secret are sound', (_, e) => {
    const used = new Set(strings(e).flatMap(placeholdersOf));
    const keys = (e.params ?? []).map((p) => p.key);
    expect([...used].sort()).toEqual([...keys].sort()); // every placeholder is a parameter, every parameter is used
    for (const param of e.params ?? []) {
      if (!param.optional) continue;
      // Left empty, its element is dropped: it must not be the value of a flag in the element before it.
      const at = e.args.findIndex((a) => placeholdersOf(a).includes(param.key));
      if (at > 0) expect(e.args[at - 1]!.startsWith('-')).toBe(false);
    }
    expect(e.runner === 'npx' ? e.package : 'npm').toMatch(/^(@[a-z0-9-]+\/)?[a-z0-9.-]+$/);
    expect(e.runner === 'uvx' ? e.package : 'pypi').toMatch(/^[a-z0-9][a-z0-9._-]*$/);
    expect(e.homepage).toMatch(/^https:\/\//);
    if (e.secret) {
      expect(e.secret.env).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(Object.keys(e.env ?? {})).not.toContain(e.secret.env);
      for (const s of strings(e)) expect(s).not.toContain(e.secret.env);
    }
  });

  it.each(CATALOG.map((e) => [e.id, e] as const))(
    '%s: answered, it is a valid server; the secret is no argument',
    (_, e) => {
      for (const ctx of [repoCtx, bareCtx()]) {
        const input = catalogServerInput(e.id, answersFor(e), ctx);
        expect(McpServerInputSchema.safeParse(input).success).toBe(true);
        expect(input.name).toBe(e.id);
        expect(JSON.stringify([input.command, input.args, input.env ?? {}])).not.toContain(SECRET);
        if (e.secret) {
          expect(input.credential).toBe(SECRET);
          expect(input.secretTarget).toEqual({ kind: 'env', name: e.secret.env });
        }
      }
    },
  );
});

describe('building a server from an entry', () => {
  afterEach(() => closeKit(null));

  it('runs an npm package installed with the app from there, with node; else through npx, and Python through uvx', () => {
    const local = catalogServerInput('everything', {}, repoCtx);
    expect(local).toMatchObject({ command: process.execPath, args: [EVERYTHING, 'stdio'] });
    expect(localBin('@modelcontextprotocol/server-everything', dirname(EVERYTHING))).toBe(EVERYTHING);
    const fetched = catalogServerInput('everything', {}, bareCtx());
    expect(fetched).toMatchObject({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything', 'stdio'] });
    expect(catalogServerInput('git', {}, repoCtx)).toMatchObject({
      command: 'uvx',
      args: ['mcp-server-git', '--repository', '/home/me/workspace'],
    });
  });

  it('fills defaults, drops what an optional parameter left empty, and says what a required answer lacks', () => {
    expect(catalogServerInput('filesystem', { params: { folder: '/data' } }, bareCtx()).args).toEqual([
      '-y',
      '@modelcontextprotocol/server-filesystem',
      '/data',
    ]);
    expect(catalogServerInput('time', { params: { timezone: '' } }, repoCtx).args).toEqual(['mcp-server-time']);
    expect(catalogServerInput('time', { params: { timezone: 'Europe/Berlin' } }, repoCtx).args).toEqual([
      'mcp-server-time',
      '--local-timezone=Europe/Berlin',
    ]);
    const memory = catalogServerInput('memory', { params: { file: '/notes/m.jsonl' } }, repoCtx);
    expect(memory.env).toEqual({ MEMORY_FILE_PATH: '/notes/m.jsonl' });
    expect(catalogServerInput('memory', {}, repoCtx).env).toBeUndefined();
    expect(() => catalogServerInput('sqlite', {}, repoCtx)).toThrow(new CatalogError('SQLite needs “Database file”.'));
    expect(() => catalogServerInput('github', {}, repoCtx)).toThrow(/^GitHub needs “GitHub personal access token”: /);
    expect(catalogServerInput('context7', {}, repoCtx).credential).toBeUndefined(); // its key is optional
    expect(() => catalogServerInput('nope', {}, repoCtx)).toThrow('The catalog has no server "nope".');
  });

  it('shows each entry with its command line, whether it is local, and whether its runner is on the PATH', () => {
    const view = catalogView({ ...repoCtx, pathDirs: [dirname(process.execPath)] }, new Set(['memory']));
    const byId = new Map(view.map((v) => [v.id, v]));
    expect(byId.get('everything')).toMatchObject({ local: true, runnerFound: true, configured: false });
    expect(byId.get('everything')!.commandLine).toBe(`node ${EVERYTHING} stdio`);
    expect(byId.get('memory')!.configured).toBe(true);
    expect(byId.get('filesystem')!.params[0]!.default).toBe('/home/me/workspace');
    expect(byId.get('git')).toMatchObject({
      local: false,
      commandLine: 'uvx mcp-server-git --repository <repository>',
    });
    expect(byId.get('github')!.secret).toMatchObject({ env: 'GITHUB_PERSONAL_ACCESS_TOKEN', optional: false });
  });
});

describe('adding from the catalog, on the real services', () => {
  let kit: McpKit | null = null;
  afterEach(async () => {
    await closeKit(kit);
    kit = null;
  });

  it('is the person’s server: trusted, started, its tools listed; its secret stored, not in its command', async () => {
    kit = startKit({ catalogAppDir: __dirname });
    const added = await kit.mcp.addFromCatalog('everything', { name: 'demo', credential: SECRET });
    expect(added).toMatchObject({ name: 'demo', trusted: true, createdBy: 'user', command: process.execPath });
    await expect.poll(() => kit!.mcp.view('demo').state, { timeout: 30_000 }).toBe('ready');
    expect(kit.mcp.view('demo').tools.map((t) => t.name)).toContain('echo');
    // everything asks for no secret: one passed anyway is not kept, and never lands in args.
    expect(JSON.stringify(kit.mcp.view('demo'))).not.toContain(SECRET);
    const entries = await kit.mcp.catalog();
    expect(entries.find((e) => e.id === 'everything')!.configured).toBe(false); // "demo", not "everything"
    await expect(kit.mcp.addFromCatalog('everything', { name: 'demo' })).rejects.toThrow(
      'A server named "demo" exists already: give this one another name.',
    );
  });

  it('stores a needed secret in the secret store as the server’s credential, given in its variable', async () => {
    kit = startKit({ catalogAppDir: kitDir('skald-catalog-bare-') });
    const added = await kit.mcp.addFromCatalog('github', { credential: SECRET });
    expect(added).toMatchObject({
      hasCredential: true,
      secretTarget: { kind: 'env', name: 'GITHUB_PERSONAL_ACCESS_TOKEN' },
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
    });
    expect(kit.mcp.repo.credential(kit.mcp.repo.get('github')!)).toBe(SECRET);
    await kit.mcp.remove('github'); // not left to start (and download) after the test
  });

  it('fetched by npx offline, it fails with a sentence saying the package could not be downloaded', async () => {
    // An unreachable registry and an empty npm cache: the machine is offline as far as npm can tell.
    const cache = kitDir('skald-npm-cache-');
    kit = startKit({
      catalogAppDir: kitDir('skald-catalog-bare-'),
      baseEnv: async () => ({
        ...(process.env as Record<string, string>),
        npm_config_registry: 'http://127.0.0.1:9/',
        npm_config_cache: cache,
        npm_config_fetch_retries: '0',
      }),
    });
    await kit.mcp.addFromCatalog('sequential-thinking', {});
    await expect.poll(() => kit!.mcp.view('sequential-thinking').state, { timeout: 60_000 }).toBe('failed');
    expect(kit.mcp.view('sequential-thinking').lastError).toMatch(
      /^npx could not download @modelcontextprotocol\/server-sequential-thinking: the npm registry could not be reached/,
    );
  });
});
