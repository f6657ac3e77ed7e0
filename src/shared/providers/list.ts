/**
 * The one list of provider kinds (docs/providers.md "Adding a kind"), in the order the kind picker shows them: the
 * common cloud providers, then local servers, then the generic one. A new kind is its descriptor module plus its line
 * here; the registry (`registry.ts`) and everything else reads this list. Only this list: lookups live in
 * registry.ts, so a test can give the app another list.
 */
import { anthropic } from './anthropic';
import type { ProviderDescriptor } from './descriptor';
import { deepseek } from './deepseek';
import { lmStudio } from './lm-studio';
import { ollama } from './ollama';
import { openAi } from './open-ai';
import { openaiCompatible } from './openai-compatible';
import { openrouter } from './openrouter';

export const PROVIDER_DESCRIPTORS: readonly ProviderDescriptor[] = [
  anthropic,
  openAi,
  openrouter,
  deepseek,
  ollama,
  lmStudio,
  openaiCompatible,
];
