/**
 * execute_cmd against real child processes: output and exit codes, the audit log line before the run, X8 (stop
 * kills the whole process group — no descendant survives), X9 (timeout, 100 KB output cap, scrubbed env).
 * Check ids (X8, X9) are listed in docs/security-checks.md.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { driveExecution } from '../execution';
import { failed, makeWorkspace, ok, runTool, type TestWorkspace } from '../_testing/workspace';
import { bareSandbox } from '../../sandbox/test-kit';
import { createExecuteCmdTool, MAX_OUTPUT_BYTES } from './execute-cmd';
import { scrubEnv } from './env-scrub';

let ws: TestWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

/** Live (non-zombie) processes whose command line contains `marker`. */
function liveProcesses(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      const state = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.[0];
      if (cmd.startsWith(marker) && state !== 'Z') pids.push(Number(name));
    } catch {
      /* exited meanwhile */
    }
  }
  return pids;
}

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('execute_cmd', () => {
  const tool = createExecuteCmdTool({ sandbox: bareSandbox() });

  it('returns combined output and the exit code, in workdir, and logs the command before running it', async () => {
    ws.write('sub/f.txt', 'hello');
    const out = await ok(tool, { command: 'cat f.txt; echo err 1>&2; exit 3', workdir: `${ws.root}/sub` }, ws.ctx);
    expect(out).toBe('helloerr\n[exit code 3]');
    expect(ws.logs[0]).toEqual({
      message: 'execute_cmd: running shell command',
      fields: { command: 'cat f.txt; echo err 1>&2; exit 3', workdir: `${ws.root}/sub`, timeout_secs: 120 },
    });
  });

  it('output reads as a terminal shows it: colours and links taken out, progress redrawn with \\r as its last state', async () => {
    const script = [
      String.raw`printf '\033[1;31merror\033[0m: \033]8;;https://example.com\007link\033]8;;\007 here\n'`,
      String.raw`printf 'downloading 10%%\rdownloading 55%%\rdone           \rdone\n'`,
      String.raw`printf 'windows line\r\nnext\n'`,
    ].join('; ');
    expect(await ok(tool, { command: script }, ws.ctx)).toBe(
      'error: link here\ndone           \nwindows line\nnext\n[exit code 0]',
    );
  });

  it('explains a bad workdir and a bad timeout', async () => {
    expect(await failed(tool, { command: 'true', workdir: '/nonexistent/dir' }, ws.ctx)).toMatch(/does not exist/);
    expect(await failed(tool, { command: 'true', timeout: 601 }, ws.ctx)).toMatch(/timeout/);
    expect(await failed(tool, { command: 'true', timeout: 0 }, ws.ctx)).toMatch(/timeout/);
    expect(await failed(tool, {}, ws.ctx)).toMatch(/command/);
  });

  it('X8: stop kills the whole process group; no descendant survives', async () => {
    const marker = `${(Date.now() % 100000) + 100000}`;
    const cancel = new AbortController();
    const exec = tool.run({ command: `sleep ${marker} & sleep ${marker}` }, ws.ctx);
    await waitFor(() => liveProcesses(`sleep ${marker}`).length === 2);
    expect(liveProcesses(`sleep ${marker}`)).toHaveLength(2);
    const done = driveExecution(exec, cancel.signal);
    cancel.abort();
    const outcome = await done;
    expect(outcome.kind).toBe('cancelled');
    expect(exec.state()).toBe('cancelled');
    await waitFor(() => liveProcesses(`sleep ${marker}`).length === 0);
    expect(liveProcesses(`sleep ${marker}`)).toEqual([]);
  });

  it('X9: a timeout kills the group and fails with the output so far', async () => {
    const marker = `${(Date.now() % 100000) + 200000}`;
    const outcome = await runTool(
      tool,
      { command: `echo started; sleep ${marker} & sleep ${marker}`, timeout: 1 },
      ws.ctx,
    );
    expect(outcome.kind).toBe('failed');
    if (outcome.kind === 'failed') expect(outcome.error).toMatch(/^started\n\[timed out after 1 s/);
    await waitFor(() => liveProcesses(`sleep ${marker}`).length === 0);
    expect(liveProcesses(`sleep ${marker}`)).toEqual([]);
  });

  it('X9: output is cut at 100 KB with a note', async () => {
    const out = await ok(tool, { command: 'head -c 300000 /dev/zero | tr "\\0" a' }, ws.ctx);
    expect(out.startsWith('a'.repeat(MAX_OUTPUT_BYTES))).toBe(true);
    expect(out).not.toContain('a'.repeat(MAX_OUTPUT_BYTES + 1));
    expect(out).toContain('[output cut at 100 KB of 300000 bytes');
    expect(out).toMatch(/\[exit code 0\]$/);
  });

  it('X9: provider keys, credential-like names, SKALD_* and stored secret values never reach the child', async () => {
    const scrubbed = createExecuteCmdTool({
      sandbox: bareSandbox(),
      baseEnv: () => ({
        PATH: process.env.PATH,
        HOME: '/tmp',
        OPENAI_API_KEY: 'sk-openai',
        ANTHROPIC_API_KEY: 'sk-ant',
        OPENROUTER_API_KEY: 'sk-or',
        DEEPSEEK_API_KEY: 'sk-ds',
        GITHUB_TOKEN: 'ghp_x',
        DB_PASSWORD: 'hunter2',
        MY_CREDENTIALS: 'c',
        SKALD_HOME: '/data',
        INNOCENT: 'stored-secret-value-123',
        WRAPPED: 'Bearer stored-secret-value-123',
        KEEP_ME: 'visible',
      }),
      secretValues: () => ['stored-secret-value-123'],
    });
    const out = await ok(scrubbed, { command: 'env' }, ws.ctx);
    for (const gone of [
      'OPENAI_API_KEY',
      'ANTHROPIC_API_KEY',
      'OPENROUTER_API_KEY',
      'DEEPSEEK_API_KEY',
      'GITHUB_TOKEN',
      'DB_PASSWORD',
      'MY_CREDENTIALS',
      'SKALD_HOME',
      'INNOCENT',
      'WRAPPED',
      'sk-',
      'hunter2',
    ]) {
      expect(out).not.toContain(gone);
    }
    expect(out).toContain('KEEP_ME=visible');
  });

  it('scrubEnv keeps ordinary variables', () => {
    expect(scrubEnv({ PATH: '/bin', LANG: 'C', AWS_SECRET_ACCESS_KEY: 'x', Api_Key: 'y' }, [])).toEqual({
      PATH: '/bin',
      LANG: 'C',
    });
  });

  it('labels: short shows the program, full the command line, both within budget', () => {
    const command = `FOO=1 git commit -m "${'feat: '.repeat(40)}"`;
    expect(tool.describe({ command }, 'short')).toBe('execute_cmd `git`');
    const full = tool.describe({ command }, 'full');
    expect(Array.from(full).length).toBe(120);
    expect(full.endsWith('…')).toBe(true);
  });
});
