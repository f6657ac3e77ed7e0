/**
 * The core's background warm-up (`core.start()`: the bash grammar, the AI SDK, the providers in use, the shell runner,
 * docs/architecture.md "Performance targets") is cancelled by `dispose`: a core closed right after it started never
 * lets the warm-up reach its closed database, so nothing logs a failure.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCore } from './index';
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
    const core = await createCore({ dataDir: join(dir, 'data'), workspaceDir: join(dir, 'ws'), shape: 'web', version: 'test' });
    core.start();
    await core.dispose();
    await afterTheWarmUpCouldRun(core);
    expect(errors.mock.calls.filter((call) => String(call[0]).includes('warm-up'))).toEqual([]);
  });

  it('still loads what it warms when the core stays open', async () => {
    const dir = tempDir('skald-warm-up-');
    const core = await createCore({ dataDir: join(dir, 'data'), workspaceDir: join(dir, 'ws'), shape: 'web', version: 'test' });
    core.start();
    try {
      await core.approval.shell.whenLoaded();
      expect(core.approval.shell.needsGrammar('ls "a b"')).toBe(false);
    } finally {
      await core.dispose();
    }
  });
});
