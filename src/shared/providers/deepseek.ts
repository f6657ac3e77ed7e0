/** DeepSeek's models, OpenAI-shape. */
import { bearerHeaders, reasoningEffort, type ProviderDescriptor } from './descriptor';

export const deepseek: ProviderDescriptor = {
  kind: 'deepseek',
  label: 'DeepSeek',
  hint: 'DeepSeek models',
  key: 'required',
  baseUrl: 'fixed',
  defaultBaseUrl: 'https://api.deepseek.com/v1',
  keyHint: 'From platform.deepseek.com → API keys',
  modelHint: 'deepseek-chat',
  wire: 'openai-compatible',
  reasoning: reasoningEffort,
  replaysSignedThinking: false,
  messages: 'openai',
  probeHeaders: bearerHeaders,
};
