/**
 * The scripted LLM for e2e tests (test/llm-server), and configuring the app to use it through the same bridge calls
 * the Settings page makes. It listens in the Playwright worker's own process: the app reaches it over real HTTP all
 * the same, and a test no longer waits about 2 s for a child Node process to load tsx and start one (`cli.ts` stays
 * for running it by hand).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { startScriptedLlm, type ScriptedTurn } from '../test/llm-server';
import { callBridge } from './fixtures';

export interface LlmProcess {
  url: string;
  /** The request bodies the scripted LLM received, in order (as its `GET /__requests` answers them). */
  requests(): Promise<{ body: { messages?: { role: string; content?: unknown; tool_call_id?: string }[] } }[]>;
  stop(): void;
}

/** `dir` keeps the script as `llm-script.json`, to read when a test fails. */
export async function startLlmProcess(dir: string, script: unknown[]): Promise<LlmProcess> {
  writeFileSync(join(dir, 'llm-script.json'), JSON.stringify(script));
  const llm = await startScriptedLlm({ turns: script as ScriptedTurn[] });
  return {
    url: llm.url,
    // A copy through JSON, as the HTTP answer was: later requests do not change what a test already holds.
    requests: async () => JSON.parse(JSON.stringify(llm.requests)),
    stop: () => void llm.close(),
  };
}

export async function configureModel(page: Page, llmUrl: string): Promise<void> {
  const { provider } = await callBridge<{ provider: { id: number } }>(page, 'providers:create', {
    kind: 'openai_compatible',
    name: 'scripted',
    baseUrl: `${llmUrl}/v1`,
    apiKey: 'test-key',
  });
  await callBridge(page, 'models:create', {
    providerId: provider.id,
    modelId: 'scripted-1',
    displayName: 'Scripted 1',
  });
}
