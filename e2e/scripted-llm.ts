/**
 * The scripted LLM as its own process for e2e tests (test/llm-server/cli.ts), and configuring the app to use it
 * through the same bridge calls the Settings page makes.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { callBridge } from './fixtures';

export interface LlmProcess {
  url: string;
  /** The request bodies the scripted LLM received, in order (its `GET /__requests`). */
  requests(): Promise<{ body: { messages?: { role: string; content?: unknown; tool_call_id?: string }[] } }[]>;
  stop(): void;
}

export async function startLlmProcess(dir: string, script: unknown[]): Promise<LlmProcess> {
  const file = join(dir, 'llm-script.json');
  writeFileSync(file, JSON.stringify(script));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/llm-server/cli.ts', '--port', '0', '--script', file],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`scripted LLM did not start: ${out}`)), 20_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  });
  return {
    url,
    requests: async () => (await fetch(`${url}/__requests`)).json(),
    stop: () => void child.kill('SIGTERM'),
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
