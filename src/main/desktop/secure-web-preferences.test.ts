import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { secureWebPreferences } from './secure-web-preferences';

describe('secureWebPreferences (E1, unit level: no Electron window here)', () => {
  it('isolates, sandboxes and disables every risky feature', () => {
    const prefs = secureWebPreferences('/p/preload.cjs');
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      webSecurity: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      allowRunningInsecureContent: false,
    });
    expect(prefs).not.toHaveProperty('experimentalFeatures');
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
  });

  it('every BrowserWindow in the shell is created through the factory', () => {
    // Every desktop source, not one file: a window made anywhere in the shell must use the factory.
    const sources = readdirSync(__dirname)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => readFileSync(join(__dirname, f), 'utf8'));
    const calls = sources.flatMap((text) =>
      text
        .split(/new [\w.]*BrowserWindow\(\{/)
        .slice(1)
        .map((rest) => rest.slice(0, rest.indexOf('});'))),
    );
    expect(calls.length).toBeGreaterThan(0);
    for (const options of calls) expect(options).toContain('webPreferences: secureWebPreferences(');
  });
});
