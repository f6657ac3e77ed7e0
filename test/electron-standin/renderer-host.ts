/**
 * The renderer half of the desktop shape run end to end (docs/desktop.md "The desktop shape run end to end"). It
 * starts the real built main bundle under the stand-in in a child process (remote-main.ts) and shows its window in
 * a Playwright page of a real Chromium, doing what Electron's browser process does between the two:
 * - every request of the page for one of the registered schemes (`app:`, `skald-preview:`) goes to the handler the
 *   main process registered with `protocol.handle`, and its response, CSP included, is what the page gets (page
 *   URLs are mapped onto https origins, url-space.ts); other requests go to the network as under Electron;
 * - a navigation is first put to the main process's `will-navigate` / `will-frame-navigate` handlers, and dropped
 *   when they prevent it; `window.open` is put to the window-open handler and the popup closed when it denies;
 * - the real preload bundle runs in an isolated world of the top frame (page/preload-world.js) and exposes its API
 *   to the page through the contextBridge stand-in (page/main-world.js);
 * - an `ipcRenderer.invoke` reaches the handler registered with `ipcMain.handle`, with the sender frame the DevTools
 *   protocol reports for the calling world (its URL and whether it has a parent), never one the page names;
 * - `webContents.send` reaches the preload's `ipcRenderer.on` listeners;
 * - permissions are granted to the page only when the main process's permission handlers grant them;
 * - when the page's renderer process dies (a crash), the main process hears `render-process-gone`; a reload it then
 *   asks for shows the window in a new page of the same browser, the new renderer (`page()` is the current one).
 * Not proven here: the limits of a real sandboxed preload (its process sandbox, Electron's own contextBridge), and OS
 * integration (a real tray, notifications, the dock, single-instance locking across processes).
 */
import type { CDPSession, Page, Route } from '@playwright/test';
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HostMessage, MainMessage, Snapshot } from './remote-main';
import { UrlSpace } from './url-space';

const WORLD = 'skald-preload';
const BINDING = '__skaldStandinIpc';
const here = join(process.cwd(), 'test', 'electron-standin');

export interface DesktopStandinOptions {
  page: Page;
  args?: string[];
  env?: Record<string, string>;
  /** The built app (`out/`); default the one in the working directory. */
  mainEntry?: string;
}

export interface DesktopStandin {
  process: ChildProcess;
  /** The page URL of `app://skald/index.html`. */
  appUrl: string;
  urls: UrlSpace;
  /** Everything the main process printed. */
  log(): string;
  inspect(): Promise<Snapshot>;
  /** What a person does outside the page. */
  tell(
    message: Extract<
      HostMessage,
      { t: 'quit' | 'close-window' | 'tray-menu' | 'notification-click' | 'second-instance' }
    >,
  ): void;
  /** Resolves with the exit code once the main process has ended. */
  exited: Promise<number | null>;
  /** The page that shows the window now: a new one after a renderer crash and the shell's reload. */
  page(): Page;
}

type Ask = (message: Record<string, unknown> & { t: string }) => Promise<unknown>;

export async function startDesktopStandin(options: DesktopStandinOptions): Promise<DesktopStandin> {
  const { page } = options;
  const child = fork(options.mainEntry ?? 'out/main/index.js', options.args ?? [], {
    execArgv: ['--import', 'tsx', '--import', join(here, 'register.mjs')],
    env: { ...process.env, ...options.env },
    serialization: 'advanced',
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextRid = 1;
  // The channel closes as the main process quits, a moment before its 'exit': the page may still call in between
  // (a test's teardown quits while the page works), so both end the channel, and a send never throws.
  let gone = false;
  const channelClosed = () => {
    gone = true;
    for (const p of pending.values()) p.reject(new Error('the main process has exited'));
    pending.clear();
  };
  child.once('disconnect', channelClosed);
  void exited.then(channelClosed);
  const send = (message: Record<string, unknown>, failed: (error: Error) => void = () => {}) => {
    if (gone || !child.connected) return failed(new Error('the main process has exited'));
    child.send(message, (error) => error && failed(error));
  };
  const ask: Ask = (message) =>
    new Promise((resolve, reject) => {
      const rid = nextRid++;
      pending.set(rid, { resolve, reject });
      send({ ...message, rid }, (error) => {
        pending.delete(rid);
        reject(error);
      });
    });
  const reply = (rid: number, outcome: Promise<unknown>) =>
    outcome.then(
      (value) => send({ t: 'reply', rid, ok: true, value }),
      (error: Error) => send({ t: 'reply', rid, ok: false, message: error.message }),
    );

  let urls = new UrlSpace([]);
  let window: WindowHost | null = null;
  let current = page;
  let preload = '';
  let crashed = false;
  // Chromium's renderer crash, told to the main process as Electron would; the page is then dead for Playwright.
  const watchCrash = (shown: Page, id: number) =>
    shown.once('crash', () => {
      crashed = true;
      send({ t: 'render-process-gone', id, reason: 'crashed', exitCode: 0 });
    });
  let windowWork: Promise<unknown> = Promise.resolve();
  let loaded!: () => void;
  const firstLoad = new Promise<void>((resolve) => (loaded = resolve));

  child.on('message', (raw) => {
    const message = raw as MainMessage;
    if (message.t === 'reply') {
      const waiting = pending.get(message.rid);
      pending.delete(message.rid);
      if (message.ok) waiting?.resolve(message.value);
      else waiting?.reject(new Error(message.message));
    } else if (message.t === 'schemes') {
      urls = new UrlSpace(message.schemes.map((s) => s.scheme));
    } else if (message.t === 'window') {
      // One window per app; its page is the test's page. Set up before the load that follows.
      windowWork = windowWork.then(async () => {
        if (window) throw new Error('the stand-in shows one window');
        preload = readFileSync(message.preload, 'utf8');
        window = await hostWindow(page, message.id, preload, () => urls, ask);
        watchCrash(page, message.id);
      });
    } else if (message.t === 'load') {
      const load = windowWork.then(async () => {
        if (crashed) {
          // A reload after a crash: a new renderer, i.e. a new page wired like the first.
          crashed = false;
          current = await page.context().newPage();
          window = await hostWindow(current, message.id, preload, () => urls, ask);
          watchCrash(current, message.id);
        }
        await window!.load(message.url);
      });
      windowWork = load.catch(() => {});
      void reply(message.rid, load.then(loaded));
    } else if (message.t === 'send') {
      void window?.deliver(message.channel, message.args);
    }
  });

  await Promise.race([
    firstLoad,
    exited.then((code) =>
      Promise.reject(new Error(`the desktop app exited (${code}) before its window loaded:\n${output}`)),
    ),
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error(`the desktop app did not load its window:\n${output}`)), 30_000),
    ),
  ]);
  return {
    process: child,
    appUrl: urls.toPage('app://skald/index.html'),
    urls,
    log: () => output,
    inspect: () => ask({ t: 'inspect' }) as Promise<Snapshot>,
    tell: (message) => send(message),
    exited,
    page: () => current,
  };
}

/** A script of page/, with the token codec both worlds share, in one scope that leaves no global behind. */
function pageScript(name: string): string {
  const read = (file: string) => readFileSync(join(here, 'page', file), 'utf8');
  return `(() => {\n${read('token-codec.js')}\n${read(name)}\n})();`;
}

interface WindowHost {
  load(url: string): Promise<void>;
  deliver(channel: string, args: unknown[]): Promise<void>;
}

/** Wires one Playwright page to the window `id` of the main process. */
async function hostWindow(
  page: Page,
  id: number,
  preloadBundle: string,
  urls: () => UrlSpace,
  ask: Ask,
): Promise<WindowHost> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  const frames = new Map<string, { url: string; parentId?: string }>();
  const preloadContexts = new Map<number, string>();
  let topFrameId: string | null = null;
  cdp.on('Page.frameNavigated', ({ frame }) => {
    frames.set(frame.id, { url: frame.url, parentId: frame.parentId });
    if (!frame.parentId) topFrameId = frame.id;
  });
  cdp.on('Page.frameDetached', ({ frameId }) => frames.delete(frameId));
  cdp.on('Runtime.executionContextCreated', ({ context }) => {
    if (context.name === WORLD) preloadContexts.set(context.id, (context.auxData as { frameId: string }).frameId);
  });
  cdp.on('Runtime.executionContextDestroyed', ({ executionContextId }) => preloadContexts.delete(executionContextId));
  cdp.on('Runtime.executionContextsCleared', () => preloadContexts.clear());
  await cdp.send('Page.enable');
  await cdp.send('Runtime.enable');
  const tree = await cdp.send('Page.getFrameTree');
  topFrameId = tree.frameTree.frame.id;

  const deliverTo = (contextId: number, message: unknown) =>
    cdp
      .send('Runtime.evaluate', {
        contextId,
        expression: `globalThis.__skaldStandinDeliver(${JSON.stringify(JSON.stringify(message))})`,
      })
      .catch(() => {});

  /** The sender frame as Electron would report it: from the calling world's frame, never from the page's say. */
  const senderFrame = (contextId: number) => {
    const frameId = preloadContexts.get(contextId);
    const frame = frameId ? frames.get(frameId) : undefined;
    if (!frame) return null;
    const real = (url: string) => urls().fromPage(url) ?? url;
    const parent = frame.parentId ? frames.get(frame.parentId) : undefined;
    return { url: real(frame.url), parent: frame.parentId ? { url: real(parent?.url ?? '') } : null };
  };

  cdp.on('Runtime.bindingCalled', ({ name, payload, executionContextId }) => {
    if (name !== BINDING) return;
    const message = JSON.parse(payload) as { t: string; id: number; channel: string; args: unknown[] };
    if (message.t !== 'invoke') return;
    ask({
      t: 'ipc',
      frame: senderFrame(executionContextId),
      channel: message.channel,
      args: urls().mapValueFromPage(message.args),
    }).then(
      (value) =>
        deliverTo(executionContextId, { t: 'reply', id: message.id, ok: true, value: urls().mapValueToPage(value) }),
      (error: Error) =>
        deliverTo(executionContextId, { t: 'reply', id: message.id, ok: false, message: error.message }),
    );
  });

  // The main world first, so it listens before the preload exposes anything (both also handshake).
  await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: pageScript('main-world.js') });
  await cdp.send('Runtime.addBinding', { name: BINDING, executionContextName: WORLD });
  const preloadWorld = pageScript('preload-world.js').replace('__PRELOAD_BUNDLE__;', () => preloadBundle);
  await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: preloadWorld, worldName: WORLD });

  await page.route('**/*', (route) => serve(route, id, urls(), ask));
  // window.open, target=_blank: the window-open handler decides (it also opens allowed links outside the app).
  let windowOpen: Promise<{ action: string }> = Promise.resolve({ action: 'deny' });
  cdp.on('Page.windowOpen', ({ url }) => {
    windowOpen = ask({ t: 'window-open', id, url: urls().fromPage(url) ?? url }).catch(() => ({
      action: 'deny',
    })) as Promise<{ action: string }>;
  });
  page.on(
    'popup',
    (popup) =>
      void windowOpen.then((decision) => (decision.action === 'deny' ? popup.close() : undefined)).catch(() => {}),
  );
  await applyPermissions(page, urls, ask);

  return {
    async load(url) {
      await page.goto(urls().toPage(url));
    },
    async deliver(channel, args) {
      const contextId = [...preloadContexts.entries()].find(([, frameId]) => frameId === topFrameId)?.[0];
      if (contextId !== undefined)
        await deliverTo(contextId, { t: 'event', channel, args: urls().mapValueToPage(args) });
    },
  };
}

/** One request of the page: navigation handlers first, then our schemes' handlers, else the network. */
async function serve(route: Route, id: number, urls: UrlSpace, ask: Ask): Promise<void> {
  const request = route.request();
  const pageUrl = request.url();
  const real = urls.fromPage(pageUrl);
  try {
    if (request.isNavigationRequest()) {
      const isMainFrame = request.frame().parentFrame() === null;
      const { prevented } = (await ask({ t: 'navigate', id, url: real ?? pageUrl, isMainFrame })) as {
        prevented: boolean;
      };
      if (prevented) return await route.abort('aborted');
    }
    if (!real) return await route.continue();
    const body = request.postDataBuffer();
    const response = (await ask({
      t: 'protocol',
      scheme: urls.schemeOf(pageUrl)!,
      url: real,
      method: request.method(),
      headers: await request.allHeaders(),
      ...(body ? { body: new Uint8Array(body) } : {}),
    })) as {
      status: number;
      headers: Record<string, string>;
      body: Uint8Array;
    };
    const headers = Object.fromEntries(
      Object.entries(response.headers).map(([k, v]) => [
        k,
        k.toLowerCase() === 'content-security-policy' ? urls.mapCsp(v) : v,
      ]),
    );
    await route.fulfill({ status: response.status, headers, body: Buffer.from(response.body) });
  } catch {
    // The main process has gone (quit) or the page closed: nothing more to serve.
    await route.abort('failed').catch(() => {});
  }
}

/** Chromium's permission → Electron's name for it; each is granted to the page only if the main process grants it. */
const PERMISSIONS: Record<string, string> = {
  geolocation: 'geolocation',
  notifications: 'notifications',
  camera: 'media',
  microphone: 'media',
  midi: 'midi',
  'clipboard-read': 'clipboard-read',
  'clipboard-write': 'clipboard-sanitized-write',
};

async function applyPermissions(page: Page, urls: () => UrlSpace, ask: Ask): Promise<void> {
  const origin = urls().toPage('app://skald/').replace(/\/$/, '');
  const granted: string[] = [];
  for (const [permission, electronName] of Object.entries(PERMISSIONS)) {
    const answer = (await ask({ t: 'permission', permission: electronName, origin: 'app://skald' })) as {
      granted: boolean;
    };
    if (answer.granted) granted.push(permission);
  }
  await page.context().clearPermissions();
  if (granted.length) await page.context().grantPermissions(granted, { origin });
}
