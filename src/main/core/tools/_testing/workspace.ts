/**
 * Test support (not shipped behaviour): a real temp workspace with a `ToolRunContext`, and `runTool` that drives
 * a tool's real execution to its outcome. Kept apart from the tools so the F10 check can exempt it.
 * Check ids (F10) are listed in docs/security-checks.md.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { driveExecution } from '../execution';
import type { ExecutionOutcome, Tool, ToolArgs, ToolRunContext } from '../tool';

export interface TestWorkspace {
  /** Parent temp dir (holds the workspace and an `outside/` sibling). */
  base: string;
  root: string;
  outside: string;
  ctx: ToolRunContext;
  logs: { message: string; fields?: Record<string, unknown> }[];
  write(rel: string, content: string | Buffer): string;
  cleanup(): void;
}

export function makeWorkspace(prefix = 'skald-tools-'): TestWorkspace {
  const base = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const root = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  const logs: TestWorkspace['logs'] = [];
  const ctx: ToolRunContext = {
    workingDir: root,
    workspaceDir: root,
    signal: new AbortController().signal,
    log: (message, fields) => logs.push(fields ? { message, fields } : { message }),
    protectedRoots: [],
  };
  return {
    base,
    root,
    outside,
    ctx,
    logs,
    write(rel, content) {
      const full = join(root, rel);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, content);
      return full;
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

export async function runTool(
  tool: Tool,
  args: ToolArgs,
  ctx: ToolRunContext,
  cancel = new AbortController().signal,
): Promise<ExecutionOutcome> {
  return driveExecution(tool.run(args, ctx), cancel);
}

/** The result text of a completed call; fails the test with the error otherwise. */
export async function ok(tool: Tool, args: ToolArgs, ctx: ToolRunContext): Promise<string> {
  const outcome = await runTool(tool, args, ctx);
  if (outcome.kind !== 'completed')
    throw new Error(
      `expected ${tool.name} to complete, got ${outcome.kind}: ${outcome.kind === 'failed' ? outcome.error : ''}`,
    );
  return outcome.result;
}

/** The error text of a failed call; fails the test otherwise. */
export async function failed(tool: Tool, args: ToolArgs, ctx: ToolRunContext): Promise<string> {
  const outcome = await runTool(tool, args, ctx);
  if (outcome.kind !== 'failed')
    throw new Error(
      `expected ${tool.name} to fail, got ${outcome.kind}${outcome.kind === 'completed' ? `: ${outcome.result}` : ''}`,
    );
  return outcome.error;
}
