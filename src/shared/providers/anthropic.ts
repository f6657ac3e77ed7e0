/** Anthropic's Claude models over its Messages API; thinking with a token budget, signed and replayed. */
import type { ProviderDescriptor } from './descriptor';

/** Anthropic's thinking budget per level. The SDK adds it to the reply's `max_tokens`, which so stays above it. */
export const THINKING_BUDGETS = { low: 2_048, medium: 8_192, high: 24_576 } as const;

export const anthropic: ProviderDescriptor = {
  kind: 'anthropic',
  label: 'Anthropic',
  hint: 'Claude models',
  key: 'required',
  baseUrl: 'fixed',
  defaultBaseUrl: 'https://api.anthropic.com/v1',
  keyHint: 'From console.anthropic.com → API keys; starts with sk-ant-',
  modelHint: 'claude-sonnet-4-5',
  wire: 'anthropic-messages',
  reasoning: (level) => ({ anthropic: { thinking: { type: 'enabled', budgetTokens: THINKING_BUDGETS[level] } } }),
  replaysSignedThinking: true,
  messages: 'anthropic',
  probeHeaders: (apiKey) => ({
    accept: 'application/json',
    'anthropic-version': '2023-06-01',
    ...(apiKey ? { 'x-api-key': apiKey } : {}),
  }),
};
