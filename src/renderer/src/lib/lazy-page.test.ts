/**
 * lazyPage's preload (docs/ui.md "What the first page loads"): one import however often it is asked for, and a failed
 * fetch is forgotten so the next preload or open tries again instead of keeping the failure.
 */
import { describe, expect, it, vi } from 'vitest';
import { lazyPage } from './lazy-page';

const Page = () => null;

describe('lazyPage', () => {
  it('starts the import once, however often it is preloaded', async () => {
    const load = vi.fn(() => Promise.resolve({ Page }));
    const page = lazyPage(load, (m) => m.Page);
    expect(load).not.toHaveBeenCalled(); // nothing is fetched until asked
    await Promise.all([page.preload(), page.preload()]);
    await page.preload();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('gives its component once the chunk is in, and null before or after a failed fetch', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('chunk fetch failed')).mockResolvedValue({ Page });
    const page = lazyPage(load as () => Promise<{ Page: typeof Page }>, (m) => m.Page);
    expect(page.loaded()).toBeNull();
    await expect(page.preload()).rejects.toThrow('chunk fetch failed');
    expect(page.loaded()).toBeNull();
    await page.preload();
    expect(page.loaded()).toBe(Page);
  });

  it('tries again after a failed fetch', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('chunk fetch failed')).mockResolvedValue({ Page });
    const page = lazyPage(load as () => Promise<{ Page: typeof Page }>, (m) => m.Page);
    await expect(page.preload()).rejects.toThrow('chunk fetch failed');
    await expect(page.preload()).resolves.toEqual({ Page });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
