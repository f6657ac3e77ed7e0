/**
 * What `image_generate` draws with (docs/plugins.md): an image provider, declared beside the tool so that tools/ stays
 * a leaf (docs/architecture.md "Layers inside the core"). Image plugins make providers (plugins/plugin.ts); the plugin
 * manager, which implements `ImageProvidersPort`, lists the enabled ones.
 */

export interface ImageRequest {
  prompt: string;
  /** `WIDTHxHEIGHT`, e.g. `1024x1024`; the provider's default when absent. */
  size?: string;
  n: number;
}

export interface GeneratedImage {
  bytes: Buffer;
  /** `image/png`, `image/jpeg`, `image/webp` … as the server said (or sniffed from the bytes). */
  mime: string;
}

export interface ImageProvider {
  /** Generates `n` images; rejects with an Error whose message is written for the model. */
  generate(request: ImageRequest, signal: AbortSignal): Promise<GeneratedImage[]>;
  /** Stops work already queued on the server (ComfyUI's `/interrupt`); called by the tool's bespoke `stop()`. */
  interrupt?(): Promise<void>;
  /** The model name or workflow a person reads in `image_generate_providers_list`. */
  readonly model: string;
}

/** The image providers of the enabled, configured image plugins, in the order a default is picked. */
export interface ImageProvidersPort {
  imageProviders(): { name: string; title: string; provider: ImageProvider }[];
}
