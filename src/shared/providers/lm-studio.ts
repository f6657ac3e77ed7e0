/**
 * LM Studio on this computer, through its OpenAI-compatible API; no key. Its `/v1/models` says no context window,
 * its own `/api/v0/models` on the same server does.
 */
import { bearerHeaders, reasoningEffort, type ProviderDescriptor } from './descriptor';

export const lmStudio: ProviderDescriptor = {
  kind: 'lm_studio',
  label: 'LM Studio',
  hint: 'Models running on this computer',
  key: 'none',
  baseUrl: 'local',
  defaultBaseUrl: 'http://127.0.0.1:1234/v1',
  modelHint: 'qwen2.5-7b-instruct',
  wire: 'openai-compatible',
  reasoning: reasoningEffort,
  replaysSignedThinking: false,
  messages: 'openai',
  probeHeaders: bearerHeaders,
  modelList: { windowsUrl: (baseUrl) => `${baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/api/v0/models` },
  local: { name: 'LM Studio (this computer)' },
};
