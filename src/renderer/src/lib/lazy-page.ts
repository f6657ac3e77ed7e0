/**
 * Pages and panels the chat's first paint does not need, loaded as their own chunks (docs/ui.md "What the first
 * page loads"): the entry holds the chat; Settings, Security, Schedules, the Inbox, the session switcher, the
 * first-run guide and the viewer's file views come after. Each is fetched a little after the first page has loaded and
 * the browser is idle, and again
 * (a no-op when already there) when the pointer or focus reaches its button, so a page still opens at once.
 */
import { lazy, type ComponentType } from 'react';

export type PreloadableComponent<P> = ComponentType<P> & {
  preload(): Promise<unknown>;
  /**
   * The page's own component once its chunk is in, else null. To be rendered as is, without Suspense, where a page
   * is shown only after its chunk has loaded: the lazy component suspends on its first render even then (its import's
   * `then` settles a microtask later), and React then holds the boundary's content back until 300 ms after its
   * fallback showed (React's FALLBACK_THROTTLE_MS).
   */
  loaded(): ComponentType<P> | null;
};

/** `React.lazy` over a named export, with a `preload()` that starts (once) the same import. */
export function lazyPage<M, P>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>): PreloadableComponent<P> {
  let loading: Promise<M> | null = null;
  let component: ComponentType<P> | null = null;
  // A failed fetch is forgotten, so the next preload or open tries again.
  const preload = () =>
    (loading ??= load().then(
      (module) => ((component = pick(module)), module),
      (error: unknown) => ((loading = null), Promise.reject(error)),
    ));
  const Component = lazy(() =>
    preload().then((module) => ({ default: pick(module) })),
  ) as unknown as PreloadableComponent<P>;
  Component.preload = preload;
  Component.loaded = () => component;
  return Component;
}

/** After the page's `load`, this long, so the chunks do not compete with the chat's first history and paint. */
const PRELOAD_AFTER_LOAD_MS = 2_000;

/** Preloads `pages` one after another once the first page has loaded, painted its chat and the browser is idle. */
export function preloadWhenIdle(pages: readonly { preload(): Promise<unknown> }[]): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = async () => {
    for (const page of pages) {
      if (stopped) return;
      await page.preload().catch(() => {}); // retried when the page opens
    }
  };
  const idle = () =>
    typeof requestIdleCallback === 'function' ? requestIdleCallback(() => void run(), { timeout: 3_000 }) : void run();
  const afterLoad = () => (timer = setTimeout(idle, PRELOAD_AFTER_LOAD_MS));
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
  return () => {
    stopped = true;
    clearTimeout(timer);
    window.removeEventListener('load', afterLoad);
  };
}
