import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { secureWebPreferences } from './secure-web-preferences';

describe('secureWebPreferences (E1, unit level: no Electron window here)', () => {
  it('isolates, sandboxes and disables every risky feature', () => {
    const prefs = secureWebPreferences('/p/preload.cjs');
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, webSecurity: true, nodeIntegration: false, nodeIntegrationInSubFrames: false, webviewTag: false, allowRunningInsecureContent: false });
    expect(prefs).not.toHaveProperty('experimentalFeatures');
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
  });

  it('every BrowserWindow in the shell is created through the factory', () => {
    const main = readFileSync(join(__dirname, 'main.ts'), 'utf8');
    const windows = main.match(/new BrowserWindow\(/g) ?? [];
    const viaFactory = main.match(/new BrowserWindow\([^)]*webPreferences: secureWebPreferences\(/g) ?? [];
    expect(windows.length).toBeGreaterThan(0);
    expect(viaFactory.length).toBe(windows.length);
  });
});
