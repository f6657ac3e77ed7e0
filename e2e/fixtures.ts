/**
 * The e2e fixture: the app in one of its two shapes, with a fresh data folder, and the page opened at its URL.
 * - web: a real web-shape server (`out/main/web.js`) on a random port, the page at its tokened URL;
 * - desktop: the real built main and preload bundles under the Electron stand-in, its window shown in the test's
 *   page (test/electron-standin/renderer-host.ts; docs/desktop.md "The desktop shape run end to end").
 * The shape is the Playwright project's `shape` option (playwright.config.ts): a spec that starts the app with
 * `startApp(page)` and stops it with `stopApp` runs unchanged in both. `startWebApp` stays for specs that need the
 * web shape itself (its token, its restart). Extra environment (e.g. a scripted LLM's URL) can be passed per test.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { startDesktopStandin, type DesktopStandin } from '../test/electron-standin/renderer-host';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type Shape = 'web' | 'desktop';

export interface WebApp {
  url: string;
  dataDir: string;
  workspaceDir: string;
  process: ChildProcess;
}

export interface App extends WebApp {
  shape: Shape;
  /** The desktop shape's main process, its window and log (desktop only). */
  desktop?: DesktopStandin;
}

/** The shape of the running Playwright project (its `shape` option). */
export function currentShape(): Shape {
  return (base.info().project.use as { shape?: Shape }).shape ?? 'web';
}

/**
 * Every app an e2e test starts puts its background warm-up off (SKALD_WARM_UP_DELAY_MS, docs/architecture.md
 * "Tests"): each test starts a fresh app, and the warm-up (the bash grammar, the AI SDK, the shell runner, the sandbox
 * check) took about 2 CPU-seconds in each, most of them for a test that never needed it; what a test uses loads when
 * first used. Its own tests are src/main/core/warm-up.test.ts. A test may still ask for it in its `env`.
 */
const NO_WARM_UP = { SKALD_WARM_UP_DELAY_MS: String(60 * 60_000) };

function freshDataDir(dataDir?: string): { dataDir: string; workspaceDir: string } {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'skald-e2e-'));
  mkdirSync(join(dir, 'workspace'), { recursive: true });
  return { dataDir: dir, workspaceDir: join(dir, 'workspace') };
}

/** Starts the app in this project's shape; on desktop its window is `page`, loaded once this resolves. */
export async function startApp(
  page: Page,
  env: Record<string, string> = {},
  args: string[] = [],
  options: { dataDir?: string } = {},
): Promise<App> {
  if (currentShape() === 'web') return { ...(await startWebApp(env, args, options)), shape: 'web' };
  const { dataDir, workspaceDir } = freshDataDir(options.dataDir);
  const desktop = await startDesktopStandin({
    page,
    args: ['--data-dir', dataDir, ...args],
    env: { ...NO_WARM_UP, ...env, SKALD_STANDIN_USER_DATA: join(dataDir, 'user-data') },
  });
  return { shape: 'desktop', url: desktop.appUrl, dataDir, workspaceDir, process: desktop.process, desktop };
}

/**
 * One bridge call from the page, through `window.skald`: the same API in both shapes (on desktop the renderer wraps
 * the preload's outcomes, docs/architecture.md "Layers"), so it answers the result or throws a BridgeError.
 */
export async function callBridge<T = unknown>(
  page: Page,
  channel: `${string}:${string}`,
  request: unknown = {},
): Promise<T> {
  const [domain, verb] = channel.split(':') as [string, string];
  const answer = await page.evaluate(
    ([d, v, r]) =>
      (window.skald as unknown as Record<string, Record<string, (req: unknown) => Promise<unknown>>>)[d]![v]!(r),
    [domain, verb, request] as const,
  );
  return answer as T;
}

/** Stops the app as a person would (desktop: Quit, which stops the core first) and removes its data folder. */
export async function stopApp(app: App): Promise<void> {
  if (!app.desktop) return stopWebApp(app);
  if (app.process.exitCode === null && app.process.signalCode === null) {
    app.desktop.tell({ t: 'quit' });
    const timer = setTimeout(() => app.process.kill('SIGKILL'), 15_000);
    await app.desktop.exited;
    clearTimeout(timer);
  }
  rmSync(app.dataDir, { recursive: true, force: true });
}

/**
 * A web-shape server on a fresh data folder, started while the test before ran, for the next test that asks for a
 * plain one (no environment, arguments, folder or port of its own): it is the same as one started then, untouched
 * until it is handed over, and the test does not wait the second or so a start takes. One per Playwright worker;
 * the one left when the worker ends is stopped with it.
 */
let spare: { child: ChildProcess; dataDir: string; started: Promise<WebApp> } | undefined;
process.once('exit', () => {
  if (!spare) return;
  spare.child.kill('SIGKILL');
  rmSync(spare.dataDir, { recursive: true, force: true });
});
const alive = (app: WebApp) => app.process.exitCode === null && app.process.signalCode === null;

/** `dataDir`: an existing data folder (e.g. one a test seeded, or an earlier run's for a restart); default a fresh
 * temp folder. `port`: a fixed port (a restart on the same one); default a free one. */
export async function startWebApp(
  env: Record<string, string> = {},
  args: string[] = [],
  options: { dataDir?: string; port?: number } = {},
): Promise<WebApp> {
  const plain = Object.keys(env).length === 0 && args.length === 0 && !options.dataDir && options.port === undefined;
  if (!plain) return launchWebApp(env, args, options).started;
  const ready = spare ? await spare.started.catch(() => undefined) : undefined;
  spare = launchWebApp({}, [], {});
  spare.started.catch(() => {}); // a spare that fails to start is noticed by the test it is handed to: it starts its own
  if (ready && alive(ready)) return ready;
  if (ready) rmSync(ready.dataDir, { recursive: true, force: true });
  return launchWebApp({}, [], {}).started;
}

function launchWebApp(
  env: Record<string, string>,
  args: string[],
  options: { dataDir?: string; port?: number },
): { child: ChildProcess; dataDir: string; started: Promise<WebApp> } {
  const { dataDir, workspaceDir } = freshDataDir(options.dataDir);
  const child = spawn(
    process.execPath,
    ['out/main/web.js', '--data-dir', dataDir, '--port', String(options.port ?? 0), ...args],
    {
      env: { ...process.env, ...NO_WARM_UP, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const url = new Promise<string>((resolve, reject) => {
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
  return { child, dataDir, started: url.then((u) => ({ url: u, dataDir, workspaceDir, process: child })) };
}

export async function stopWebApp(app: WebApp): Promise<void> {
  if (app.process.exitCode === null) {
    const exited = new Promise((resolve) => app.process.once('exit', resolve));
    app.process.kill('SIGTERM');
    await exited;
  }
  rmSync(app.dataDir, { recursive: true, force: true });
}

export const test = base.extend<{ shape: Shape; app: App; appPage: Page }>({
  shape: ['web', { option: true }],
  app: async ({ page }, use) => {
    const app = await startApp(page);
    await use(app);
    await stopApp(app);
  },
  appPage: async ({ page, app }, use) => {
    await page.goto(app.url);
    await use(page);
  },
});

export { expect };
/** Where a screenshot goes: `e2e/screenshots/`, and `e2e/screenshots/desktop/` for the desktop shape's. */
export const screenshotPath = (name: string) =>
  join('e2e', 'screenshots', ...(currentShape() === 'desktop' ? ['desktop'] : []), `${name}.png`);
