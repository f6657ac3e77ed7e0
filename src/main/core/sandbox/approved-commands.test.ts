/**
 * The issue's scenario end to end (docs/sandbox.md): a real core (createCore, the real gate and the sandbox it wires
 * with the guards' credential stores), the scripted model asking for commands that write beside the working folder,
 * read the app's database and reach a local server, a bypass of every tool active, and a careless person approving
 * every card that still asks. The commands run, and the sandbox keeps every one of them in the working folder; the
 * model reads why in each result.
 * Check ids (X10) are listed in docs/security-checks.md.
 */
import { mkdirSync, existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';

let h: Harness | undefined;
let server: Server | undefined;
afterEach(async () => {
  await h?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  h = undefined;
  server = undefined;
  cleanupTempDirs();
});

describe('approved commands run in the sandbox, whatever the gate let through', () => {
  it('with a bypass of every tool and every card approved, nothing leaves the working folder', async () => {
    let hits = 0;
    server = createServer((_req, res) => {
      hits++;
      res.end('reached');
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const commands = [
      'echo pwned > ../outside/x.txt',
      'echo pwned > ../data/settings-x.json',
      'head -c 15 ../data/skald.db',
      `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`,
      `node -e "fetch('http://127.0.0.1:${port}/').then(r => r.text()).then(console.log, e => { console.log(String(e.cause ?? e)); process.exit(1) })"`,
      'echo fine > inside.txt && cat inside.txt',
    ];
    h = await startHarness({
      turns: [
        { toolCalls: commands.map((command) => ({ name: 'execute_cmd', arguments: { command } })) },
        { text: 'done' },
      ],
    });
    const outside = join(h.workspace, '..', 'outside');
    mkdirSync(outside);
    const sessionId = await h.newSession();
    h.core.approval.bypass.grant(sessionId, { kind: 'all' }, null);
    // The careless person: every card that still asks is approved at once.
    const approvals = h.core.events.subscribe('chat', (e) => {
      if (e.type === 'approval_required' || e.type === 'pending_write')
        void h!.call('inbox:resolveApproval', {
          requestId: e.request_id,
          action: 'approve',
          note: '',
          argsHash: e.args_hash,
        });
    });
    try {
      await h.sendAndSettle(sessionId, 'go');
    } finally {
      approvals();
    }
    const results = h.events.flatMap((e) =>
      e.type === 'tool_done' ? [e.result] : e.type === 'tool_error' ? [e.error] : [],
    );
    expect(results).toHaveLength(commands.length);
    const [sibling, data, db, tcp, fetch, inside] = results;
    // The harness's folders are in /tmp, which the command's own /tmp replaces: the folder beside it is not even seen.
    expect(sibling).toContain('[the sandbox gives commands their own empty /tmp:');
    expect(data).toContain(`[the sandbox hides ${join(h.dataDir, 'settings-x.json')}: it is in the app's data folder]`);
    expect(db).toContain("it is in the app's data folder]");
    expect(db).not.toContain('SQLite format');
    for (const net of [tcp, fetch]) {
      expect(net).not.toContain('reached');
      expect(net).toContain('[the sandbox kept this command from using the network');
    }
    expect(inside).toBe('fine\n[exit code 0]');
    expect(hits).toBe(0);
    expect(existsSync(join(outside, 'x.txt'))).toBe(false);
    expect(existsSync(join(h.dataDir, 'settings-x.json'))).toBe(false);
    expect(readFileSync(join(h.workspace, 'inside.txt'), 'utf8')).toBe('fine\n');
    // The model was told, in the results it read.
    expect(JSON.stringify(h.llm.requests.at(-1)!.body)).toContain("it is in the app's data folder");
  }, 120_000);
});
