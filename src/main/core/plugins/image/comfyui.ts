/**
 * The `comfyui` plugin (docs/plugins.md): a ComfyUI server runs a saved workflow (API format JSON) in which the
 * string `{{prompt}}` stands for the prompt and a string value `"{{seed}}"` for a fresh random seed. One image
 * request = queue (`POST /prompt`), poll (`GET /history/<id>`), fetch each output (`GET /view`). `interrupt()` —
 * called by the tool's bespoke stop — removes our queued prompts (`POST /queue`) and interrupts the running one
 * (`POST /interrupt`), so `/stop` stops the server's work too, not only our wait.
 * The placeholders are replaced inside parsed string values, never by editing JSON text, so a prompt with quotes
 * or braces cannot change the workflow's structure.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { definePlugin, type GeneratedImage, type ImageProvider } from '../plugin';
import { DEFAULT_IMAGE_TIMEOUT_S, ImageProviderError, joinUrl, request, sniffImageMime } from './http';

const PROMPT = '{{prompt}}';
const SEED = '{{seed}}';

const workflowText = z
  .string()
  .max(2_000_000)
  .refine((text) => {
    try {
      const parsed: unknown = JSON.parse(text);
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
    } catch {
      return false;
    }
  }, 'workflow must be a JSON object (ComfyUI "Save (API Format)")')
  .refine((text) => text.includes(PROMPT), `workflow must contain ${PROMPT} where the prompt goes`);

const configSchema = z.object({
  base_url: z
    .url({ protocol: /^https?$/, error: 'base_url must be an http(s) URL' })
    .default('http://127.0.0.1:8188')
    .describe('Address of the ComfyUI server.'),
  workflow: workflowText.describe(
    `Workflow in ComfyUI API format, with ${PROMPT} where the prompt goes (and optionally "${SEED}").`,
  ),
  poll_interval_ms: z
    .number()
    .int()
    .min(50)
    .max(10_000)
    .default(500)
    .describe('How often to ask whether the image is ready.'),
  timeout_seconds: z
    .number()
    .int()
    .min(5)
    .max(3600)
    .default(DEFAULT_IMAGE_TIMEOUT_S)
    .describe('How long one image may take.'),
});

type Config = z.output<typeof configSchema>;

/** Deep copy of the workflow with the placeholders filled in string values. */
export function fillWorkflow(value: unknown, prompt: string): unknown {
  if (typeof value === 'string') {
    if (value === SEED) return randomInt(0, 2 ** 47);
    return value.includes(PROMPT) ? value.split(PROMPT).join(prompt) : value;
  }
  if (Array.isArray(value)) return value.map((v) => fillWorkflow(v, prompt));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillWorkflow(v, prompt)]));
  return value;
}

const QueuedSchema = z.object({
  prompt_id: z.string().min(1),
  node_errors: z.record(z.string(), z.unknown()).optional(),
});
const ImageRefSchema = z.object({
  filename: z.string(),
  subfolder: z.string().default(''),
  type: z.string().default('output'),
});
const HistoryEntrySchema = z.object({
  outputs: z.record(z.string(), z.object({ images: z.array(ImageRefSchema).optional() }).loose()).default({}),
  status: z
    .object({
      status_str: z.string().optional(),
      completed: z.boolean().optional(),
      messages: z.array(z.unknown()).optional(),
    })
    .loose()
    .optional(),
});

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The first error ComfyUI reported in a history entry's status messages. */
function historyError(messages: unknown[] | undefined): string {
  for (const m of messages ?? []) {
    if (Array.isArray(m) && m[0] === 'execution_error' && m[1] && typeof m[1] === 'object') {
      const detail = m[1] as { exception_message?: unknown; node_type?: unknown };
      return `${String(detail.node_type ?? 'a node')}: ${String(detail.exception_message ?? 'failed')}`.slice(0, 300);
    }
  }
  return 'the workflow failed';
}

export function comfyUiProvider(config: Config): ImageProvider {
  const what = 'The ComfyUI server';
  const timeoutMs = config.timeout_seconds * 1000;
  const inFlight = new Set<string>();
  const url = (path: string) => joinUrl(config.base_url, path);
  const json = { 'content-type': 'application/json' };

  async function one(prompt: string, signal: AbortSignal): Promise<GeneratedImage[]> {
    const workflow = fillWorkflow(JSON.parse(config.workflow), prompt);
    const queued = await request(
      url('prompt'),
      { method: 'POST', headers: json, body: JSON.stringify({ prompt: workflow, client_id: randomUUID() }) },
      { signal, timeoutMs, what },
    );
    const q = QueuedSchema.safeParse(await queued.json().catch(() => null));
    if (!q.success) throw new ImageProviderError(`${what} did not queue the workflow (no prompt_id in its answer).`);
    if (q.data.node_errors && Object.keys(q.data.node_errors).length)
      throw new ImageProviderError(
        `${what} refused the workflow: errors in nodes ${Object.keys(q.data.node_errors).join(', ')}.`,
      );
    const id = q.data.prompt_id;
    inFlight.add(id);
    try {
      const started = Date.now();
      for (;;) {
        if (Date.now() - started > timeoutMs)
          throw new ImageProviderError(`${what} did not finish the image within ${config.timeout_seconds} s.`);
        const history = (await (
          await request(url(`history/${encodeURIComponent(id)}`), {}, { signal, timeoutMs, what })
        )
          .json()
          .catch(() => ({}))) as Record<string, unknown>;
        const entry = history[id];
        if (entry !== undefined) {
          const parsed = HistoryEntrySchema.safeParse(entry);
          if (!parsed.success) throw new ImageProviderError(`${what} answered a history entry this app cannot read.`);
          if (parsed.data.status?.status_str === 'error')
            throw new ImageProviderError(
              `${what} could not run the workflow: ${historyError(parsed.data.status.messages)}.`,
            );
          if (parsed.data.status?.completed !== false) {
            const refs = Object.values(parsed.data.outputs)
              .flatMap((o) => o.images ?? [])
              .filter((r) => r.type === 'output');
            if (!refs.length)
              throw new ImageProviderError(
                `${what} finished the workflow but it saved no image (add a SaveImage node).`,
              );
            const images: GeneratedImage[] = [];
            for (const ref of refs) {
              const query = new URLSearchParams({ filename: ref.filename, subfolder: ref.subfolder, type: ref.type });
              const bytes = Buffer.from(
                await (await request(url(`view?${query}`), {}, { signal, timeoutMs, what })).arrayBuffer(),
              );
              const mime = sniffImageMime(bytes);
              if (!mime)
                throw new ImageProviderError(
                  `${what} served ${ref.filename}, which is not a PNG, JPEG, WebP or GIF image.`,
                );
              images.push({ bytes, mime });
            }
            return images;
          }
        }
        await sleep(config.poll_interval_ms, signal);
      }
    } finally {
      inFlight.delete(id);
    }
  }

  return {
    model: 'ComfyUI workflow',
    async generate(req, signal) {
      const images: GeneratedImage[] = [];
      for (let i = 0; i < req.n; i++) images.push(...(await one(req.prompt, signal)));
      return images;
    },
    async interrupt() {
      const ids = [...inFlight];
      const quick = AbortSignal.timeout(5_000);
      // Best effort: the server may be gone; the stop itself must not fail because of it.
      if (ids.length)
        await fetch(url('queue'), {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ delete: ids }),
          signal: quick,
        }).catch(() => undefined);
      await fetch(url('interrupt'), { method: 'POST', headers: json, body: '{}', signal: quick }).catch(
        () => undefined,
      );
    },
  };
}

export const comfyUiPlugin = definePlugin({
  name: 'comfyui',
  title: 'ComfyUI',
  description: 'Generates images by running a saved ComfyUI workflow on a ComfyUI server.',
  configSchema,
  secretFields: [],
  createImageProvider: comfyUiProvider,
});
