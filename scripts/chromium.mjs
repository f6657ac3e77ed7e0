/**
 * Which Chromium the e2e tests and the UI benches drive (docs/architecture.md "Tests"), in plain JavaScript so that
 * both `npm test` (scripts/test-all.mjs, before any TypeScript runs) and the Playwright config use the same answer.
 *
 * Order: `CHROMIUM_PATH`; then a Chrome or Chromium installed where each platform puts it (Linux packages, the
 * macOS `Applications` folders, Windows' Program Files and the per-user install); then Playwright's own browser.
 * When none is there, `ensureChromium` asks Playwright to fetch its own (works where the internet is reachable);
 * offline that fails, and the person gets one line saying what to install.
 *
 * Everything that touches the machine (the file check, the download) is a parameter, so the choices for macOS and
 * Windows are unit-tested on Linux (test/chromium-discovery.test.ts).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

/**
 * The paths to try, best first, for one platform. `env` supplies CHROMIUM_PATH and, on Windows, the install roots
 * (ProgramFiles, ProgramFiles(x86), LOCALAPPDATA); `playwrightPath` is Playwright's own browser, if it knows one.
 */
export function chromiumCandidates({ platform, env, home, playwrightPath }) {
  const out = [];
  if (env.CHROMIUM_PATH) out.push(env.CHROMIUM_PATH);
  if (platform === 'darwin') {
    for (const apps of ['/Applications', posix.join(home, 'Applications')]) {
      out.push(
        posix.join(apps, 'Google Chrome.app/Contents/MacOS/Google Chrome'),
        posix.join(apps, 'Chromium.app/Contents/MacOS/Chromium'),
        posix.join(apps, 'Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing'),
      );
    }
  } else if (platform === 'win32') {
    const roots = [env.ProgramFiles, env['ProgramFiles(x86)'], env.LOCALAPPDATA].filter(Boolean);
    for (const root of roots) out.push(win32.join(root, 'Google', 'Chrome', 'Application', 'chrome.exe'));
    for (const root of roots) out.push(win32.join(root, 'Chromium', 'Application', 'chrome.exe'));
  } else {
    out.push(
      '/usr/bin/chromium',
      '/usr/bin/chromium-browser',
      '/usr/bin/google-chrome',
      '/usr/bin/google-chrome-stable',
      '/snap/bin/chromium',
    );
  }
  if (playwrightPath) out.push(playwrightPath);
  return [...new Set(out)];
}

/** The one line a person reads when no browser can be found or fetched: what to install on this platform. */
export function missingChromiumMessage(platform) {
  const install =
    platform === 'darwin'
      ? 'install Google Chrome (https://www.google.com/chrome/) or Chromium (`brew install --cask chromium`)'
      : platform === 'win32'
        ? 'install Google Chrome (https://www.google.com/chrome/)'
        : 'install Chromium (`sudo apt-get install -y chromium` on Debian/Ubuntu)';
  return `No Chromium for the e2e tests, and Playwright could not download its own (offline?): ${install}, run \`npx playwright install chromium\` where the internet is reachable, or set CHROMIUM_PATH to a Chrome/Chromium binary.`;
}

/** Playwright's own Chromium path, or null when Playwright does not know one for this machine. */
export function playwrightChromiumPath() {
  try {
    const { chromium } = createRequire(import.meta.url)('@playwright/test');
    return chromium.executablePath() || null;
  } catch {
    return null;
  }
}

/** The first candidate that exists, or null. */
export function findChromiumIn(candidates, exists = existsSync) {
  return candidates.find((path) => exists(path)) ?? null;
}

/** The machine's own answer: the first existing candidate for this platform, or null. */
export function findChromium({
  platform = process.platform,
  env = process.env,
  home = homedir(),
  exists = existsSync,
} = {}) {
  return findChromiumIn(chromiumCandidates({ platform, env, home, playwrightPath: playwrightChromiumPath() }), exists);
}

/**
 * A browser for the e2e step: one found, or else Playwright's own fetched by `install` (which returns whether it
 * succeeded) and found again. Resolves to `{ path }`, or `{ error }` with the one line to print.
 */
export function ensureChromium({ find, install, platform = process.platform, log = () => {} }) {
  const found = find();
  if (found) return { path: found };
  log('No Chrome or Chromium found; fetching Playwright\u2019s Chromium (`playwright install chromium`)…');
  if (install() === true) {
    const fetched = find();
    if (fetched) return { path: fetched };
  }
  return { error: missingChromiumMessage(platform) };
}
