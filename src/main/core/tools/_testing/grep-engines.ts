/**
 * Test support (not shipped behaviour): every way `grep_files` can answer, for tests that hold them all to one
 * answer (docs/architecture.md "Tools"): the JS engine on this thread, with its worker pool (when one is given), rg's
 * one stream, rg batch by batch, and the JS search of the first files joined to rg (the app's default).
 */
import { expect } from 'vitest';
import { createGrepFilesTool } from '../fs/grep-files';
import type { GrepPool } from '../fs/grep-pool';
import type { ToolArgs, ToolRunContext } from '../tool';
import { ok } from './workspace';

export const RG = '/usr/bin/rg';

export type GrepEngines = Record<string, ReturnType<typeof createGrepFilesTool>>;

/** `jsPrefixFiles`: how many of the walk's first files the joined engine searches before rg takes the rest. */
export function everyGrepEngine(opts: { pool?: GrepPool; jsPrefixFiles?: number } = {}): GrepEngines {
  return {
    js: createGrepFilesTool({ ripgrepPath: null }),
    ...(opts.pool ? { pooled: createGrepFilesTool({ ripgrepPath: null, pool: opts.pool, poolAfterMs: 0 }) } : {}),
    stream: createGrepFilesTool({ ripgrepPath: RG, jsPrefixMs: 0 }),
    batches: createGrepFilesTool({ ripgrepPath: RG, streamBudgetBytes: 0, jsPrefixMs: 0 }),
    joined: createGrepFilesTool({ ripgrepPath: RG, jsPrefixFiles: opts.jsPrefixFiles ?? 1 }),
  };
}

/** Every engine gives exactly `expected` for these arguments (the failure names the engine). */
export async function expectEveryEngine(
  engines: GrepEngines,
  args: ToolArgs,
  ctx: ToolRunContext,
  expected: string,
): Promise<void> {
  for (const [name, tool] of Object.entries(engines)) expect(await ok(tool, args, ctx), name).toBe(expected);
}
