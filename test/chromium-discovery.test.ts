/**
 * How `npm test` finds a browser (scripts/chromium.mjs): the candidates of each platform in order, the one line a
 * person reads offline, and the fetch of Playwright's Chromium when nothing is installed. The file checks and the
 * download are parameters, so macOS and Windows are tested here on Linux.
 */
import { describe, expect, it } from 'vitest';
import {
  chromiumCandidates,
  ensureChromium,
  findChromium,
  findChromiumIn,
  missingChromiumMessage,
} from '../scripts/chromium.mjs';

const PW = '/home/me/.cache/ms-playwright/chromium-1200/chrome-linux/chrome';

describe('candidates per platform', () => {
  it('Linux: CHROMIUM_PATH, the distribution packages, then Playwright’s own', () => {
    expect(
      chromiumCandidates({
        platform: 'linux',
        env: { CHROMIUM_PATH: '/opt/c/chrome' },
        home: '/home/me',
        playwrightPath: PW,
      }),
    ).toEqual([
      '/opt/c/chrome',
      '/usr/bin/chromium',
      '/usr/bin/chromium-browser',
      '/usr/bin/google-chrome',
      '/usr/bin/google-chrome-stable',
      '/snap/bin/chromium',
      PW,
    ]);
  });

  it('macOS: Chrome and Chromium in /Applications and ~/Applications', () => {
    const list = chromiumCandidates({ platform: 'darwin', env: {}, home: '/Users/me', playwrightPath: null });
    expect(list.slice(0, 2)).toEqual([
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
    ]);
    expect(list).toContain('/Users/me/Applications/Google Chrome.app/Contents/MacOS/Google Chrome');
    expect(list).toContain('/Users/me/Applications/Chromium.app/Contents/MacOS/Chromium');
    expect(list.some((p) => p.startsWith('/usr/bin'))).toBe(false);
  });

  it('Windows: Program Files (both), then the per-user install, with Windows separators', () => {
    const env = {
      ProgramFiles: 'C:\\Program Files',
      'ProgramFiles(x86)': 'C:\\Program Files (x86)',
      LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local',
    };
    const list = chromiumCandidates({
      platform: 'win32',
      env,
      home: 'C:\\Users\\me',
      playwrightPath: 'C:\\pw\\chrome.exe',
    });
    expect(list.slice(0, 3)).toEqual([
      'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
      'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
      'C:\\Users\\me\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe',
    ]);
    expect(list).toContain('C:\\Users\\me\\AppData\\Local\\Chromium\\Application\\chrome.exe');
    expect(list.at(-1)).toBe('C:\\pw\\chrome.exe');
  });

  it('a missing install root is skipped, not joined as "undefined"', () => {
    const list = chromiumCandidates({
      platform: 'win32',
      env: { LOCALAPPDATA: 'C:\\L' },
      home: 'C:\\',
      playwrightPath: null,
    });
    expect(list).toEqual([
      'C:\\L\\Google\\Chrome\\Application\\chrome.exe',
      'C:\\L\\Chromium\\Application\\chrome.exe',
    ]);
  });

  it('the first candidate that exists wins', () => {
    const there = new Set(['/usr/bin/google-chrome', PW]);
    const list = chromiumCandidates({ platform: 'linux', env: {}, home: '/h', playwrightPath: PW });
    expect(findChromiumIn(list, (p) => there.has(p))).toBe('/usr/bin/google-chrome');
    expect(findChromiumIn(list, () => false)).toBeNull();
  });

  it('on this machine it finds a browser that exists', () => {
    const env = { CHROMIUM_PATH: process.execPath };
    expect(findChromium({ env })).toBe(process.execPath);
  });
});

describe('when nothing is installed', () => {
  it('fetches Playwright’s Chromium and uses it', () => {
    let installed = false;
    const lines: string[] = [];
    const result = ensureChromium({
      find: () => (installed ? PW : null),
      install: () => (installed = true),
      platform: 'linux',
      log: (l) => lines.push(l),
    });
    expect(result).toEqual({ path: PW });
    expect(lines.join('\n')).toMatch(/playwright install chromium/);
  });

  it('does not download when one is found', () => {
    const result = ensureChromium({
      find: () => '/usr/bin/chromium',
      install: () => {
        throw new Error('must not download');
      },
    });
    expect(result).toEqual({ path: '/usr/bin/chromium' });
  });

  it('offline: one line per platform saying what to install', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      const result = ensureChromium({ find: () => null, install: () => false, platform });
      expect(result).toEqual({ error: missingChromiumMessage(platform) });
      const line = (result as { error: string }).error;
      expect(line.includes('\n')).toBe(false);
      expect(line).toMatch(/CHROMIUM_PATH/);
    }
    expect(missingChromiumMessage('linux')).toMatch(/apt-get install -y chromium/);
    expect(missingChromiumMessage('darwin')).toMatch(/Google Chrome|brew install --cask chromium/);
    expect(missingChromiumMessage('win32')).toMatch(/Google Chrome/);
  });

  it('a download that succeeds but leaves no browser still ends with the line', () => {
    expect(ensureChromium({ find: () => null, install: () => true, platform: 'linux' })).toEqual({
      error: missingChromiumMessage('linux'),
    });
  });
});
