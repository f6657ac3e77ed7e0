/**
 * Shared set-up for the MCP tests: real SQLite in a temp folder, the real secret store, the real MCP services,
 * real server processes (from npm, or the small fixtures in test/fixtures/mcp), and `ps` to prove that no server
 * process outlives what it should. Not imported by app code.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import type { McpEvent } from '../../../shared/contract/mcp';
import { closeDatabase, openDatabase, type Db } from '../db/database';
import { ProcessRegistry } from '../processes/process-registry';
import { createKeyFileCipher, SecretStore } from '../secrets/index';
import { createMcpServices, type McpDeps, type McpServices } from './index';

const require = createRequire(import.meta.url);
export const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
export const MEMORY = require.resolve('@modelcontextprotocol/server-memory/dist/index.js');
export const FLAKY = resolve(__dirname, '../../../../test/fixtures/mcp/flaky-server.mjs');
export const SILENT = resolve(__dirname, '../../../../test/fixtures/mcp/silent-server.mjs');
export const OVERSIZED = resolve(__dirname, '../../../../test/fixtures/mcp/oversized-server.mjs');

const made: string[] = [];

/** A temp folder removed by `cleanupKitDirs` (after each test). */
export function kitDir(prefix = 'skald-mcp-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function cleanupKitDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export interface McpKit {
  db: Db;
  dir: string;
  secrets: SecretStore;
  processes: ProcessRegistry;
  mcp: McpServices;
  events: McpEvent[];
  /** A word unique to this kit: pass it as a server argument to find its processes with ps. */
  marker: string;
  close(): Promise<void>;
}

export function startKit(overrides: McpDeps['overrides'] = {}, dataDir?: string): McpKit {
  const dir = dataDir ?? kitDir();
  const db = openDatabase({ file: join(dir, 'skald.db') });
  const secrets = new SecretStore(db, createKeyFileCipher(dir));
  const processes = new ProcessRegistry(db);
  const events: McpEvent[] = [];
  const mcp = createMcpServices({
    db,
    secrets,
    emit: (e) => events.push(e),
    cwd: dir,
    processes,
    log: () => undefined,
    overrides,
  });
  return {
    db,
    dir,
    secrets,
    processes,
    mcp,
    events,
    marker: `skald-mcp-marker-${Math.random().toString(36).slice(2)}`,
    async close() {
      await mcp.manager.dispose();
      closeDatabase(db);
    },
  };
}

/** After a test: closes its kit (if any), proves none of its server processes outlive it, removes its folders. */
export async function closeKit(kit: McpKit | null): Promise<void> {
  const marker = kit?.marker;
  await kit?.close();
  if (marker) await expectNoProcesses(marker);
  cleanupKitDirs();
}

/** Live processes whose command line contains `word` (zombies excluded), from `ps`. */
export function processesWith(word: string): string[] {
  const out = execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => line.includes(word) && !line.trim().startsWith('Z') && !line.includes('ps -eo'));
}

export async function expectNoProcesses(word: string): Promise<void> {
  await expect.poll(() => processesWith(word), { timeout: 10_000 }).toEqual([]);
}

export const node = process.execPath;

/** Alive and not a zombie (a zombie is dead; it only waits for a parent to reap it). */
export function isLive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
