/**
 * The `openai-images` plugin (docs/plugins.md): any server that speaks OpenAI's `POST /images/generations` — OpenAI
 * itself, or a local server with the same API (the base URL is a setting). The answer may carry `b64_json` or a
 * `url` per image; both are accepted, and a URL is fetched with the same deadline.
 */
import { z } from 'zod';
import { definePlugin, type GeneratedImage, type ImageProvider } from '../plugin';
import { DEFAULT_IMAGE_TIMEOUT_S, ImageProviderError, joinUrl, request, sniffImageMime } from './http';

const configSchema = z.object({
  base_url: z
    .url({ protocol: /^https?$/, error: 'base_url must be an http(s) URL' })
    .default('https://api.openai.com/v1')
    .describe('Base URL of the API (…/v1).'),
  api_key: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe('API key (sent as a Bearer token); local servers may need none.'),
  model: z.string().min(1).max(200).default('gpt-image-1').describe('Model name.'),
  default_size: z
    .string()
    .regex(/^\d{2,5}x\d{2,5}$/, 'a size is WIDTHxHEIGHT, e.g. 1024x1024')
    .optional()
    .describe('Size used when a call names none.'),
  timeout_seconds: z
    .number()
    .int()
    .min(5)
    .max(900)
    .default(DEFAULT_IMAGE_TIMEOUT_S)
    .describe('How long one request may take.'),
});

type Config = z.output<typeof configSchema>;

const ResponseSchema = z.object({
  data: z.array(z.object({ b64_json: z.string().optional(), url: z.string().optional() })).min(1),
});

export function openAiImageProvider(config: Config): ImageProvider {
  const what = `The images server (${config.model})`;
  const timeoutMs = config.timeout_seconds * 1000;
  return {
    model: config.model,
    async generate(req, signal): Promise<GeneratedImage[]> {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (config.api_key) headers.authorization = `Bearer ${config.api_key}`;
      const size = req.size ?? config.default_size;
      const body = { model: config.model, prompt: req.prompt, n: req.n, ...(size ? { size } : {}) };
      const response = await request(
        joinUrl(config.base_url, 'images/generations'),
        { method: 'POST', headers, body: JSON.stringify(body) },
        { signal, timeoutMs, what },
      );
      const parsed = ResponseSchema.safeParse(await response.json().catch(() => null));
      if (!parsed.success)
        throw new ImageProviderError(`${what} answered without images (expected a "data" list with b64_json or url).`);
      const images: GeneratedImage[] = [];
      for (const item of parsed.data.data) {
        let bytes: Buffer;
        if (item.b64_json) bytes = Buffer.from(item.b64_json, 'base64');
        else if (item.url)
          bytes = Buffer.from(await (await request(item.url, {}, { signal, timeoutMs, what })).arrayBuffer());
        else throw new ImageProviderError(`${what} answered an image with neither b64_json nor url.`);
        const mime = sniffImageMime(bytes);
        if (!mime) throw new ImageProviderError(`${what} answered data that is not a PNG, JPEG, WebP or GIF image.`);
        images.push({ bytes, mime });
      }
      return images;
    },
  };
}

export const openAiImagesPlugin = definePlugin({
  name: 'openai-images',
  title: 'OpenAI-compatible images',
  description: 'Generates images through an OpenAI-compatible /images/generations endpoint (OpenAI or a local server).',
  configSchema,
  secretFields: ['api_key'],
  createImageProvider: openAiImageProvider,
});
