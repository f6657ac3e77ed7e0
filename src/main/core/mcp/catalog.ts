/**
 * The MCP catalog (docs/mcp.md "Catalog"): its entries as Settings shows them, and one entry plus the person's answers
 * made into the server config Settings would have saved had they typed it (so it is theirs: trusted, and started).
 * - An npm package installed with the app (a devDependency when run from the repository) runs from there, with
 *   `node`: nothing is downloaded, so it also works offline. Otherwise `npx -y <package>` fetches it on first start
 *   (and `uvx <package>` a Python one); `start-hint.ts` turns a failed download into a sentence.
 * - A secret goes into the secret store as the server's credential, given in one environment variable at start; it is
 *   never in `args` or `env` (`catalog.test.ts` holds every entry to that).
 * Limits: whether `npx`/`uvx` are on the login PATH is looked up once per listing, not watched.
 */
import { accessSync, constants, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { McpCatalogEntryView, McpServerInput } from '../../../shared/contract/mcp';
import { CATALOG, type CatalogEntry } from './catalog-data';

export interface CatalogContext {
  /** What `{workspace}` in a default stands for. */
  workspaceDir: string;
  /** Where the app's own `node_modules` are looked for, walking up. */
  appDir: string;
  /** The login PATH's folders (where `npx`/`uvx` are looked for). */
  pathDirs: readonly string[];
  /** How a locally installed npm package's script is run (the web shape's own Node; `node` under Electron). */
  nodeCommand: string;
}

export interface CatalogAnswers {
  name?: string;
  params?: Record<string, string>;
  credential?: string;
}

export class CatalogError extends Error {
  override readonly name = 'CatalogError';
}

const PLACEHOLDER = /\{([a-zA-Z][a-zA-Z0-9]*)\}/g;

/** The placeholders a template string names. */
export const placeholdersOf = (text: string): string[] => [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);

/** The script of an npm package installed with the app, or null (then npx fetches it). */
export function localBin(pkg: string, appDir: string): string | null {
  for (let dir = appDir; ; dir = dirname(dir)) {
    const folder = join(dir, 'node_modules', ...pkg.split('/'));
    try {
      const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
        name?: string;
        bin?: string | Record<string, string>;
      };
      const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
      if (manifest.name === pkg && bin) return join(folder, bin);
    } catch {
      // not installed here: look further up
    }
    if (dirname(dir) === dir) return null;
  }
}

function onPath(program: string, pathDirs: readonly string[]): boolean {
  return pathDirs.some((dir) => {
    try {
      accessSync(join(dir, program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

const fillDefault = (value: string | undefined, ctx: CatalogContext) =>
  (value ?? '').replaceAll('{workspace}', ctx.workspaceDir);

/** How an entry starts: from the local copy, or through its runner. */
function launcher(entry: CatalogEntry, ctx: CatalogContext): { command: string; args: string[]; local: boolean } {
  const bin = entry.runner === 'npx' ? localBin(entry.package, ctx.appDir) : null;
  if (bin) return { command: ctx.nodeCommand, args: [bin], local: true };
  return entry.runner === 'npx'
    ? { command: 'npx', args: ['-y', entry.package], local: false }
    : { command: 'uvx', args: [entry.package], local: false };
}

export function catalogView(ctx: CatalogContext, configured: ReadonlySet<string>): McpCatalogEntryView[] {
  return CATALOG.map((entry) => {
    const start = launcher(entry, ctx);
    const shown = entry.args.map((a) => a.replace(PLACEHOLDER, (_, key: string) => `<${key}>`));
    return {
      id: entry.id,
      title: entry.title,
      description: entry.description,
      runner: entry.runner,
      package: entry.package,
      commandLine: [start.local ? 'node' : start.command, ...start.args, ...shown].join(' '),
      local: start.local,
      runnerFound: start.local || onPath(entry.runner, ctx.pathDirs),
      params: (entry.params ?? []).map((p) => ({
        key: p.key,
        label: p.label,
        default: fillDefault(p.default, ctx),
        placeholder: p.placeholder ?? '',
        optional: p.optional ?? false,
      })),
      secret: entry.secret
        ? {
            env: entry.secret.env,
            label: entry.secret.label,
            help: entry.secret.help,
            optional: entry.secret.optional ?? false,
          }
        : null,
      homepage: entry.homepage,
      note: entry.note ?? null,
      configured: configured.has(entry.id),
    };
  });
}

/** Replaces each placeholder; null when one of them is empty (the element or variable is then left out). */
function fill(template: string, values: Record<string, string>): string | null {
  let empty = false;
  const out = template.replace(PLACEHOLDER, (_, key: string) => {
    const value = values[key] ?? '';
    if (!value) empty = true;
    return value;
  });
  return empty ? null : out;
}

/** The config of a server made from a catalog entry: what Settings saves when the person presses "Add". */
export function catalogServerInput(id: string, answers: CatalogAnswers, ctx: CatalogContext): McpServerInput {
  const entry = CATALOG.find((e) => e.id === id);
  if (!entry) throw new CatalogError(`The catalog has no server "${id}".`);
  const values: Record<string, string> = {};
  for (const param of entry.params ?? []) {
    const value = (answers.params?.[param.key] ?? fillDefault(param.default, ctx)).trim();
    if (!value && !param.optional) throw new CatalogError(`${entry.title} needs “${param.label}”.`);
    values[param.key] = value;
  }
  const credential = answers.credential?.trim();
  if (entry.secret && !entry.secret.optional && !credential)
    throw new CatalogError(`${entry.title} needs “${entry.secret.label}”: ${entry.secret.help}.`);
  const start = launcher(entry, ctx);
  const env = Object.fromEntries(
    Object.entries(entry.env ?? {}).flatMap(([k, v]) => {
      const value = fill(v, values);
      return value === null ? [] : [[k, value]];
    }),
  );
  return {
    name: answers.name?.trim() || entry.id,
    transport: 'stdio',
    command: start.command,
    args: [...start.args, ...entry.args.flatMap((a) => fill(a, values) ?? [])],
    ...(Object.keys(env).length ? { env } : {}),
    ...(entry.secret && credential ? { secretTarget: { kind: 'env', name: entry.secret.env }, credential } : {}),
  };
}
