/**
 * The e2e fixture: a real web-shape server (`out/main/web.js`) on a random port with a fresh data folder, and
 * the page opened at its tokened URL. Extra environment (e.g. a scripted LLM's URL) can be passed per test file.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface WebApp {
  url: string;
  dataDir: string;
  workspaceDir: string;
  process: ChildProcess;
}

/** `dataDir`: an existing data folder (e.g. one a test seeded, or an earlier run's for a restart); default a fresh
 * temp folder. `port`: a fixed port (a restart on the same one); default a free one. */
export async function startWebApp(env: Record<string, string> = {}, args: string[] = [], options: { dataDir?: string; port?: number } = {}): Promise<WebApp> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'skald-e2e-'));
  const workspaceDir = join(dataDir, 'workspace');
  mkdirSync(workspaceDir, { recursive: true });
  const child = spawn(process.execPath, ['out/main/web.js', '--data-dir', dataDir, '--port', String(options.port ?? 0), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`web shape did not start:\n${out}`)), 20_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Skald web: (\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`web shape exited (${code}):\n${out}`)));
  });
  return { url, dataDir, workspaceDir, process: child };
}

export async function stopWebApp(app: WebApp): Promise<void> {
  if (app.process.exitCode === null) {
    const exited = new Promise((resolve) => app.process.once('exit', resolve));
    app.process.kill('SIGTERM');
    await exited;
  }
  rmSync(app.dataDir, { recursive: true, force: true });
}

export const test = base.extend<{ app: WebApp; appPage: Page }>({
  app: async ({}, use) => {
    const app = await startWebApp();
    await use(app);
    await stopWebApp(app);
  },
  appPage: async ({ page, app }, use) => {
    await page.goto(app.url);
    await use(page);
  },
});

export { expect };
export const screenshotPath = (name: string) => join('e2e', 'screenshots', `${name}.png`);
