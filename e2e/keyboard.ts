/**
 * Driving the app with the keyboard alone (docs/ui.md "Keyboard"): Tab or Shift+Tab until a control has the focus
 * (failing with where the focus went when it never does), and the check that the focused control shows a ring.
 */
import { expect, type Locator, type Page } from '@playwright/test';

/** A short name of the focused element, for a failure's message. */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'the page';
    const name = el.getAttribute('aria-label') ?? el.getAttribute('data-testid') ?? el.textContent?.slice(0, 40);
    return `${el.tagName.toLowerCase()} "${name ?? ''}"`;
  });

const isFocused = (target: Locator) =>
  target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)).catch(() => false);

/** Presses Tab (Shift+Tab with `back`) until `target` (or something in it) has the focus. */
export async function tabTo(
  page: Page,
  target: Locator,
  options: { back?: boolean; max?: number } = {},
): Promise<void> {
  const key = options.back ? 'Shift+Tab' : 'Tab';
  const seen: string[] = [];
  for (let i = 0; i < (options.max ?? 60); i++) {
    if (await isFocused(target)) return;
    await page.keyboard.press(key);
    seen.push(await focusedName(page));
  }
  if (await isFocused(target)) return;
  throw new Error(`${key} never reached ${target}; the focus went through:\n${seen.join('\n')}`);
}

/** Presses `key` until `target` has the focus (arrows in a tab list or a radio group). */
export async function pressTo(page: Page, key: string, target: Locator, max = 12): Promise<void> {
  for (let i = 0; i < max && !(await isFocused(target)); i++) await page.keyboard.press(key);
  await expect.poll(() => isFocused(target)).toBe(true);
}

/** The focused control draws a ring (its own outline, or its card's where the control itself is hidden). */
export async function expectFocusRing(page: Page): Promise<void> {
  const ring = await page.evaluate(() => {
    let el: Element | null = document.activeElement;
    for (let depth = 0; el && el !== document.body && depth < 3; depth++, el = el.parentElement) {
      const style = getComputedStyle(el);
      if (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2) return true;
    }
    return false;
  });
  expect(ring, `no focus ring on ${await focusedName(page)}`).toBe(true);
}
