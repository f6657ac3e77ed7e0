/**
 * SimpleExecution and driveExecution: the terminal outcomes, stop aborting the work's signal (and so its I/O),
 * a throw becoming `failed`, and the driver calling stop exactly once when the turn's cancel signal fires.
 */
import { describe, expect, it } from 'vitest';
import { driveExecution, SimpleExecution } from './execution';
import type { ToolExecution } from './tool';

describe('SimpleExecution', () => {
  it('completes with the work result and reports state', async () => {
    const exec = new SimpleExecution(async () => ({ kind: 'completed', result: 'ok' }));
    expect(exec.state()).toBe('running');
    expect(await exec.wait()).toEqual({ kind: 'completed', result: 'ok' });
    expect(exec.state()).toBe('completed');
  });

  it('turns a throw into a readable failure', async () => {
    const exec = new SimpleExecution(async () => {
      throw new Error('disk on fire');
    });
    expect(await exec.wait()).toEqual({ kind: 'failed', error: 'The tool failed unexpectedly: disk on fire' });
    expect(exec.state()).toBe('failed');
  });

  it('stop aborts the signal handed to the work, so in-flight I/O ends', async () => {
    let sawAbort = false;
    const exec = new SimpleExecution(
      (signal) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => resolve({ kind: 'completed', result: 'too late' }), 60_000);
          signal.addEventListener('abort', () => {
            sawAbort = true;
            clearTimeout(timer);
            resolve({ kind: 'completed', result: 'aborted' });
          });
        }),
    );
    await exec.stop();
    expect(sawAbort).toBe(true);
    expect(await exec.wait()).toEqual({ kind: 'cancelled' });
    expect(exec.state()).toBe('cancelled');
    await exec.stop(); // idempotent
  });

  it('a parent signal that is already aborted cancels at once', async () => {
    const parent = new AbortController();
    parent.abort();
    const exec = new SimpleExecution(
      async (signal) => ({ kind: 'completed', result: String(signal.aborted) }),
      parent.signal,
    );
    expect((await exec.wait()).kind).toBe('cancelled');
  });

  it('a parent signal aborted while the work runs aborts the signal handed to the work, with its reason', async () => {
    const parent = new AbortController();
    let seen: unknown = null;
    const exec = new SimpleExecution(
      (signal) =>
        new Promise((resolve) =>
          signal.addEventListener(
            'abort',
            () => ((seen = signal.reason), resolve({ kind: 'completed', result: 'late' })),
          ),
        ),
      parent.signal,
    );
    parent.abort('turn stopped');
    expect(await exec.wait()).toEqual({ kind: 'cancelled' });
    expect(seen).toBe('turn stopped');
  });

  it('listens to a parent signal once however many executions share it, and hears it for none whose work is over (one turn signal serves many calls)', async () => {
    const parent = new AbortController();
    const added: unknown[] = [];
    const add = parent.signal.addEventListener.bind(parent.signal);
    parent.signal.addEventListener = ((type: string, fn: EventListener, options?: AddEventListenerOptions) => (
      added.push(fn), add(type, fn, options)
    )) as typeof add;
    const handed: AbortSignal[] = [];
    for (let i = 0; i < 3; i++) {
      const exec = new SimpleExecution(async (signal) => {
        handed.push(signal);
        return { kind: 'completed', result: 'ok' };
      }, parent.signal);
      expect(await driveExecution(exec, parent.signal)).toEqual({ kind: 'completed', result: 'ok' });
    }
    let stops = 0;
    const running = new SimpleExecution(
      (signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve({ kind: 'cancelled' }))),
      parent.signal,
    );
    const stop = running.stop.bind(running);
    running.stop = () => (stops++, stop());
    const outcome = driveExecution(running, parent.signal);
    expect(added).toHaveLength(1);
    parent.abort('turn stopped');
    expect(await outcome).toEqual({ kind: 'cancelled' });
    expect(stops).toBe(1); // the one still running hears it, through its execution and its driver
    expect(handed.map((s) => s.aborted)).toEqual([false, false, false]); // those that ended do not
  });
});

describe('driveExecution', () => {
  it('calls stop once when the cancel signal fires, then returns the outcome', async () => {
    let stops = 0;
    let finish: (v: { kind: 'cancelled' }) => void = () => undefined;
    const exec: ToolExecution = {
      state: () => 'running',
      wait: () => new Promise((resolve) => (finish = resolve)),
      stop: async () => {
        stops++;
        finish({ kind: 'cancelled' });
      },
    };
    const cancel = new AbortController();
    const outcome = driveExecution(exec, cancel.signal);
    cancel.abort();
    cancel.abort();
    expect(await outcome).toEqual({ kind: 'cancelled' });
    expect(stops).toBe(1);
  });

  it('does not stop a call that finishes first', async () => {
    let stops = 0;
    const exec = new SimpleExecution(async () => ({ kind: 'completed', result: 'x' }));
    const original = exec.stop.bind(exec);
    exec.stop = async () => {
      stops++;
      await original();
    };
    const cancel = new AbortController();
    expect(await driveExecution(exec, cancel.signal)).toEqual({ kind: 'completed', result: 'x' });
    cancel.abort();
    expect(stops).toBe(0);
  });
});

describe('bespoke stop (extension point)', () => {
  it('a tool can return its own execution whose stop also tears down remote work', async () => {
    const { defineTool } = await import('./define-tool');
    const { z } = await import('zod');
    const remote = { interrupted: 0 };
    class RemoteExecution extends SimpleExecution {
      override async stop(): Promise<void> {
        remote.interrupted++; // e.g. POST /interrupt to the image server
        await super.stop();
      }
    }
    const tool = defineTool({
      name: 'remote_job',
      description: 'long remote job',
      input: z.object({}),
      kind: 'other',
      category: 'config',
      executeAsync: (_a, _ctx, signal) =>
        new Promise((resolve) => signal.addEventListener('abort', () => resolve('aborted'))),
      run: (args, ctx, self) => new RemoteExecution(() => self.executeAsync(args, ctx), ctx.signal),
    });
    const cancel = new AbortController();
    const ctx = { workingDir: '/', workspaceDir: '/', signal: cancel.signal, log: () => undefined };
    const done = driveExecution(tool.run({}, ctx), cancel.signal);
    cancel.abort();
    expect((await done).kind).toBe('cancelled');
    expect(remote.interrupted).toBe(1);
  });
});
