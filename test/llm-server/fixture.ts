/**
 * Test fixture for the LLM layer (src/main/core/llm tests): a real SQLite file in a temp folder, the real secret store and repository,
 * the scripted LLM server over HTTP, and an `LlmClient` recording every event and delta. Not shipped code.
 */
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { cleanupTempDirs, tempDir } from '../helpers/temp';
import { startScriptedLlm, type ScriptedLlm } from './index';
import type { ProviderKind } from '../../src/shared/contract/providers';
import { closeDatabase, openDatabase, type Db } from '../../src/main/core/db/database';
import { createKeyFileCipher } from '../../src/main/core/secrets/secret-cipher';
import { SecretStore } from '../../src/main/core/secrets/secret-store';
import { LlmClient } from '../../src/main/core/llm/llm-client';
import { ModelHealth } from '../../src/main/core/llm/model-health';
import { ProviderRepository, type ModelRecord } from '../../src/main/core/llm/provider-repository';
import type { ChatMessage, LlmEvent, LlmTurn, StreamRoundRequest, ToolSpec } from '../../src/main/core/llm/types';

export interface LlmFixture {
  db: Db;
  llm: ScriptedLlm;
  secrets: SecretStore;
  repo: ProviderRepository;
  health: ModelHealth;
  client: LlmClient;
  events: LlmEvent[];
  /** Adds a provider of `kind` pointing at the scripted server, with one model per id (in priority order). */
  addModels(
    kind: ProviderKind,
    modelIds: string[],
    extra?: { inputPricePerM?: number; outputPricePerM?: number; apiKey?: string },
  ): ModelRecord[];
  round(
    messages: ChatMessage[],
    options?: Partial<StreamRoundRequest>,
  ): Promise<{ turn: LlmTurn; deltas: string[]; reasoningDeltas: string[] }>;
  close(): Promise<void>;
}

let providerCount = 0;

export const READ_FILE_TOOL: ToolSpec = {
  name: 'read_file',
  description: 'Read a file',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
    additionalProperties: false,
  },
};

/** The plainest request: a system prompt and one message of the person's. */
export const HELLO: ChatMessage[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Say hello' },
];

/** A fresh fixture for each test of the file (started before it, closed after it); `use` receives each one. */
export function llmFixtureForEachTest(use: (fixture: LlmFixture) => void): void {
  let current: LlmFixture | undefined;
  beforeEach(async () => {
    current = await startLlmFixture();
    use(current);
  });
  afterEach(async () => {
    await current?.close();
  });
}

export async function startLlmFixture(): Promise<LlmFixture> {
  const dir = tempDir('skald-llm-');
  const db = openDatabase({ file: join(dir, 'skald.db') });
  const llm = await startScriptedLlm();
  const secrets = new SecretStore(db, createKeyFileCipher(dir));
  const repo = new ProviderRepository(db, secrets);
  const health = new ModelHealth();
  const events: LlmEvent[] = [];
  const client = new LlmClient({ models: repo, health, onEvent: (e) => events.push(e) });
  return {
    db,
    llm,
    secrets,
    repo,
    health,
    client,
    events,
    addModels(kind, modelIds, extra = {}) {
      const provider = repo.createProvider({
        kind,
        name: `${kind}-${++providerCount}`,
        baseUrl: llm.baseUrl,
        apiKey: extra.apiKey ?? 'test-key',
      });
      return modelIds.map((modelId) =>
        repo.createModel({
          providerId: provider.id,
          modelId,
          ...(extra.inputPricePerM !== undefined ? { inputPricePerM: extra.inputPricePerM } : {}),
          ...(extra.outputPricePerM !== undefined ? { outputPricePerM: extra.outputPricePerM } : {}),
        }),
      );
    },
    async round(messages, options = {}) {
      const deltas: string[] = [];
      const reasoningDeltas: string[] = [];
      const turn = await client.streamRound({
        modelSelection: 'auto',
        messages,
        tools: [],
        signal: new AbortController().signal,
        onTextDelta: (t) => deltas.push(t),
        onReasoningDelta: (t) => reasoningDeltas.push(t),
        ...options,
      });
      return { turn, deltas, reasoningDeltas };
    },
    async close() {
      await llm.close();
      closeDatabase(db);
      cleanupTempDirs();
    },
  };
}
