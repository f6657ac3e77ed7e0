/**
 * Fits any window (docs/ui.md "Fits any window"): at 800, 1024, 1280 and 1920 px, with the viewer closed and open,
 * the chat is usable: the message box is 300 px or wider and nothing covers it, no field of the chat bar is cut or
 * overlaps another, no tool label is cut, and nothing makes the page, the header or the chat wider than the window.
 * Where the viewer cannot stand beside the chat it shows over it, "Chat" puts it aside and the header brings it back;
 * the session list folds to an icon rail whose button shows the chats. Screenshots of each, in both themes.
 */
import type { Page } from '@playwright/test';
import { expect, startWebApp, stopWebApp, test } from './fixtures';
import { closeChatApp, openWith, send } from './chat-kit';
import { shots } from './screens';
import { openFile, putInWorkspace } from './viewer-helpers';

test.afterEach(closeChatApp);

const WIDTHS = [800, 1024, 1280, 1920];

/** What the page says about its own widths, measured in the browser. */
async function measure(page: Page) {
  return page.evaluate(() => {
    const box = (el: Element) => el.getBoundingClientRect();
    const overflows = (selector: string) =>
      [...document.querySelectorAll(selector)]
        .filter((el) => el.scrollWidth > el.clientWidth + 1)
        .map((el) => `${selector} ${el.scrollWidth} > ${el.clientWidth}`);
    const composer = document.querySelector('[data-testid="composer"]')!;
    const c = box(composer);
    const atCentre = document.elementFromPoint(c.left + c.width / 2, c.top + c.height / 2);
    const bar = document.querySelector('.chat-bar')!;
    const barBox = box(bar);
    const fields = [...bar.children].map(box);
    const overlapping = fields.flatMap((a, i) =>
      fields
        .slice(i + 1)
        .filter((b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
        .map(() => `chat-bar fields ${i} overlap`),
    );
    const outside = [...bar.querySelectorAll('label, select, input, span')]
      .filter((el) => (el as HTMLElement).offsetParent !== null)
      .filter((el) => box(el).left < barBox.left - 1 || box(el).right > barBox.right + 1)
      .map((el) => `outside the chat bar: ${el.tagName} ${el.textContent?.slice(0, 20)}`);
    return {
      composerWidth: c.width,
      composerCovered: atCentre !== composer,
      composerInWindow: c.left >= 0 && c.right <= window.innerWidth,
      pageOverflow: document.documentElement.scrollWidth - window.innerWidth,
      cut: [
        ...overflows('.app-header'),
        ...overflows('.app-main'),
        ...overflows('.chat'),
        ...overflows('.chat-bar'),
        ...overflows('.chat-bar .muted'),
        ...overflows('.chat-bar select'),
        ...overflows('.composer'),
        ...overflows('.tool-label'),
        ...overlapping,
        ...outside,
      ],
    };
  });
}

async function expectUsable(page: Page, width: number, what: string) {
  const m = await measure(page);
  expect(m.composerWidth, `${what}: message box width`).toBeGreaterThanOrEqual(300);
  expect(m.composerCovered, `${what}: message box covered`).toBe(false);
  expect(m.composerInWindow, `${what}: message box inside the window`).toBe(true);
  expect(m.pageOverflow, `${what}: page wider than the window`).toBeLessThanOrEqual(0);
  expect(m.cut, `${what}: cut or overlapping at ${width} px`).toEqual([]);
}

test('the chat is usable at every width, the viewer open or closed, in both themes', async ({ page }) => {
  const missing: string[] = [];
  page.on('response', (r) => r.status() === 404 && missing.push(r.url()));
  const web = await openWith(page, [
    {
      toolCalls: [
        { name: 'list_files', arguments: { path: '.' } },
        {
          name: 'write_todos',
          arguments: {
            todos: [
              { content: 'Look around the workspace', status: 'in_progress' },
              { content: 'Write the notes', status: 'pending' },
            ],
          },
        },
      ],
    },
    { text: 'Here is **what** I found: a workspace with a source file and a binary file, read below.' },
  ]);
  const app = { ...web, shape: 'web' as const };
  putInWorkspace(
    app,
    'src/long.ts',
    Array.from({ length: 80 }, (_, i) => `export const v${i} = '${'x'.repeat(160)}';`).join('\n'),
  );
  putInWorkspace(app, 'data.bin', Buffer.from(Array.from({ length: 1024 }, (_, i) => i % 256)));
  await send(page, 'Look around');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('what I found');
  // The first load asked for nothing the server does not have (the favicon among them).
  expect(missing).toEqual([]);

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await expect(page.getByTestId(width < 900 ? 'session-rail' : 'new-session')).toBeVisible();
    await expectUsable(page, width, `${width} px, viewer closed`);
    await shots(page, `layout-${width}-viewer-closed`);
  }

  await openFile(page, 'src/long.ts');
  await openFile(page, 'data.bin');
  await expect(page.getByTestId('viewer-hex')).toBeVisible();
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    const viewer = page.getByTestId('viewer');
    await expect(viewer).toBeVisible();
    const v = (await viewer.boundingBox())!;
    expect(v.x + v.width, `${width} px: viewer inside the window`).toBeLessThanOrEqual(width + 0.5);
    // The dump fits the viewer's width (8 or 16 bytes a line), and the tab strip draws no scroll bar.
    const hex = page.getByTestId('viewer-hex');
    expect(await hex.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    const scrollBar = await page.locator('.viewer-tabs').evaluate((el: HTMLElement) => {
      const style = getComputedStyle(el);
      return el.offsetHeight - el.clientHeight - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth);
    });
    expect(scrollBar, `${width} px: the tab strip's scroll bar`).toBe(0);
    await shots(page, `layout-${width}-viewer-open`);
    if (width < 932) {
      // Too narrow for both: the viewer is over the chat; "Chat" puts it aside, the header's button brings it back.
      await page.getByTestId('viewer-hide').click();
      await expect(viewer).toBeHidden();
      await expectUsable(page, width, `${width} px, viewer open and put aside`);
      await shots(page, `layout-${width}-viewer-aside`);
      await page.getByTestId('viewer-show').click();
      await expect(viewer).toBeVisible();
      await page.keyboard.press('Escape'); // Escape puts it aside too
      await expect(viewer).toBeHidden();
      await page.getByTestId('viewer-show').click();
      await expect(viewer).toBeVisible();
    } else {
      expect(v.width, `${width} px: docked viewer width`).toBeGreaterThanOrEqual(360);
      await expectUsable(page, width, `${width} px, viewer open`);
    }
  }

  // The rail shows the chats over the chat; opening one closes the list.
  await page.setViewportSize({ width: 800, height: 800 });
  await page.getByTestId('viewer-hide').click();
  await page.getByTestId('rail-chats').click();
  const flyout = page.locator('.session-flyout');
  await expect(flyout.getByTestId('session-item')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(flyout).toBeHidden();
  await page.getByTestId('rail-chats').click();
  await shots(page, 'layout-800-rail-open');
  await flyout.getByTestId('session-item').click();
  await expect(flyout).toBeHidden();
});

test('the first-run guide and Settings fit an 800 px window, as wide ones, in both themes', async ({ page }) => {
  const app = await startWebApp();
  try {
    await page.goto(app.url);
    for (const width of [800, 1920]) {
      await page.setViewportSize({ width, height: 800 });
      await page.getByTestId('nav-chat').click();
      await expect(page.getByTestId('first-run')).toBeVisible();
      const guide = await page.evaluate(() => {
        const el = document.querySelector('[data-testid="first-run"]')!;
        return {
          page: document.documentElement.scrollWidth - window.innerWidth,
          guide: el.scrollWidth - el.clientWidth,
        };
      });
      expect(guide, `${width} px: first-run guide`).toEqual({ page: 0, guide: 0 });
      await shots(page, `layout-${width}-first-run`);
      await page.getByTestId('open-settings').click();
      await expect(page.getByTestId('settings')).toBeVisible();
      const settings = await page.evaluate(() => {
        const el = document.querySelector('[data-testid="settings"]')!;
        return {
          page: document.documentElement.scrollWidth - window.innerWidth,
          settings: el.scrollWidth - el.clientWidth,
        };
      });
      expect(settings, `${width} px: Settings`).toEqual({ page: 0, settings: 0 });
      await shots(page, `layout-${width}-settings`);
    }
  } finally {
    await stopWebApp(app);
  }
});
