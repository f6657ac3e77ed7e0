/**
 * Zoomed and large text (docs/ui.md "Zoom and large text"): a 1280 × 800 window at 200 % zoom is a 640 × 400 page
 * of CSS pixels at twice the density, and at the system's large text (150 %, how Windows and GNOME scale Chromium's
 * text and everything with it) an 853 × 533 one. At both, every screen keeps its controls inside the window and
 * whole: no page wider than the window, no button, heading, label or field cut or pushed off its edge; the chat keeps
 * a message box that is not covered. Screenshots of each, in both themes.
 */
import type { Browser, Page } from '@playwright/test';
import { closeChatApp, openWith, send } from './chat-kit';
import { expect, startWebApp, stopWebApp, test } from './fixtures';
import { pickOption } from './controls';
import { shots } from './screens';

test.afterEach(closeChatApp);

const SCALES = [
  { name: 'zoom-200', width: 640, height: 400, scale: 2 },
  { name: 'text-150', width: 853, height: 533, scale: 1.5 },
];

/** What is cut: the page wider than the window, a control past the window's edge, or one whose text overflows it. */
async function cutOff(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth > width) found.push(`page ${document.documentElement.scrollWidth} px`);
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}"`;
    const visible = (el: Element) => {
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      return style.visibility !== 'hidden' && box.width > 1 && box.height > 1 && !el.closest('.sr-only, .skip-link');
    };
    for (const el of document.querySelectorAll('button, a[href], h1, h2, h3, label, input, select, textarea')) {
      if (!visible(el)) continue;
      const box = el.getBoundingClientRect();
      // Only what is on the page's first screen or below it matters; a scroller's hidden part is reached by scrolling.
      const clip = el.parentElement?.closest('.message-list, .page, .settings-main, .viewer-body, .tab-body, .inbox');
      const clipBox = clip?.getBoundingClientRect();
      if (box.right > width + 1 || box.left < -1) found.push(`${name(el)} past the window's edge`);
      else if (clipBox && (box.right > clipBox.right + 1 || box.left < clipBox.left - 1))
        found.push(`${name(el)} past its scroller's edge`);
      if (el.matches('button, h1, h2, h3, label') && el.scrollWidth > el.clientWidth + 1) {
        const style = getComputedStyle(el);
        if (style.overflowX !== 'visible' || style.textOverflow === 'ellipsis') found.push(`${name(el)} text cut`);
      }
    }
    return found;
  });
}

async function expectWhole(page: Page, what: string): Promise<void> {
  await expect.poll(() => cutOff(page), { message: what }).toEqual([]);
}

const scaled = (browser: Browser, s: (typeof SCALES)[number]) =>
  browser.newContext({ viewport: { width: s.width, height: s.height }, deviceScaleFactor: s.scale });

for (const s of SCALES) {
  test(`the first run whole at ${s.name} (${s.width} × ${s.height} CSS px)`, async ({ browser }) => {
    const context = await scaled(browser, s);
    const app = await startWebApp();
    try {
      const page = await context.newPage();
      await page.goto(app.url);
      const guide = page.getByTestId('first-run');
      await expect(guide).toBeVisible();
      await expectWhole(page, 'the first run');
      await shots(page, `${s.name}-first-run`);
      await pickOption(guide.getByTestId('fr-kind-openai_compatible'));
      await guide.getByTestId('fr-url').fill('http://127.0.0.1:9/v1');
      await guide.getByTestId('fr-next').click();
      await expectWhole(page, 'the first run, key step');
    } finally {
      await context.close();
      await stopWebApp(app);
    }
  });

  test(`every screen whole at ${s.name} (${s.width} × ${s.height} CSS px)`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await scaled(browser, s);
    const page = await context.newPage();
    try {
      await openWith(page, [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'notes/hello.txt', content: 'Hello\n' } }] },
        { text: 'Written.' },
      ]);
      await send(page, 'Write the note');
      await expect(page.getByTestId('approval-card')).toBeVisible();
      await expectWhole(page, 'chat with an approval');
      const composer = page.getByTestId('composer');
      const box = (await composer.boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(300);
      await shots(page, `${s.name}-chat-approval`);
      await page.getByTestId('approval-card').getByRole('button', { name: 'Approve once' }).click();
      await expect(page.getByTestId('msg-assistant').last()).toContainText('Written.');
      await page.getByTestId('tool-path').first().click();
      await expect(page.getByTestId('viewer-code')).toContainText('Hello');
      await expectWhole(page, 'the viewer');
      await shots(page, `${s.name}-viewer`);
      await page.keyboard.press('Escape');

      await page.getByTestId('open-inbox').click();
      await expect(page.getByTestId('inbox')).toBeVisible();
      await expectWhole(page, 'the Inbox');
      await page.keyboard.press('Escape');
      await page.getByTestId('open-settings').click();
      await expect(page.getByTestId('settings')).toBeVisible();
      await expectWhole(page, 'Settings');
      await shots(page, `${s.name}-settings`);
      await page.getByTestId('open-security').click();
      await expect(page.getByTestId('rule-row').first()).toBeVisible();
      await expectWhole(page, 'Security');
      await shots(page, `${s.name}-security`);
      await page.getByTestId('rule-row').first().scrollIntoViewIfNeeded();
      await shots(page, `${s.name}-security-rules`);
      await page.getByTestId('open-schedules').click();
      await expect(page.getByTestId('schedules-page')).toBeVisible();
      await expectWhole(page, 'Schedules');
    } finally {
      await context.close();
    }
  });
}
