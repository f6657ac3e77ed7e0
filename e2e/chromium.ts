/**
 * The Chromium the e2e tests and UI benches drive: the first of CHROMIUM_PATH, an installed Chrome/Chromium, or
 * Playwright's own (scripts/chromium.mjs, shared with `npm test`, which fetches Playwright's when none is found).
 * Without any, it throws the one line that says what to install.
 */
import { findChromium as find, missingChromiumMessage } from '../scripts/chromium.mjs';

export function findChromium(): string {
  const found = find();
  if (!found) throw new Error(missingChromiumMessage(process.platform));
  return found;
}
