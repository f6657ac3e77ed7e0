/**
 * The core's background warm-up (`core.start()`: the bash grammar, the AI SDK, the providers in use, the shell runner,
 * docs/performance.md "Performance targets") waits WARM_UP_DELAY_MS so the first window loads first (only one plain
 * shell decision, which loads nothing, runs at once), and is
 * cancelled by `dispose`: a core closed right after it started never lets the warm-up reach its closed database, so
 * nothing logs a failure.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { warmUpDelayFromEnv } from './config';
import { createCore } from './index';
import { WARM_UP_DELAY_MS } from './warm-up';
import { PLAIN_AT_START } from './approval/gate-warm-up';
import { loadAiSdk } from './llm/ai-sdk';
import { loadExeca } from './tools/shell/execute-cmd';
import { cleanupTempDirs, tempDir } from '../../../test/helpers/temp';

afterEach(() => {
  vi.restoreAllMocks();
  cleanupTempDirs();
});

/** Lets every step of the warm-up that could still run do so: its loads settle, then a few event-loop turns. */
async function afterTheWarmUpCouldRun(core: Awaited<ReturnType<typeof createCore>>): Promise<void> {
  await core.approval.shell.whenLoaded();
  await loadAiSdk();
  await loadExeca();
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('the background warm-up', () => {
  it('is cancelled when the core is closed right after it started: no failure is logged', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const dir = tempDir('skald-warm-up-');
    const core = await createCore({
      dataDir: join(dir, 'data'),
      workspaceDir: join(dir, 'ws'),
      shape: 'web',
      version: 'test',
    });
    core.start();
    await core.dispose();
    await afterTheWarmUpCouldRun(core);
    expect(errors.mock.calls.filter((call) => String(call[0]).includes('warm-up'))).toEqual([]);
  });

  it('waits its delay before loading anything, so the first window is served first', async () => {
    expect(WARM_UP_DELAY_MS).toBeGreaterThan(0);
    const dir = tempDir('skald-warm-up-');
    const core = await createCore(
      { dataDir: join(dir, 'data'), workspaceDir: join(dir, 'ws'), shape: 'web', version: 'test' },
      { warmUpDelayMs: 150 },
    );
    try {
      const loaded = vi.fn();
      core.start(); // its 150 ms timer is due before the 100 ms one below only if it did not wait
      // The grammar's load is the warm-up's first step; a wait for it does not start it (only a decision needing it does).
      const watching = (async () => {
        while (core.approval.shell.needsGrammar('ls "a b"')) await new Promise((resolve) => setTimeout(resolve, 5));
        loaded();
      })();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(loaded).not.toHaveBeenCalled();
      await watching; // then it does load, by itself
    } finally {
      await core.dispose();
    }
  });

  it('decides one plain line through the gate as it starts (its code compiled), without loading the grammar', async () => {
    const dir = tempDir('skald-warm-up-');
    const core = await createCore(
      { dataDir: join(dir, 'data'), workspaceDir: join(dir, 'ws'), shape: 'web', version: 'test' },
      { warmUpDelayMs: 60_000 },
    );
    try {
      const check = vi.spyOn(core.approval.gate, 'check');
      core.start();
      expect(check).toHaveBeenCalledTimes(1);
      expect(check.mock.calls[0]![0]).toMatchObject({ source: 'warm-up', args: { command: PLAIN_AT_START } });
      expect(core.approval.shell.needsGrammar('ls "a b"')).toBe(true);
    } finally {
      await core.dispose();
    }
  });

  it('still loads what it warms when the core stays open', async () => {
    const dir = tempDir('skald-warm-up-');
    const core = await createCore({
      dataDir: join(dir, 'data'),
      workspaceDir: join(dir, 'ws'),
      shape: 'web',
      version: 'test',
    });
    core.start();
    try {
      await core.approval.shell.whenLoaded();
      expect(core.approval.shell.needsGrammar('ls "a b"')).toBe(false);
    } finally {
      await core.dispose();
    }
  });
});

describe('SKALD_WARM_UP_DELAY_MS (the e2e tests put the warm-up off with it: e2e/fixtures.ts)', () => {
  it('sets the delay when it is a number of milliseconds, and leaves the default otherwise', () => {
    expect(warmUpDelayFromEnv({ SKALD_WARM_UP_DELAY_MS: '3600000' })).toEqual({ warmUpDelayMs: 3_600_000 });
    expect(warmUpDelayFromEnv({ SKALD_WARM_UP_DELAY_MS: '0' })).toEqual({ warmUpDelayMs: 0 });
    for (const value of [undefined, '', 'soon', '-1'])
      expect(warmUpDelayFromEnv({ SKALD_WARM_UP_DELAY_MS: value })).toEqual({});
  });
});
