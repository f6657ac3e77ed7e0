/**
 * execute_cmd in the sandbox, with real processes (docs/sandbox.md "Processes"): the process recorded for the crash
 * sweep is bubblewrap's, which leads the group that holds the command, so the sweep at the next start (R4) and
 * stop (X8) end the whole tree, even a child that left the group with `setsid`; where the sandbox cannot start a
 * call fails with why and how to fix it and the command does not run; only the decision runs it unconfined;
 * Windows runs it and says so.
 * Check ids (R4, X8, X10) are listed in docs/security-checks.md.
 */
import { existsSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase } from '../../db/database';
import { ProcessRegistry } from '../../processes/process-registry';
import { Sandbox } from '../../sandbox/index';
import { driveExecution } from '../execution';
import { failed, makeWorkspace, ok, type TestWorkspace } from '../_testing/workspace';
import { bareSandbox } from '../../sandbox/test-kit';
import { createExecuteCmdTool } from './execute-cmd';

let ws: TestWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const NO_STORES = { home: [], system: [] };

/** Live processes whose command line starts with `prefix`: pid → process group. */
function processes(prefix: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      const rest = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (cmd.startsWith(prefix) && rest[0] !== 'Z') out.set(Number(name), Number(rest[2]));
    } catch {
      /* exited meanwhile */
    }
  }
  return out;
}

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 300 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('the processes of a sandboxed command', () => {
  it("R4: the recorded pid is bubblewrap's, the group of the whole tree: the next start's sweep ends it", async () => {
    const db = openDatabase({ file: join(ws.base, 'skald.db') });
    try {
      const registry = new ProcessRegistry(db);
      const recorded: number[] = [];
      const tool = createExecuteCmdTool({
        sandbox: bareSandbox(),
        processes: { record: (pid, c) => (recorded.push(pid), registry.record(pid, c)), forget: () => undefined },
      });
      const marker = `${(Date.now() % 100000) + 300000}`;
      const exec = tool.run({ command: `sleep ${marker} & setsid sleep ${marker} & sleep ${marker}` }, ws.ctx);
      await waitFor(() => processes(`sleep ${marker}`).size === 3);
      const sleeps = processes(`sleep ${marker}`);
      expect(sleeps.size).toBe(3);
      expect(readFileSync(`/proc/${recorded[0]}/cmdline`, 'utf8').split('\0')[0]).toMatch(/bwrap$/);
      // Two of them are in bubblewrap's group; the one that called setsid left it.
      expect([...sleeps.values()].filter((group) => group === recorded[0])).toHaveLength(2);
      const report = registry.reapLeftovers(); // what the next start does after a crash
      expect(report.killed.map((p) => p.pid)).toEqual(recorded);
      // Its pid namespace ends with it: the setsid child goes too.
      await waitFor(() => processes(`sleep ${marker}`).size === 0);
      expect(processes(`sleep ${marker}`).size).toBe(0);
      await driveExecution(exec, new AbortController().signal);
    } finally {
      closeDatabase(db);
    }
  });

  it('X8: stop ends the whole tree inside the sandbox, a setsid child included', async () => {
    const tool = createExecuteCmdTool({ sandbox: bareSandbox() });
    const marker = `${(Date.now() % 100000) + 400000}`;
    const cancel = new AbortController();
    const exec = tool.run({ command: `setsid sleep ${marker} & sleep ${marker}` }, ws.ctx);
    await waitFor(() => processes(`sleep ${marker}`).size === 2);
    const done = driveExecution(exec, cancel.signal);
    cancel.abort();
    expect((await done).kind).toBe('cancelled');
    await waitFor(() => processes(`sleep ${marker}`).size === 0);
    expect(processes(`sleep ${marker}`).size).toBe(0);
  });
});

describe('timeouts', () => {
  it('X8: a timeout ends the whole tree inside the sandbox, a setsid child included', async () => {
    const tool = createExecuteCmdTool({ sandbox: bareSandbox() });
    const marker = `${(Date.now() % 100000) + 500000}`;
    const exec = tool.run({ command: `setsid sleep ${marker} & sleep ${marker}`, timeout: 1 }, ws.ctx);
    await waitFor(() => processes(`sleep ${marker}`).size === 2);
    expect(processes(`sleep ${marker}`).size).toBe(2);
    const outcome = await driveExecution(exec, new AbortController().signal);
    expect(outcome.kind).toBe('failed');
    await waitFor(() => processes(`sleep ${marker}`).size === 0);
    expect(processes(`sleep ${marker}`).size).toBe(0);
  });
});

describe('descriptors', () => {
  it('each run hands bubblewrap its own descriptor of the filter and closes it: none is left open', async () => {
    const tool = createExecuteCmdTool({ sandbox: bareSandbox() });
    /** This process's descriptors open on the filter's file. */
    const filters = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).endsWith('unix-sockets.bpf');
        } catch {
          return false;
        }
      });
    const runs = Array.from({ length: 10 }, () => ok(tool, { command: 'sleep 0.3' }, ws.ctx));
    await waitFor(() => processes('sleep 0.3').size === 10);
    expect(filters()).toEqual([]); // closed as soon as each was spawned, while the commands still run
    await Promise.all(runs);
    expect(filters()).toEqual([]);
  });
});

describe('where the sandbox cannot start', () => {
  const missing = () => new Sandbox({ credentialStores: NO_STORES, bwrap: join(ws.outside, 'no-bwrap') });

  it('a call fails with why and how to fix it, and the command does not run', async () => {
    const tool = createExecuteCmdTool({ sandbox: missing() });
    const error = await failed(tool, { command: 'touch RAN' }, ws.ctx);
    expect(error).toBe(
      'The sandbox cannot start, so the command did not run: bubblewrap (bwrap) is not installed, so commands cannot run in the sandbox. Install bubblewrap: `sudo apt install bubblewrap` (Debian, Ubuntu), `sudo dnf install bubblewrap` (Fedora), `sudo pacman -S bubblewrap` (Arch).',
    );
    expect(existsSync(join(ws.root, 'RAN'))).toBe(false);
    expect(await missing().status()).toMatchObject({ state: 'unavailable' });
  });

  it('a tool built without a sandbox runs no command, not even on a decision to run unconfined', async () => {
    const tool = createExecuteCmdTool();
    for (const sandbox of [undefined, { mode: 'unconfined' } as const]) {
      const error = await failed(tool, { command: 'touch RAN' }, { ...ws.ctx, ...(sandbox ? { sandbox } : {}) });
      expect(error).toBe('execute_cmd was built without a sandbox here, so it runs no command.');
    }
    expect(existsSync(join(ws.root, 'RAN'))).toBe(false);
    expect(tool.preview({ command: 'ls' }, { workingDir: ws.root, workspaceDir: ws.root })).toMatchObject({
      kind: 'command',
    });
  });

  it('only a decision to run unconfined runs it', async () => {
    const tool = createExecuteCmdTool({ sandbox: missing() });
    expect(await ok(tool, { command: 'touch RAN' }, { ...ws.ctx, sandbox: { mode: 'unconfined' } })).toBe(
      '(no output)\n[exit code 0]',
    );
    expect(existsSync(join(ws.root, 'RAN'))).toBe(true);
  });

  it('runs unconfined only when the person chose so in Settings → Sandbox, and the card and the result say it', async () => {
    let chosen = false;
    const sandbox = new Sandbox({
      credentialStores: NO_STORES,
      bwrap: join(ws.outside, 'no-bwrap'),
      unconfinedWhenUnavailable: () => chosen,
    });
    const tool = createExecuteCmdTool({ sandbox });
    expect(await failed(tool, { command: 'touch RAN' }, ws.ctx)).toContain('The sandbox cannot start');
    expect(sandbox.cardLine(ws.root)).toEqual({
      state: 'unavailable',
      text: 'cannot run in the sandbox: bubblewrap (bwrap) is not installed, so commands cannot run in the sandbox.',
      fix: expect.stringContaining('sudo apt install bubblewrap'),
    });
    expect(existsSync(join(ws.root, 'RAN'))).toBe(false);
    chosen = true;
    expect(sandbox.cardLine(ws.root)).toMatchObject({
      state: 'unconfined',
      text: expect.stringMatching(
        /^runs outside the sandbox, with your full rights, as you chose in Settings → Sandbox: bubblewrap/,
      ),
    });
    expect(await ok(tool, { command: 'touch RAN' }, ws.ctx)).toBe(
      '(no output)\n[exit code 0]\n[not sandboxed: the sandbox cannot start (bubblewrap (bwrap) is not installed, so commands cannot run in the sandbox.); you chose in Settings → Sandbox to run commands outside it.]',
    );
    expect(existsSync(join(ws.root, 'RAN'))).toBe(true);
  });

  it('a card says where a command runs: in the sandbox, writing inside the working folder, without network', async () => {
    const sandbox = new Sandbox({ credentialStores: NO_STORES });
    await sandbox.status();
    expect(sandbox.cardLine(ws.root)).toEqual({
      state: 'sandboxed',
      text: `runs in the sandbox: writes inside ${ws.root}, no network`,
      fix: null,
    });
    expect(
      createExecuteCmdTool({ sandbox }).preview({ command: 'ls' }, { workingDir: ws.root, workspaceDir: ws.root }),
    ).toEqual({
      kind: 'command',
      text: '$ ls',
      sandboxedIn: ws.root,
    });
    const windows = new Sandbox({ credentialStores: NO_STORES, platform: 'win32' });
    await windows.status();
    expect(windows.cardLine(ws.root)).toMatchObject({ state: 'unsupported', text: expect.stringContaining('Windows') });
  });

  it('Windows has no sandbox: the command runs and its result says so', async () => {
    const tool = createExecuteCmdTool({ sandbox: new Sandbox({ credentialStores: NO_STORES, platform: 'win32' }) });
    expect(await ok(tool, { command: 'echo hi' }, ws.ctx)).toBe(
      'hi\n[exit code 0]\n[not sandboxed: Windows has no command sandbox in Skald: commands run with your full rights.]',
    );
  });

  it('a folder the sandbox hides cannot be the folder a command runs in', async () => {
    const tool = createExecuteCmdTool({ sandbox: bareSandbox() });
    const error = await failed(
      tool,
      { command: 'touch RAN', workdir: ws.outside },
      {
        ...ws.ctx,
        protectedRoots: [ws.outside],
      },
    );
    expect(error).toBe(
      `The sandbox hides the folder this command would run in (${ws.outside}): it is in the app's data folder. Run it in the working folder.`,
    );
    expect(existsSync(join(ws.outside, 'RAN'))).toBe(false);
  });
});
