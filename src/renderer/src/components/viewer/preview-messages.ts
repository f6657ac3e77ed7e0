/**
 * The only message the HTML preview may send its parent (docs/viewer.md "HTML"): `{type: 'skald-link', href}`
 * from the preview frame's own window, with a short string href. Anything else, from anywhere else, is dropped.
 */
export interface PreviewLink {
  href: string;
}

export function acceptPreviewMessage(
  event: Pick<MessageEvent, 'source' | 'data'>,
  frame: Window | null | undefined,
): PreviewLink | null {
  if (!frame || event.source !== frame) return null;
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const keys = Object.keys(data);
  if (keys.length !== 2 || !keys.includes('type') || !keys.includes('href')) return null;
  const { type, href } = data as { type: unknown; href: unknown };
  if (type !== 'skald-link' || typeof href !== 'string' || href.length === 0 || href.length > 2_000) return null;
  return { href };
}
