/**
 * `image_generate` and `image_generate_providers_list` (docs/plugins.md). Providers are the enabled, configured
 * image plugins (OpenAI-compatible images, ComfyUI). Images are saved into the working directory as
 * `images/<date>-<slug>.<ext>` (a number added when the name is taken) by the tools' output writer (`writeOutputFile`:
 * the write guard, the disk module's atomic writer, never through a symlinked `images/`), and the result lists their
 * paths, which the card shows as thumbnails and the viewer opens.
 * Bespoke stop: stopping the call first asks the provider to drop its queued work (ComfyUI `/interrupt`), then
 * aborts our own requests, so a stop reaches the server and not only our wait.
 * Both tools stay always on (not in the lazy `config` group): the list is how the model finds out whether it
 * can draw at all.
 */
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { defineTool, describeZodError, ToolError } from '../define-tool';
import { errorText, SimpleExecution } from '../execution';
import { kindAt, writeOutputFile } from '../_policy/fs';
import { guardWrite } from '../_policy/guard';
import { label } from '../fs/common';
import type { ExecutionOutcome, Tool, ToolRunContext } from '../tool';
import type { ImageProvider, ImageProvidersPort } from './image-provider';

export const MAX_IMAGES_PER_CALL = 4;
const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

const input = z.object({
  prompt: z.string().trim().min(1).max(8_000).describe('What the image should show.'),
  provider: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('Provider name from image_generate_providers_list; default: the first one.'),
  size: z
    .string()
    .regex(/^\d{2,5}x\d{2,5}$/, 'size is WIDTHxHEIGHT, e.g. 1024x1024')
    .optional()
    .describe('WIDTHxHEIGHT, e.g. 1024x1024.'),
  n: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_IMAGES_PER_CALL)
    .default(1)
    .describe(`How many images (1-${MAX_IMAGES_PER_CALL}).`),
});
type Input = z.output<typeof input>;

/** `a red fox, at dusk!` → `a-red-fox-at-dusk` (ASCII, at most 40 characters, never empty). */
export function slugOf(prompt: string): string {
  const slug = prompt
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // the accents NFKD split off
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug || 'image';
}

function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** A workspace-relative name under images/ that does not exist yet. */
function freeName(base: string, ext: string, ctx: ToolRunContext, taken: Set<string>): string {
  for (let i = 1; i < 10_000; i++) {
    const rel = `images/${base}${i === 1 ? '' : `-${i}`}.${ext}`;
    if (taken.has(rel)) continue;
    if (kindAt(guardWrite(rel, ctx).real) === null) return rel;
  }
  throw new ToolError('Too many images with this name in images/; choose another prompt or clean up the folder.');
}

function pickProvider(
  plugins: ImageProvidersPort,
  wanted: string | undefined,
): { name: string; provider: ImageProvider } {
  const providers = plugins.imageProviders();
  if (!providers.length) {
    throw new ToolError(
      'No image provider is set up. The person can enable one in Settings → Plugins (OpenAI-compatible images or ComfyUI); call image_generate_providers_list to check.',
    );
  }
  if (!wanted) return providers[0]!;
  const found = providers.find((p) => p.name === wanted);
  if (!found)
    throw new ToolError(
      `There is no image provider "${wanted}". Providers: ${providers.map((p) => p.name).join(', ')}.`,
    );
  return found;
}

async function generate(
  a: Input,
  ctx: ToolRunContext,
  signal: AbortSignal,
  chosen: { name: string; provider: ImageProvider },
): Promise<ExecutionOutcome> {
  let images;
  try {
    images = await chosen.provider.generate({ prompt: a.prompt, size: a.size, n: a.n }, signal);
  } catch (error) {
    if (signal.aborted) return { kind: 'cancelled' };
    return { kind: 'failed', error: `image_generate (${chosen.name}) failed: ${errorText(error)}` };
  }
  const base = `${today()}-${slugOf(a.prompt)}`;
  const taken = new Set<string>();
  const saved: { path: string; bytes: number; mime: string }[] = [];
  for (const image of images) {
    const rel = freeName(base, EXTENSIONS[image.mime] ?? 'png', ctx, taken);
    taken.add(rel);
    const g = writeOutputFile(rel.split('/'), image.bytes, ctx);
    saved.push({ path: g.display, bytes: image.bytes.length, mime: image.mime });
  }
  return { kind: 'completed', resultType: 'json', result: JSON.stringify({ provider: chosen.name, images: saved }) };
}

/** The stop that reaches the server: the provider's interrupt first, then our own abort. */
class ImageExecution extends SimpleExecution {
  constructor(
    work: (signal: AbortSignal) => Promise<ExecutionOutcome>,
    parent: AbortSignal,
    private readonly interrupt: { current: (() => Promise<void>) | null },
  ) {
    super(work, parent);
  }
  override async stop(): Promise<void> {
    const interrupt = this.interrupt.current;
    this.interrupt.current = null;
    if (interrupt) await interrupt().catch(() => undefined);
    await super.stop();
  }
}

export function createImageGenerateTool(plugins: ImageProvidersPort): Tool {
  const tool = defineTool({
    name: TN.IMAGE_GENERATE,
    description:
      'Generate images from a text prompt with a configured image provider (see image_generate_providers_list). ' +
      'The images are saved under images/ in the working directory; the result lists their paths.',
    input,
    kind: 'other',
    category: 'config',
    defaultDecision: 'allow',
    card: 'image',
    describe: (a, length) => label(TN.IMAGE_GENERATE, a.prompt, length),
    // The registry's direct path (no bespoke stop); `run` below is what the session uses.
    executeAsync: (a, ctx, signal) => generate(a, ctx, signal, pickProvider(plugins, a.provider)),
    run(args, ctx) {
      // The work starts inside the constructor, so the interrupt travels in a holder made before it.
      const interrupt: { current: (() => Promise<void>) | null } = { current: null };
      return new ImageExecution(
        async (signal) => {
          const parsed = input.safeParse(args ?? {});
          if (!parsed.success) return { kind: 'failed', error: describeZodError(TN.IMAGE_GENERATE, parsed.error) };
          try {
            const chosen = pickProvider(plugins, parsed.data.provider);
            if (chosen.provider.interrupt) interrupt.current = () => chosen.provider.interrupt!();
            return await generate(parsed.data, ctx, signal, chosen);
          } catch (error) {
            if (signal.aborted) return { kind: 'cancelled' };
            return {
              kind: 'failed',
              error:
                error instanceof ToolError ? error.message : `image_generate failed unexpectedly: ${errorText(error)}`,
            };
          }
        },
        ctx.signal,
        interrupt,
      );
    },
  });
  return tool;
}

export function createImageProvidersListTool(plugins: ImageProvidersPort): Tool {
  return defineTool({
    name: TN.IMAGE_GENERATE_PROVIDERS_LIST,
    description: 'List the image providers image_generate can use (name, title, model). Empty when none is set up.',
    input: z.object({}),
    kind: 'read',
    category: 'introspection',
    defaultDecision: 'allow',
    isIdempotent: true,
    execute() {
      const providers = plugins
        .imageProviders()
        .map((p) => ({ name: p.name, title: p.title, model: p.provider.model }));
      return { kind: 'completed', resultType: 'json', result: JSON.stringify({ providers }) };
    },
  });
}
