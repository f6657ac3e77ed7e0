/**
 * Quit ends a sandboxed command's whole tree (docs/sandbox.md "Processes"): the real core runs a command in
 * bubblewrap whose child left the process group with `setsid`; closing the core (what Quit does) stops the turn, and
 * with bubblewrap's group its pid namespace ends, the setsid child included.
 * Check ids (X8) are listed in docs/security-checks.md.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  cleanupTempDirs();
});

/** Live processes whose command line is `sleep <marker>`. */
function sleeps(marker: string): number {
  let n = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      const state = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.[0];
      if (cmd === `sleep ${marker}` && state !== 'Z') n++;
    } catch {
      /* exited meanwhile */
    }
  }
  return n;
}

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 1500 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
};

describe('Quit and a sandboxed command', () => {
  it('closing the core ends the whole tree inside the sandbox, a setsid child included', async () => {
    const marker = `${(Date.now() % 100000) + 700000}`;
    h = await startHarness({
      turns: [
        { toolCalls: [{ name: 'execute_cmd', arguments: { command: `setsid sleep ${marker} & sleep ${marker}` } }] },
        { text: 'done' },
      ],
    });
    const sessionId = await h.newSession();
    // A background job always asks (docs/shell-analysis.md): the person approves it.
    const harness = h;
    const approve = h.core.events.subscribe('chat', (e) => {
      if (e.type === 'approval_required' || e.type === 'pending_write')
        void harness.call('inbox:resolveApproval', {
          requestId: e.request_id,
          action: 'approve',
          note: '',
          argsHash: e.args_hash,
        });
    });
    await h.call('chat:send', { sessionId, content: 'go' });
    await waitFor(() => sleeps(marker) === 2);
    expect(sleeps(marker)).toBe(2);
    approve();
    await h.close();
    h = undefined;
    await waitFor(() => sleeps(marker) === 0);
    expect(sleeps(marker)).toBe(0);
  }, 60_000);
});
