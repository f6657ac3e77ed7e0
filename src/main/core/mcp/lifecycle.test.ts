/**
 * Lifecycle of stdio servers (docs/mcp.md "Lifecycle", M5): the scrubbed environment a server gets (no provider
 * keys, no stored secret values; its own env and its configured credential on top; the login shell's PATH
 * first); a server killed mid-call fails that call clearly while the session and the app go on, and the next use
 * reconnects; a server left running by a crashed run is swept at the next start.
 * Check ids (M5) are listed in docs/security-checks.md.
 */
import { execFileSync } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { closeDatabase, openDatabase } from '../db/database';
import { ProcessRegistry } from '../processes/process-registry';
import { grantForSession } from '../agents/group-registry';
import { loginShellPath } from './login-path';
import {
  EVERYTHING,
  expectNoProcesses,
  FLAKY,
  isLive,
  node,
  processesWith,
  startKit,
  type McpKit,
  cleanupKitDirs,
  kitDir,
} from './test-kit';

let kit: McpKit | null = null;
let h: Harness | null = null;
const markers: string[] = [];
afterEach(async () => {
  await kit?.close();
  await h?.close();
  kit = null;
  h = null;
  for (const m of markers.splice(0)) await expectNoProcesses(m);
  cleanupKitDirs();
});

describe('the environment of a stdio server (M5)', () => {
  it('is scrubbed of provider keys and stored secrets, keeps its own env and credential, and has the login PATH', async () => {
    process.env.OPENAI_API_KEY = 'sk-test-provider-key-123456';
    process.env.INNOCENT_LOOKING = 'stored-secret-value-987654';
    try {
      kit = startKit();
      markers.push(kit.marker);
      kit.secrets.set('user.token', 'stored-secret-value-987654');
      await kit.mcp.save(
        {
          name: 'everything',
          transport: 'stdio',
          command: node,
          args: [EVERYTHING, 'stdio', kit.marker],
          env: { OWN_SETTING: 'mine' },
          secretTarget: { kind: 'env', name: 'SERVICE_API_KEY' },
          credential: 'cred-for-this-server',
        },
        'user',
      );
      expect(JSON.stringify(kit.db.prepare('SELECT * FROM mcp_servers').all())).not.toContain('cred-for-this-server');
      expect(kit.mcp.view('everything').hasCredential).toBe(true);
      await kit.mcp.manager.open('everything');
      const { result } = await kit.mcp.manager.callTool(
        'everything',
        'mcp__everything__get-env',
        {},
        { signal: new AbortController().signal },
      );
      const env = JSON.parse((result as { content: { text: string }[] }).content[0]!.text) as Record<string, string>;
      expect(env.OPENAI_API_KEY).toBeUndefined();
      expect(env.INNOCENT_LOOKING).toBeUndefined();
      expect(env.OWN_SETTING).toBe('mine');
      expect(env.SERVICE_API_KEY).toBe('cred-for-this-server');
      const login = (await loginShellPath()).split(delimiter);
      expect(env.PATH!.split(delimiter).slice(0, login.length)).toEqual(login);
    } finally {
      delete process.env.OPENAI_API_KEY;
      delete process.env.INNOCENT_LOOKING;
    }
  });
});

describe('a server killed mid-call (M5)', () => {
  it('fails that call with the reason, the turn and the app go on, and the next call reconnects', async () => {
    const marker = `skald-mcp-kill-${Math.random().toString(36).slice(2)}`;
    markers.push(marker);
    h = await startHarness({
      turns: [
        { toolCalls: [{ name: 'mcp__flaky__sleep', arguments: { ms: 60_000 } }] },
        { toolCalls: [{ name: 'mcp__flaky__describe_me', arguments: { text: 'again' } }] },
        { text: 'Recovered.' },
      ],
    });
    await h.call('mcp:save', { name: 'flaky', transport: 'stdio', command: node, args: [FLAKY, marker] });
    await h.core.mcp.manager.open('flaky');
    const sessionId = await h.newSession();
    grantForSession(h.core.db, sessionId, 'flaky');
    await h.call('chat:send', { sessionId, content: 'go' });
    const asked = await h.waitForEvent('approval_required');
    await h.call('inbox:resolveApproval', {
      requestId: asked.request_id,
      action: 'approve',
      note: '',
      argsHash: asked.args_hash,
      bypassSecs: 600,
      bypassScope: 'mcp_server',
    });
    await expect.poll(() => processesWith(marker).length).toBeGreaterThan(0);
    process.kill(findPid(marker), 'SIGKILL');
    const failed = await h.waitForEvent('tool_error');
    expect(failed.error).toMatch(/MCP server "flaky" stopped while sleep ran \(killed by SIGKILL\)/);
    const done = await h.waitForEvent('tool_done');
    expect(done.result).toBe('described: again');
    await h.waitForEvent('done');
    expect((await h.call('mcp:list', {})).servers[0]).toMatchObject({ state: 'ready' });
  });
});

function findPid(marker: string): number {
  const line = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .find((l) => l.includes(marker) && l.includes('flaky-server'));
  return Number(line!.trim().split(/\s+/)[0]);
}

describe('servers left by a crashed run', () => {
  it('are swept at the next start (the app records each server process)', async () => {
    const first = startKit();
    markers.push(first.marker);
    await first.mcp.save({ name: 'flaky', transport: 'stdio', command: node, args: [FLAKY, first.marker] }, 'user');
    await first.mcp.manager.open('flaky');
    const { result } = await first.mcp.manager.callTool(
      'flaky',
      'mcp__flaky__spawn_child',
      {},
      { signal: new AbortController().signal },
    );
    const childPid = Number(/child (\d+)/.exec(JSON.stringify(result))![1]);
    // The app "crashes": no dispose, the database is simply gone from this run.
    closeDatabase(first.db);
    expect(processesWith(first.marker).length).toBeGreaterThan(0);
    const db = openDatabase({ file: join(first.dir, 'skald.db') });
    try {
      const report = new ProcessRegistry(db).reapLeftovers();
      expect(report.killed.map((k) => k.command).join('\n')).toContain(first.marker);
      await expectNoProcesses(first.marker);
      await expect.poll(() => isLive(childPid)).toBe(false); // the server's own child went with its group
    } finally {
      closeDatabase(db);
    }
  });
});
