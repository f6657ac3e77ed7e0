/** The first e2e: the app opens in Chromium and `window.skald` round-trips a call and an event. */
import { expect, screenshotPath, test } from './fixtures';
import { exposedKeys } from '../src/shared/contract/api';

test('window.skald round-trips a call and an event over the web shape', async ({ appPage: page }) => {
  await expect(page.getByTestId('app-info')).toContainText('web');
  const result = await page.evaluate(async () => {
    const skald = window.skald!;
    const event = new Promise<unknown>((resolve) => {
      const off = skald.on.app((payload) => {
        off();
        resolve(payload);
      });
    });
    const reply = await skald.app.ping({ text: 'hello bridge' });
    return { reply, event: await event, keys: Object.keys(skald).sort() };
  });
  expect(result.reply.text).toBe('hello bridge');
  expect(result.event).toMatchObject({ type: 'pong', text: 'hello bridge' });
  expect(result.keys).toEqual(exposedKeys());
  // The renderer has no Node: check E2 (docs/security-checks.md) in the web shape.
  expect(
    await page.evaluate(() => [
      typeof (window as never as Record<string, unknown>).require,
      typeof (window as never as Record<string, unknown>).process,
    ]),
  ).toEqual(['undefined', 'undefined']);
  await page.screenshot({ path: screenshotPath('01-app-open') });
});

test('a bad call is refused at the boundary with a clear error, and the app stays up', async ({ appPage: page }) => {
  const message = await page.evaluate(async () => {
    try {
      await window.skald!.app.ping({ text: 42 as never });
      return 'no error';
    } catch (error) {
      return (error as Error).message;
    }
  });
  expect(message).toMatch(/expected string/i);
  const again = await page.evaluate(() => window.skald!.app.ping({ text: 'still here' }));
  expect(again.text).toBe('still here');
});

test('the page is refused without the token', async ({ page, app }) => {
  const bare = app.url.replace(/\?token=.*/, '');
  const response = await page.goto(bare);
  expect(response?.status()).toBe(401);
});
