/**
 * Pages and panels the chat's first paint does not need, loaded as their own chunks (docs/ui.md "What the first
 * page loads"): the entry holds the chat; Settings, Security, Schedules, the Inbox, the session switcher, the
 * first-run guide and the viewer's file views come after. Each is fetched once the first page is idle, and again
 * (a no-op when already there) when the pointer or focus reaches its button, so a page still opens at once.
 */
import { lazy, type ComponentType } from 'react';

export type PreloadableComponent<P> = ComponentType<P> & { preload(): Promise<unknown> };

/** `React.lazy` over a named export, with a `preload()` that starts (once) the same import. */
export function lazyPage<M, P>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>): PreloadableComponent<P> {
  let loading: Promise<M> | null = null;
  // A failed fetch is forgotten, so the next preload or open tries again.
  const preload = () => (loading ??= load().catch((error: unknown) => ((loading = null), Promise.reject(error))));
  const Component = lazy(() => preload().then((module) => ({ default: pick(module) }))) as unknown as PreloadableComponent<P>;
  Component.preload = preload;
  return Component;
}

/** Preloads `pages` one after another once the browser is idle (after the first page has painted). */
export function preloadWhenIdle(pages: readonly { preload(): Promise<unknown> }[]): () => void {
  let stopped = false;
  const idle = (fn: () => void) =>
    typeof requestIdleCallback === 'function' ? requestIdleCallback(fn, { timeout: 3_000 }) : setTimeout(fn, 500);
  idle(async () => {
    for (const page of pages) {
      if (stopped) return;
      await page.preload().catch(() => {}); // retried when the page opens
    }
  });
  return () => void (stopped = true);
}
