/**
 * "Test connection" and local discovery for Settings and the first-run guide (docs/ui.md). A test is one real
 * request: `GET <baseUrl>/models`, which every supported kind answers (OpenAI and OpenAI-compatible servers,
 * Anthropic, OpenRouter, DeepSeek, Ollama's and LM Studio's OpenAI-compatible API), with the headers of its kind's
 * descriptor (docs/providers.md). It proves the address, the key and the API shape without spending tokens, and
 * lists the models the person can pick. Discovery asks the kinds that run on this computer on their default ports
 * (Ollama 11434, LM Studio 1234).
 * Limits: a server that does not list models answers 404 and counts as a failed test; the key is sent only to
 * the provider's own base URL; answers are capped at 2 MB and 500 model ids.
 * Several lists also say each model's context window (docs/models.md "Fitting the context window"): it is
 * kept per id, so adding a model can fill its window instead of the 128k assumed. A kind whose list says none may
 * name a second one on the same server (LM Studio's `/api/v0/models`), asked once more after its list answered;
 * that answer failing changes nothing.
 */
import type { ProviderKind } from '../../../shared/contract/providers';
import { providerDescriptor, providerDescriptors, UnknownProviderKindError } from '../../../shared/providers/registry';
import type { FetchFunction } from './provider-factory';

export type ProbeResult =
  | { ok: true; models: string[]; contextWindows: Record<string, number>; latencyMs: number }
  | { ok: false; status: number | null; message: string; latencyMs: number };

const MAX_BODY = 2 * 1024 * 1024;
const MAX_MODELS = 500;

/**
 * The fields a list names a model's window in: OpenRouter and Together `context_length`, Groq `context_window`,
 * vLLM `max_model_len`, Mistral and LM Studio's `/api/v0/models` `max_context_length`; OpenRouter's
 * `top_provider.context_length` when its own is missing. OpenAI's and Anthropic's lists carry none.
 */
const WINDOW_FIELDS = ['context_length', 'context_window', 'max_model_len', 'max_context_length'] as const;
/** A window a person could mean: a whole number of tokens from 1,000 to 10,000,000; anything else is no window. */
const MIN_WINDOW = 1_000;
const MAX_WINDOW = 10_000_000;
function validWindow(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= MIN_WINDOW && value <= MAX_WINDOW
    ? value
    : null;
}
/** The window one listed model says it has, or null. */
export function listedWindow(model: unknown): number | null {
  if (!model || typeof model !== 'object') return null;
  const m = model as Record<string, unknown>;
  for (const field of WINDOW_FIELDS) {
    const n = validWindow(m[field]);
    if (n !== null) return n;
  }
  const top = m.top_provider;
  return top && typeof top === 'object' ? validWindow((top as Record<string, unknown>).context_length) : null;
}

/** The list of a `/models` answer (`data`, or `models`), or null when it is not one. */
function modelList(body: unknown): unknown[] | null {
  const data =
    body && typeof body === 'object'
      ? ((body as { data?: unknown; models?: unknown }).data ?? (body as { models?: unknown }).models)
      : null;
  return Array.isArray(data) ? data : null;
}
function modelId(m: unknown): string | null {
  const id =
    m && typeof m === 'object' ? ((m as { id?: unknown; name?: unknown }).id ?? (m as { name?: unknown }).name) : null;
  return typeof id === 'string' && id.length > 0 && id.length <= 200 ? id : null;
}
/** Each listed id's window, for the ids in `keep` only (own properties: an id is never looked up on a prototype). */
function windowsOf(list: unknown[], keep: Set<string>): Record<string, number> {
  const windows: [string, number][] = [];
  for (const m of list) {
    const id = modelId(m);
    const n = id !== null && keep.has(id) ? listedWindow(m) : null;
    if (id !== null && n !== null) windows.push([id, n]);
  }
  return Object.fromEntries(windows);
}

async function readJson(res: Response): Promise<unknown> {
  const text = (await res.text()).slice(0, MAX_BODY);
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A kind's second list on the same server, which says each model's window (LM Studio's); {} when it does not answer. */
async function listedWindows(
  url: string,
  headers: Record<string, string>,
  doFetch: FetchFunction,
  timeoutMs: number,
  keep: Set<string>,
): Promise<Record<string, number>> {
  try {
    const res = await doFetch(url, { headers, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    const list = res.ok ? modelList(await readJson(res)) : null;
    return list ? windowsOf(list, keep) : {};
  } catch {
    return {};
  }
}

/** The error text a provider sends (`{error:{message}}`, `{error:"…"}`, `{message}`), short. */
function providerMessage(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as { error?: unknown; message?: unknown };
  const text =
    typeof b.error === 'string'
      ? b.error
      : b.error && typeof b.error === 'object'
        ? (b.error as { message?: unknown }).message
        : b.message;
  return typeof text === 'string' && text.trim() ? text.trim().slice(0, 300) : null;
}

function explainStatus(status: number, detail: string | null): string {
  const said = detail ? ` The provider said: ${detail}` : '';
  if (status === 401 || status === 403) return `The provider refused the key (HTTP ${status}).${said}`;
  if (status === 404)
    return `Nothing answers at this address's /models (HTTP 404): check the base URL, which usually ends in /v1.${said}`;
  if (status === 429)
    return `The provider is rate-limiting this key (HTTP 429); it works, but try again in a moment.${said}`;
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
    const descriptor = providerDescriptor(input.kind);
    const headers = descriptor.probeHeaders(input.apiKey);
    const res = await doFetch(url, {
      headers,
      signal: AbortSignal.timeout(options.timeoutMs ?? 8_000),
      redirect: 'error',
    });
    const body = await readJson(res);
    const latencyMs = now() - started;
    if (!res.ok)
      return { ok: false, status: res.status, message: explainStatus(res.status, providerMessage(body)), latencyMs };
    const data = modelList(body);
    if (!data)
      return {
        ok: false,
        status: res.status,
        message: 'The address answered, but not with a list of models: is this an OpenAI-compatible API?',
        latencyMs,
      };
    const models = data
      .map(modelId)
      .filter((id): id is string => id !== null)
      .slice(0, MAX_MODELS);
    const keep = new Set(models);
    const contextWindows = windowsOf(data, keep);
    const windowsUrl = descriptor.modelList?.windowsUrl(input.baseUrl);
    if (windowsUrl)
      Object.assign(
        contextWindows,
        await listedWindows(windowsUrl, headers, doFetch, options.timeoutMs ?? 8_000, keep),
      );
    return { ok: true, models, contextWindows, latencyMs };
  } catch (error) {
    const latencyMs = now() - started;
    if (error instanceof UnknownProviderKindError)
      return { ok: false, status: null, message: error.message, latencyMs };
    const e = error as Error & { cause?: { code?: string } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError')
      return {
        ok: false,
        status: null,
        message: `No answer from ${url} within ${Math.round((options.timeoutMs ?? 8_000) / 1000)} s.`,
        latencyMs,
      };
    const code = e.cause?.code;
    if (code === 'ECONNREFUSED')
      return {
        ok: false,
        status: null,
        message: `Nothing is listening at ${input.baseUrl} (connection refused). Is the server running?`,
        latencyMs,
      };
    if (code === 'ENOTFOUND')
      return { ok: false, status: null, message: `The host of ${input.baseUrl} is not known (DNS).`, latencyMs };
    return { ok: false, status: null, message: `Could not reach ${input.baseUrl}: ${code ?? e.message}.`, latencyMs };
  }
}

export interface LocalProvider {
  kind: ProviderKind;
  name: string;
  baseUrl: string;
  models: string[];
  /** Each listed model's window, where the server says it (see `listedWindow`). */
  contextWindows: Record<string, number>;
}

/** The servers of the kinds that run on this computer (descriptor `local`) on their default ports; only those that answer with a model list. */
export async function discoverLocalProviders(
  options: {
    fetch?: FetchFunction;
    timeoutMs?: number;
    /** Tests: another address than a kind's default, by kind. */
    baseUrls?: Partial<Record<ProviderKind, string>>;
  } = {},
): Promise<LocalProvider[]> {
  const candidates = providerDescriptors().flatMap((d) => {
    const baseUrl = options.baseUrls?.[d.kind] ?? d.defaultBaseUrl;
    return d.local && baseUrl ? [{ kind: d.kind, name: d.local.name, baseUrl }] : [];
  });
  const results = await Promise.all(
    candidates.map(async (c) => ({
      ...c,
      result: await probeProvider(
        { kind: c.kind, baseUrl: c.baseUrl, apiKey: null },
        { fetch: options.fetch, timeoutMs: options.timeoutMs ?? 1_000 },
      ),
    })),
  );
  return results
    .filter((r) => r.result.ok)
    .map(({ result, ...c }) => ({
      ...c,
      models: result.ok ? result.models : [],
      contextWindows: result.ok ? result.contextWindows : {},
    }));
}
