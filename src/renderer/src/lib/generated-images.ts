/**
 * The images a finished call of a tool whose card shows images (`display: image`, e.g. `image_generate`) saved, read from its JSON result (docs/plugins.md "Image generation":
 * `{"provider", "images": [{"path", "bytes", "mime"}]}`), for the card's thumbnails. Anything else — another tool,
 * a call not done, a result that is not that shape — has none.
 */
import type { ToolCard } from '../../../shared/contract/chat';

export function generatedImagePaths(card: Pick<ToolCard, 'display' | 'status' | 'result'>): string[] {
  if (card.display !== 'image' || card.status !== 'done' || card.result === null) return [];
  try {
    const { images } = JSON.parse(card.result) as { images?: unknown };
    if (!Array.isArray(images)) return [];
    return images
      .map((i) => (i as { path?: unknown } | null)?.path)
      .filter((p): p is string => typeof p === 'string' && p.length > 0);
  } catch {
    return [];
  }
}
