/** Ollama on this computer, through its OpenAI-compatible API; no key. */
import { bearerHeaders, reasoningEffort, type ProviderDescriptor } from './descriptor';

export const ollama: ProviderDescriptor = {
  kind: 'ollama',
  label: 'Ollama',
  hint: 'Models running on this computer',
  key: 'none',
  baseUrl: 'local',
  defaultBaseUrl: 'http://127.0.0.1:11434/v1',
  modelHint: 'llama3.2',
  wire: 'openai-compatible',
  reasoning: reasoningEffort,
  replaysSignedThinking: false,
  messages: 'openai',
  probeHeaders: bearerHeaders,
  local: { name: 'Ollama (this computer)' },
};
