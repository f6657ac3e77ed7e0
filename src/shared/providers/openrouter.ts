/**
 * OpenRouter: many providers behind one key, OpenAI-shape. It reports each request's cost when asked
 * (`usage.include`), and takes reasoning in its own form, which it maps to every model it routes to.
 */
import { bearerHeaders, type ProviderDescriptor } from './descriptor';

export const openrouter: ProviderDescriptor = {
  kind: 'openrouter',
  label: 'OpenRouter',
  hint: 'Many providers behind one key',
  key: 'required',
  baseUrl: 'fixed',
  defaultBaseUrl: 'https://openrouter.ai/api/v1',
  keyHint: 'From openrouter.ai → Keys; starts with sk-or-',
  modelHint: 'anthropic/claude-sonnet-4.5',
  wire: 'openai-compatible',
  requestBodyExtras: { usage: { include: true } },
  // Keyed by the provider's name, which is its kind (llm/wires.ts); the SDK copies unknown keys into the body.
  reasoning: (level) => ({ openrouter: { reasoning: { effort: level } } }),
  replaysSignedThinking: false,
  messages: 'openai',
  probeHeaders: bearerHeaders,
};
