/**
 * The shell gate before the bash grammar has loaded (docs/shell-analysis.md "Cold start"): the app starts without
 * waiting for the grammar; a plain command is decided at once (read without it), and a command only the grammar can
 * read is decided once it has loaded — by the session, which waits for it — so the decision is the same whenever it
 * is made. A caller that does not wait meanwhile gets "unparsed", which never allows.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RunContextSchema } from '../../../shared/run-context';
import { dispatchCall } from '../bridge/dispatch';
import { createCore, type Core } from '../index';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { startScriptedLlm, type ScriptedLlm } from '../../../../test/llm-server/index';
import { makeKit, type Kit } from './test-kit';

let k: Kit | undefined;
let core: Core | undefined;
let llm: ScriptedLlm | undefined;
afterEach(async () => {
  k?.close();
  await core?.dispose();
  await llm?.close();
  k = core = llm = undefined;
  cleanupTempDirs();
});

const NEEDS_GRAMMAR = 'ls "my notes" | head -3';

/**
 * A core (never started, so nothing has begun loading the grammar) whose model asks to run NEEDS_GRAMMAR once, with
 * rules that allow both of its commands; `call` goes through the bridge's dispatch as the window's calls do.
 */
async function coreWithShellModel(): Promise<{
  core: Core;
  call: (channel: string, request: unknown) => Promise<Record<string, unknown>>;
}> {
  llm = await startScriptedLlm({
    turns: [{ toolCalls: [{ name: 'execute_cmd', arguments: { command: NEEDS_GRAMMAR } }] }, { text: 'listed' }],
  });
  const dir = tempDir();
  const made = await createCore({
    dataDir: join(dir, 'data'),
    workspaceDir: join(dir, 'ws'),
    shape: 'web',
    version: 'test',
  });
  core = made;
  const call = async (channel: string, request: unknown) => {
    const outcome = await dispatchCall(made.handlers, channel, request);
    if (!outcome.ok) throw new Error(outcome.error.message);
    return outcome.result as Record<string, unknown>;
  };
  const { provider } = (await call('providers:create', {
    kind: 'openai_compatible',
    name: 'scripted',
    baseUrl: llm.baseUrl,
    apiKey: 'k',
  })) as { provider: { id: number } };
  await call('models:create', { providerId: provider.id, modelId: 'scripted-1' });
  await call('approval:createRule', {
    tool_pattern: 'execute_cmd',
    command_pattern: 'ls *',
    action: 'allow',
    priority: 1,
  });
  await call('approval:createRule', {
    tool_pattern: 'execute_cmd',
    command_pattern: 'head *',
    action: 'allow',
    priority: 1,
  });
  return { core: made, call };
}

describe('the shell gate before its grammar has loaded', () => {
  it('decides plain commands at once; a grammar command waits, and is then decided as a loaded gate decides it', async () => {
    k = await makeKit({ shellGrammar: 'background' });
    const loaded = await makeKit();
    for (const kit of [k, loaded]) {
      kit.rules.createRule({ tool_pattern: 'execute_cmd', command_pattern: 'ls *', action: 'allow', priority: 1 });
      kit.rules.createRule({ tool_pattern: 'execute_cmd', command_pattern: 'head *', action: 'allow', priority: 1 });
    }
    const shell = (kit: Kit, command: string) =>
      kit.call('execute_cmd', { command, workdir: kit.workspace }, { category: 'shell' });

    expect(k.gate.whenReadyFor(shell(k, 'ls -la | head -3'))).toBeNull();
    expect(k.gate.check(shell(k, 'ls -la | head -3'))).toMatchObject({ action: 'allow', why: { kind: 'rule' } });
    expect(k.gate.whenReadyFor(k.call('read_file', { path: join(k.workspace, 'a') }))).toBeNull();

    const ready = k.gate.whenReadyFor(shell(k, NEEDS_GRAMMAR));
    expect(ready).not.toBeNull();
    // Not waited for: unparsed, which never allows.
    const early = k.gate.explain(shell(k, NEEDS_GRAMMAR));
    expect(early.decision.action).toBe('require');
    expect(early.trace.join('\n')).toContain('the shell grammar is still loading');
    await ready;
    expect(k.gate.whenReadyFor(shell(k, NEEDS_GRAMMAR))).toBeNull();
    const after = k.gate.check(shell(k, NEEDS_GRAMMAR));
    expect(after).toMatchObject({ action: 'allow', why: { kind: 'rule' } });
    expect(after).toEqual({ ...loaded.gate.check(shell(loaded, NEEDS_GRAMMAR)), why: { ...after.why } });
    loaded.close();
  });

  it('a turn on a core whose grammar was never started waits for it and decides as usual', async () => {
    const { core, call } = await coreWithShellModel();
    // No core.start(): nothing has begun loading the grammar when the model's call arrives.
    expect(core.approval.shell.needsGrammar(NEEDS_GRAMMAR)).toBe(true); // (asking does not start the load)
    const decided = new Promise<unknown>((resolve) =>
      core.events.subscribe('chat', (e) => e.type === 'tool_decision' && resolve(e.decision)),
    );
    const { id } = (await call('chat:createSession', {})) as { id: number };
    await call('chat:send', { sessionId: id, content: 'list my notes' });
    expect(await decided).toMatchObject({ action: 'allow', why: { kind: 'rule' } });
    await core.sessions.settle(id);
    // The Security page's preview waits the same way.
    const preview = (await call('approval:explain', {
      toolName: 'execute_cmd',
      args: { command: 'ls "a b"' },
      runContext: RunContextSchema.parse({}),
    })) as { decision: { action: string } };
    expect(preview.decision.action).toBe('allow');
  });

  it('starts loading the grammar as soon as the model begins writing a shell command, before the gate is asked', async () => {
    const { core, call } = await coreWithShellModel();
    // No core.start(): nothing loads the grammar but the turn itself.
    const loads = vi.spyOn(core.approval.shell, 'whenLoaded');
    const asks = vi.spyOn(core.approval.port, 'whenReadyFor');
    const decided = new Promise<unknown>((resolve) =>
      core.events.subscribe('chat', (e) => e.type === 'tool_decision' && resolve(e.decision)),
    );
    const { id } = (await call('chat:createSession', {})) as { id: number };
    await call('chat:send', { sessionId: id, content: 'list my notes' });
    await decided;
    await core.sessions.settle(id);
    expect(asks).toHaveBeenCalled();
    expect(loads).toHaveBeenCalled();
    // The load began from the stream (the tool call's first part), before the round's calls went to the gate.
    expect(loads.mock.invocationCallOrder[0]!).toBeLessThan(asks.mock.invocationCallOrder[0]!);
  });

  it('core.start() starts the grammar runtime at once (the CommonJS build, the one every grammar load uses), not the grammar', () => {
    // In a fresh process: whether a module is loaded is process-wide, and this worker may have loaded it before.
    const root = join(import.meta.dirname, '..', '..', '..', '..');
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(root, 'test/helpers/runtime-script-child.ts'), join(tempDir(), 'data')],
      { cwd: root, encoding: 'utf8' },
    );
    const line = child.stdout.split('\n').find((l) => l.startsWith('{'));
    expect(line, child.stderr).toBeDefined();
    expect(JSON.parse(line!)).toEqual({
      beforeStart: false,
      afterStart: true,
      runtimeStarted: true,
      grammarUnloaded: true,
      fromScript: true,
      parsed: 'program',
    });
  });
});
