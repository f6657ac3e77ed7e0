/**
 * What the viewer's e2e specs share (docs/viewer.md): writing a fixture into the session's workspace, opening a file
 * the way `show_file_to_user` does, and a screenshot in both colour schemes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { callBridge, screenshotPath, type App } from './fixtures';

/** Writes `content` at `rel` inside the app's workspace (folders made as needed); returns the full path. */
export function putInWorkspace(app: App, rel: string, content: string | Buffer): string {
  const full = join(app.workspaceDir, rel);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, content);
  return full;
}

export async function openFile(page: Page, path: string): Promise<void> {
  await callBridge(page, 'viewer:open', { path });
}

export async function shoot(page: Page, name: string): Promise<void> {
  for (const scheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(150);
    await page.screenshot({ path: screenshotPath(`viewer-${name}-${scheme}`) });
  }
  await page.emulateMedia({ colorScheme: 'dark' });
}
