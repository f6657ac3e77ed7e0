/**
 * A real core for integration tests: real SQLite in a temp folder, a real temp workspace, the real tools, gate
 * and provider clients, and the scripted LLM server over HTTP. Calls go through `core.handlers` — the same
 * parsed boundary both shapes use — and events are recorded as the renderer would see them.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ChatEvent } from '../../src/shared/contract/chat';
import type { CallChannel, CallRequest, CallResponse } from '../../src/shared/contract/index';
import { dispatchCall } from '../../src/main/core/bridge/dispatch';
import { createCore, type Core, type CoreHooks } from '../../src/main/core/index';
import { startScriptedLlm, type ScriptedLlm, type ScriptedTurn } from '../llm-server/index';
import { tempDir } from './temp';

export interface Harness {
  core: Core;
  llm: ScriptedLlm;
  dataDir: string;
  workspace: string;
  events: ChatEvent[];
  restarts: number;
  call<C extends CallChannel>(channel: C, request: CallRequest<C>): Promise<CallResponse<C>>;
  newSession(): Promise<number>;
  /** Sends and waits until the turn it started (if any) has ended. */
  sendAndSettle(sessionId: number, content: string): Promise<ChatEvent[]>;
  waitForEvent<T extends ChatEvent['type']>(
    type: T,
    where?: (e: Extract<ChatEvent, { type: T }>) => boolean,
  ): Promise<Extract<ChatEvent, { type: T }>>;
  close(): Promise<void>;
}

export async function startHarness(
  options: {
    turns?: ScriptedTurn[];
    dataDir?: string;
    models?: number;
    providerKind?: 'openai_compatible' | 'anthropic';
    agentsDir?: string;
    schedulerClock?: CoreHooks['schedulerClock'];
    walIdleCheckMs?: number;
    extraPlugins?: CoreHooks['extraPlugins'];
    extraTools?: CoreHooks['extraTools'];
  } = {},
): Promise<Harness> {
  const llm = await startScriptedLlm({ turns: options.turns ?? [] });
  const dataDir = options.dataDir ?? join(tempDir(), 'data');
  const workspace = join(dataDir, '..', 'ws');
  mkdirSync(workspace, { recursive: true });
  let restarts = 0;
  const core = await createCore(
    {
      dataDir,
      workspaceDir: workspace,
      shape: 'web',
      version: 'test',
      agentsDir: options.agentsDir ?? join(__dirname, '../../agents'),
    },
    {
      requestRestart: () => void restarts++,
      schedulerClock: options.schedulerClock,
      walIdleCheckMs: options.walIdleCheckMs,
      extraPlugins: options.extraPlugins,
      extraTools: options.extraTools,
    },
  );
  const events: ChatEvent[] = [];
  core.events.subscribe('chat', (e) => events.push(e));

  const call = async <C extends CallChannel>(channel: C, request: CallRequest<C>): Promise<CallResponse<C>> => {
    const outcome = await dispatchCall(core.handlers, channel, request);
    if (!outcome.ok) throw new Error(`[${outcome.error.code}] ${outcome.error.message}`);
    return outcome.result as CallResponse<C>;
  };

  const existing = (await call('providers:list', {})).providers[0];
  if (existing) {
    // A data folder from an earlier run (crash tests): point its provider at this run's scripted server.
    await call('providers:update', { id: existing.id, baseUrl: llm.baseUrl });
  } else {
    const provider = (
      await call('providers:create', {
        kind: options.providerKind ?? 'openai_compatible',
        name: 'scripted',
        baseUrl: llm.baseUrl,
        apiKey: 'test-key',
      })
    ).provider;
    for (let i = 1; i <= (options.models ?? 1); i++)
      await call('models:create', { providerId: provider.id, modelId: `scripted-${i}`, displayName: `Scripted ${i}` });
  }
  core.start();

  const harness: Harness = {
    core,
    llm,
    dataDir,
    workspace,
    events,
    get restarts() {
      return restarts;
    },
    call,
    newSession: async () => (await call('chat:createSession', {})).id,
    async sendAndSettle(sessionId, content) {
      const from = events.length;
      await call('chat:send', { sessionId, content });
      // A started turn emits turn_running(true) synchronously inside chat:send; wait for its end.
      if (events.slice(from).some((e) => e.type === 'turn_running' && e.running)) {
        await expect
          .poll(() => events.slice(from).some((e) => e.type === 'turn_running' && !e.running), { timeout: 20_000 })
          .toBe(true);
      }
      return events.slice(from);
    },
    async waitForEvent(type, where) {
      let found: ChatEvent | undefined;
      await expect
        .poll(() => (found = events.find((e) => e.type === type && (!where || where(e as never)))), { timeout: 20_000 })
        .toBeTruthy();
      return found as never;
    },
    async close() {
      await core.dispose();
      await llm.close();
    },
  };
  return harness;
}
