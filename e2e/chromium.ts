/** Finds a Chromium to drive: CHROMIUM_PATH, then Debian's /usr/bin/chromium, then Playwright's own. */
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

export function findChromium(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  try {
    candidates.push(chromium.executablePath());
  } catch {
    // Playwright has no browser of its own here; fine when one of the others exists.
  }
  const found = candidates.find((path): path is string => Boolean(path) && existsSync(path!));
  if (!found) {
    throw new Error(
      'No Chromium found for the e2e tests. Install one: `apt-get install -y chromium` (Debian/Ubuntu), ' +
        'or set CHROMIUM_PATH to a Chromium/Chrome binary, or run `npx playwright install chromium` where the internet is reachable.',
    );
  }
  return found;
}
