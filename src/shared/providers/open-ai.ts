/** OpenAI's GPT models over Chat Completions (not the Responses API, so any OpenAI-shape address works). */
import { bearerHeaders, type ProviderDescriptor } from './descriptor';

export const openAi: ProviderDescriptor = {
  kind: 'open_ai',
  label: 'OpenAI',
  hint: 'GPT models',
  key: 'required',
  baseUrl: 'fixed',
  defaultBaseUrl: 'https://api.openai.com/v1',
  keyHint: 'From platform.openai.com → API keys; starts with sk-',
  modelHint: 'gpt-4.1',
  wire: 'openai-chat',
  reasoning: (level) => ({ openai: { reasoningEffort: level } }),
  replaysSignedThinking: false,
  messages: 'openai',
  probeHeaders: bearerHeaders,
};
