/** Any server that speaks the OpenAI API at an address the person gives (vLLM, llama.cpp, LiteLLM, a gateway…). */
import { bearerHeaders, reasoningEffort, type ProviderDescriptor } from './descriptor';

export const openaiCompatible: ProviderDescriptor = {
  kind: 'openai_compatible',
  label: 'Other (OpenAI-compatible)',
  hint: 'Any server that speaks the OpenAI API: vLLM, llama.cpp, LiteLLM, a gateway…',
  key: 'optional',
  baseUrl: 'required',
  defaultBaseUrl: null,
  modelHint: 'the model id the server lists',
  wire: 'openai-compatible',
  reasoning: reasoningEffort,
  replaysSignedThinking: false,
  messages: 'openai',
  probeHeaders: bearerHeaders,
};
