/**
 * "Test connection" and local discovery for Settings and the first-run guide (docs/ui.md). A test is one real
 * request: `GET <baseUrl>/models`, which every supported kind answers (OpenAI and OpenAI-compatible servers,
 * Anthropic, OpenRouter, DeepSeek, Ollama's and LM Studio's OpenAI-compatible API), with the kind's own auth
 * header. It proves the address, the key and the API shape without spending tokens, and lists the models the
 * person can pick. Discovery asks the two local servers on their default ports (Ollama 11434, LM Studio 1234).
 * Limits: a server that does not list models answers 404 and counts as a failed test; the key is sent only to
 * the provider's own base URL; answers are capped at 2 MB and 500 model ids.
 */
import { DEFAULT_BASE_URLS, type ProviderKind } from '../../../shared/contract/providers';
import type { FetchFunction } from './provider-factory';

export type ProbeResult =
  | { ok: true; models: string[]; latencyMs: number }
  | { ok: false; status: number | null; message: string; latencyMs: number };

const MAX_BODY = 2 * 1024 * 1024;
const MAX_MODELS = 500;

function headersFor(kind: ProviderKind, apiKey: string | null): Record<string, string> {
  const h: Record<string, string> = { accept: 'application/json' };
  if (kind === 'anthropic') {
    h['anthropic-version'] = '2023-06-01';
    if (apiKey) h['x-api-key'] = apiKey;
  } else if (apiKey) {
    h.authorization = `Bearer ${apiKey}`;
  }
  return h;
}

/** The error text a provider sends (`{error:{message}}`, `{error:"…"}`, `{message}`), short. */
function providerMessage(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as { error?: unknown; message?: unknown };
  const text = typeof b.error === 'string' ? b.error : b.error && typeof b.error === 'object' ? (b.error as { message?: unknown }).message : b.message;
  return typeof text === 'string' && text.trim() ? text.trim().slice(0, 300) : null;
}

function explainStatus(status: number, detail: string | null): string {
  const said = detail ? ` The provider said: ${detail}` : '';
  if (status === 401 || status === 403) return `The provider refused the key (HTTP ${status}).${said}`;
  if (status === 404) return `Nothing answers at this address's /models (HTTP 404): check the base URL, which usually ends in /v1.${said}`;
  if (status === 429) return `The provider is rate-limiting this key (HTTP 429); it works, but try again in a moment.${said}`;
  return `The provider answered HTTP ${status}.${said}`;
}

export async function probeProvider(
  input: { kind: ProviderKind; baseUrl: string; apiKey: string | null },
  options: { fetch?: FetchFunction; timeoutMs?: number; now?: () => number } = {},
): Promise<ProbeResult> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  const started = now();
  const url = `${input.baseUrl.replace(/\/+$/, '')}/models`;
  try {
    const res = await doFetch(url, { headers: headersFor(input.kind, input.apiKey), signal: AbortSignal.timeout(options.timeoutMs ?? 8_000), redirect: 'error' });
    const text = (await res.text()).slice(0, MAX_BODY);
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    const latencyMs = now() - started;
    if (!res.ok) return { ok: false, status: res.status, message: explainStatus(res.status, providerMessage(body)), latencyMs };
    const data = body && typeof body === 'object' ? (body as { data?: unknown; models?: unknown }).data ?? (body as { models?: unknown }).models : null;
    if (!Array.isArray(data)) return { ok: false, status: res.status, message: 'The address answered, but not with a list of models: is this an OpenAI-compatible API?', latencyMs };
    const models = data
      .map((m) => (m && typeof m === 'object' ? ((m as { id?: unknown; name?: unknown }).id ?? (m as { name?: unknown }).name) : null))
      .filter((id): id is string => typeof id === 'string' && id.length > 0 && id.length <= 200)
      .slice(0, MAX_MODELS);
    return { ok: true, models, latencyMs };
  } catch (error) {
    const latencyMs = now() - started;
    const e = error as Error & { cause?: { code?: string } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return { ok: false, status: null, message: `No answer from ${url} within ${Math.round((options.timeoutMs ?? 8_000) / 1000)} s.`, latencyMs };
    const code = e.cause?.code;
    if (code === 'ECONNREFUSED') return { ok: false, status: null, message: `Nothing is listening at ${input.baseUrl} (connection refused). Is the server running?`, latencyMs };
    if (code === 'ENOTFOUND') return { ok: false, status: null, message: `The host of ${input.baseUrl} is not known (DNS).`, latencyMs };
    return { ok: false, status: null, message: `Could not reach ${input.baseUrl}: ${code ?? e.message}.`, latencyMs };
  }
}

export interface LocalProvider {
  kind: 'ollama' | 'lm_studio';
  name: string;
  baseUrl: string;
  models: string[];
}

/** Ollama and LM Studio on their default ports; only those that answer with a model list. */
export async function discoverLocalProviders(options: { fetch?: FetchFunction; timeoutMs?: number; baseUrls?: Partial<Record<'ollama' | 'lm_studio', string>> } = {}): Promise<LocalProvider[]> {
  const candidates = [
    { kind: 'ollama' as const, name: 'Ollama (this computer)', baseUrl: options.baseUrls?.ollama ?? DEFAULT_BASE_URLS.ollama! },
    { kind: 'lm_studio' as const, name: 'LM Studio (this computer)', baseUrl: options.baseUrls?.lm_studio ?? DEFAULT_BASE_URLS.lm_studio! },
  ];
  const results = await Promise.all(
    candidates.map(async (c) => ({ ...c, result: await probeProvider({ kind: c.kind, baseUrl: c.baseUrl, apiKey: null }, { fetch: options.fetch, timeoutMs: options.timeoutMs ?? 1_000 }) })),
  );
  return results.filter((r) => r.result.ok).map(({ result, ...c }) => ({ ...c, models: result.ok ? result.models : [] }));
}
