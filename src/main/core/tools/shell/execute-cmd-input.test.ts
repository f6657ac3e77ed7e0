/**
 * execute_cmd runs the shell the gate parsed (bash) and turns bad input into short tool errors, with real child
 * processes: dash-only readings of a command never run a hidden part, start-up variables that would change bash
 * are dropped, and a NUL, an over-long word or an environment too large to start end as `failed` at once (the
 * spawn error used to be lost and the call never settled).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failed, makeWorkspace, ok, runTool, type TestWorkspace } from '../_testing/workspace';
import { DASH_SPLITS } from '../../approval/attack-inputs';
import { bareSandbox } from '../../sandbox/test-kit';
import { createExecuteCmdTool, MAX_COMMAND_BYTES } from './execute-cmd';

let ws: TestWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const tool = createExecuteCmdTool({ sandbox: bareSandbox() });

describe('the shell that runs is bash', () => {
  it('runs with bash: $BASH_VERSION is set and bash-only syntax works', async () => {
    const out = await ok(
      tool,
      { command: 'echo "v=${BASH_VERSION:+yes}"; [[ a == a ]] && echo dbl; echo $\'tab\\there\'' },
      ws.ctx,
    );
    expect(out).toBe('v=yes\ndbl\ntab\there\n[exit code 0]');
  });

  for (const command of DASH_SPLITS) {
    it(`no hidden command runs: ${JSON.stringify(command)}`, async () => {
      await runTool(tool, { command }, ws.ctx);
      expect(existsSync(join(ws.root, 'PWNED'))).toBe(false);
    });
  }

  it('BASH_ENV, ENV, SHELLOPTS and exported functions from the environment never change what runs', async () => {
    const rc = join(ws.outside, 'rc.sh');
    writeFileSync(rc, `touch ${join(ws.root, 'SOURCED')}\n`);
    const env = createExecuteCmdTool({
      sandbox: bareSandbox(),
      baseEnv: () => ({
        PATH: process.env.PATH,
        BASH_ENV: rc,
        ENV: rc,
        SHELLOPTS: 'xtrace',
        BASHOPTS: 'extglob',
        'BASH_FUNC_ls%%': '() { touch HIJACKED; }',
        CDPATH: ws.outside,
      }),
    });
    const out = await ok(env, { command: 'ls; echo "[$SHELLOPTS]" | grep -c xtrace; cd . && pwd' }, ws.ctx);
    expect(existsSync(join(ws.root, 'SOURCED'))).toBe(false);
    expect(existsSync(join(ws.root, 'HIJACKED'))).toBe(false);
    expect(out).toContain(`0\n${ws.root}\n`);
  });
});

describe('bad input is a short tool error, at once', () => {
  it('one word over 128 KiB fails fast with a short message (timeout 5)', async () => {
    for (const command of [
      `echo ${'a'.repeat(200 * 1024)}`,
      'a'.repeat(MAX_COMMAND_BYTES + 1),
      `echo ${'é'.repeat(70 * 1024)}`,
    ]) {
      const started = Date.now();
      const error = await failed(tool, { command, timeout: 5 }, ws.ctx);
      expect(Date.now() - started).toBeLessThan(4000);
      expect(error).toMatch(/at most 131071 bytes/);
      expect(error.length).toBeLessThan(400);
    }
  });

  it('a command right at the limit still runs', async () => {
    const command = `: ${'a'.repeat(MAX_COMMAND_BYTES - 2)}`;
    expect(await ok(tool, { command }, ws.ctx)).toBe('(no output)\n[exit code 0]');
  });

  it('a NUL in the command is refused with a clear message', async () => {
    for (const command of ['echo a\0b', '\0', 'ls\0; touch PWNED']) {
      const error = await failed(tool, { command }, ws.ctx);
      expect(error).toMatch(/NUL character/);
      expect(error.length).toBeLessThan(300);
    }
    expect(existsSync(join(ws.root, 'PWNED'))).toBe(false);
  });

  it('a process that cannot start (environment too large: E2BIG) settles as failed with a short reason', async () => {
    const huge = createExecuteCmdTool({
      sandbox: bareSandbox(),
      baseEnv: () => ({ PATH: process.env.PATH, BIG: 'x'.repeat(3 * 1024 * 1024) }),
    });
    const started = Date.now();
    const error = await failed(huge, { command: 'true', timeout: 5 }, ws.ctx);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(error).toMatch(/could not start: .*E2BIG/);
    expect(error.length).toBeLessThan(300);
  });

  it('a shell binary that does not exist settles as failed', async () => {
    const missing = createExecuteCmdTool({ sandbox: bareSandbox(), shell: join(ws.outside, 'no-such-bash') });
    expect(await failed(missing, { command: 'true', timeout: 5 }, ws.ctx)).toMatch(/could not start: ENOENT/);
  });
});
