/**
 * How each provider kind is shown and which fields its form asks for (docs/ui.md): names a person reads instead
 * of `open_ai` / `openai_compatible`, whether a key is needed, whether the address is the person's to give.
 */
import { DEFAULT_BASE_URLS, type ProviderKind } from '../../../../shared/contract/providers';

export interface KindInfo {
  label: string;
  /** One line under the kind in the picker. */
  hint: string;
  key: 'required' | 'optional' | 'none';
  /** `fixed`: the default address, editable under "Advanced"; `required`: the person must give one. */
  baseUrl: 'fixed' | 'local' | 'required';
  keyHint?: string;
  modelHint: string;
}

export const KIND_INFO: Record<ProviderKind, KindInfo> = {
  anthropic: {
    label: 'Anthropic',
    hint: 'Claude models',
    key: 'required',
    baseUrl: 'fixed',
    keyHint: 'From console.anthropic.com → API keys; starts with sk-ant-',
    modelHint: 'claude-sonnet-4-5',
  },
  open_ai: {
    label: 'OpenAI',
    hint: 'GPT models',
    key: 'required',
    baseUrl: 'fixed',
    keyHint: 'From platform.openai.com → API keys; starts with sk-',
    modelHint: 'gpt-4.1',
  },
  openrouter: {
    label: 'OpenRouter',
    hint: 'Many providers behind one key',
    key: 'required',
    baseUrl: 'fixed',
    keyHint: 'From openrouter.ai → Keys; starts with sk-or-',
    modelHint: 'anthropic/claude-sonnet-4.5',
  },
  deepseek: {
    label: 'DeepSeek',
    hint: 'DeepSeek models',
    key: 'required',
    baseUrl: 'fixed',
    keyHint: 'From platform.deepseek.com → API keys',
    modelHint: 'deepseek-chat',
  },
  ollama: {
    label: 'Ollama',
    hint: 'Models running on this computer',
    key: 'none',
    baseUrl: 'local',
    modelHint: 'llama3.2',
  },
  lm_studio: {
    label: 'LM Studio',
    hint: 'Models running on this computer',
    key: 'none',
    baseUrl: 'local',
    modelHint: 'qwen2.5-7b-instruct',
  },
  openai_compatible: {
    label: 'Other (OpenAI-compatible)',
    hint: 'Any server that speaks the OpenAI API: vLLM, llama.cpp, LiteLLM, a gateway…',
    key: 'optional',
    baseUrl: 'required',
    modelHint: 'the model id the server lists',
  },
};

/** The order of the kind picker: the common cloud providers, then local, then the generic one. */
export const KIND_ORDER: ProviderKind[] = [
  'anthropic',
  'open_ai',
  'openrouter',
  'deepseek',
  'ollama',
  'lm_studio',
  'openai_compatible',
];

export const kindLabel = (kind: ProviderKind) => KIND_INFO[kind].label;

export const defaultBaseUrl = (kind: ProviderKind) => DEFAULT_BASE_URLS[kind] ?? '';

export interface ProviderDraft {
  kind: ProviderKind;
  name: string;
  baseUrl: string;
  apiKey: string;
}

export const draftForKind = (kind: ProviderKind): ProviderDraft => ({
  kind,
  name: KIND_INFO[kind].label,
  baseUrl: defaultBaseUrl(kind),
  apiKey: '',
});

/**
 * The name a provider gets when the person typed none (or kept the kind's own, which the form starts with): the kind,
 * or its host where the address is not the kind's own (the generic kind always), so that "Other (OpenAI-compatible)"
 * twice in Settings reads "api.together.xyz" and "localhost:8000" instead.
 */
export function providerName(d: ProviderDraft): string {
  const info = KIND_INFO[d.kind];
  const typed = d.name.trim();
  if (typed && typed !== info.label) return typed;
  const url = d.baseUrl.trim();
  if (d.kind !== 'openai_compatible' && (!url || url === defaultBaseUrl(d.kind))) return info.label;
  try {
    return new URL(url).host || info.label;
  } catch {
    return info.label;
  }
}

/** The create request for a draft: only the fields its kind uses; the default address is left to the core. */
export function createRequest(d: ProviderDraft): {
  kind: ProviderKind;
  name: string;
  baseUrl?: string;
  apiKey?: string;
} {
  const info = KIND_INFO[d.kind];
  const url = d.baseUrl.trim();
  return {
    kind: d.kind,
    name: providerName(d),
    ...(url && url !== defaultBaseUrl(d.kind) ? { baseUrl: url } : {}),
    ...(info.key !== 'none' && d.apiKey ? { apiKey: d.apiKey } : {}),
  };
}
