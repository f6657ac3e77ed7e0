/**
 * The desktop shell's lifecycle against the Electron stand-in and a real core (real SQLite in a temp folder, the
 * scripted LLM over HTTP, real child processes): windows and their hardening, the app:// protocol, the IPC sender
 * check, hide-on-close, tray and notifications, window state, the menu of a packaged build, and the quit order.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../../../test/llm-server/index';
import { createElectronStandin, type ElectronStandin } from '../../../test/electron-standin/index';
import { cleanupTempDirs, tempDir } from '../../../test/helpers/temp';
import { menuRoles } from './app-menu';
import { MAX_RELOADS_IN_A_ROW } from './renderer-recovery';
import { startDesktop, type DesktopApp } from './desktop-app';
import { WINDOW_STATE_FILE } from './window-state';

const running: { desktop: DesktopApp; standin: ElectronStandin }[] = [];
let llm: ScriptedLlm | undefined;

afterEach(async () => {
  for (const { desktop } of running.splice(0)) await desktop.quit();
  await llm?.close();
  llm = undefined;
  cleanupTempDirs();
});

async function start(
  opts: {
    isPackaged?: boolean;
    hasLock?: boolean;
    userData?: string;
    displays?: { x: number; y: number; width: number; height: number }[];
    quitTimeoutMs?: number;
  } = {},
) {
  const userData = opts.userData ?? tempDir('skald-desktop-');
  const rendererDir = join(userData, '..', 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Skald</title>');
  const standin = createElectronStandin({
    userData,
    isPackaged: opts.isPackaged,
    hasLock: opts.hasLock,
    displays: opts.displays,
  });
  const desktop = await startDesktop({
    electron: standin.electron,
    argv: [],
    env: {},
    rendererDir,
    preloadPath: '/app/preload/index.cjs',
    iconPath: '/app/resources/icon.png',
    agentsDir: join(__dirname, '../../../agents'),
    quitTimeoutMs: opts.quitTimeoutMs,
    log: () => {},
  });
  if (desktop) running.push({ desktop, standin });
  await new Promise((r) => setImmediate(r)); // ready-to-show
  return { desktop: desktop!, standin, userData };
}

describe('windows', () => {
  it('one hardened window from app://, shown when ready', async () => {
    const { standin } = await start();
    expect(standin.windows).toHaveLength(1);
    const win = standin.windows[0]!;
    expect(win.loadedUrl).toBe('app://skald/index.html');
    expect(win.isVisible()).toBe(true);
    expect(win.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
    });
    expect(standin.log.permissionHandlers).toBe(2);
  });

  it('every permission request and check is answered no (camera, microphone, geolocation, notifications, clipboard)', async () => {
    const { standin } = await start();
    const { request, check } = standin.permission;
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'clipboard-sanitized-write',
      'midi',
      'openExternal',
    ]) {
      expect(check!(null, permission, 'app://skald', {})).toBe(false);
      expect(await new Promise((resolve) => request!(null, permission, resolve, {}))).toBe(false);
    }
  });

  it('E7: each permission Electron names is answered no, from our page, a sub-frame or another origin, whatever it asks for', async () => {
    const { standin } = await start();
    const { request, check } = standin.permission;
    // The permission names of the installed Electron's own typings: one Electron adds is covered without a change here.
    const typings = readFileSync(require.resolve('electron/electron.d.ts'), 'utf8');
    const names = (handler: string) => {
      const union =
        new RegExp(`${handler}\\(handler: \\(\\(webContents: [^,]+, permission: ((?:'[^']+'(?: \\| )?)+)`).exec(
          typings,
        )?.[1] ?? '';
      return [...union.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
    };
    const requested = names('setPermissionRequestHandler');
    const checked = names('setPermissionCheckHandler');
    expect(requested).toEqual(
      expect.arrayContaining([
        'media',
        'geolocation',
        'notifications',
        'clipboard-read',
        'display-capture',
        'hid',
        'serial',
        'usb',
        'fileSystem',
        'openExternal',
        'window-management',
        'ar',
        'unknown',
      ]),
    );
    expect(checked).toEqual(
      expect.arrayContaining(['media', 'geolocation', 'notifications', 'clipboard-read', 'ar', 'unknown']),
    );
    const fromWhere = [
      { requestingUrl: 'app://skald/index.html', isMainFrame: true },
      { requestingUrl: 'skald-preview://p/page.html', isMainFrame: false },
      { requestingUrl: 'https://evil.example/', isMainFrame: false },
    ];
    // Camera and microphone come as `media` with what they ask for; a screen share as `display-capture` or `media`.
    const extras = [
      {},
      { mediaTypes: ['video'] },
      { mediaTypes: ['audio'] },
      { mediaTypes: ['video', 'audio'] },
      { mediaTypes: [] },
      { externalURL: 'file:///etc/passwd' },
    ];
    for (const permission of requested) {
      for (const where of fromWhere) {
        for (const extra of extras) {
          const granted = await new Promise((resolve) => request!(null, permission, resolve, { ...where, ...extra }));
          expect(granted, `${permission} from ${where.requestingUrl} ${JSON.stringify(extra)}`).toBe(false);
        }
      }
    }
    for (const permission of checked) {
      for (const { requestingUrl, isMainFrame } of fromWhere) {
        const origin = new URL(requestingUrl).origin;
        expect(
          check!(null, permission, origin, {
            requestingUrl,
            isMainFrame,
            embeddingOrigin: 'app://skald',
            mediaType: 'video',
          }),
          `${permission} check from ${origin}`,
        ).toBe(false);
      }
    }
  });

  it('navigation, redirects and new windows away from the app are refused', async () => {
    const { standin } = await start();
    const contents = standin.windows[0]!.webContents;
    expect(contents.emitPreventable('will-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.emitPreventable('will-navigate', 'app://skald/index.html')).toBe(false);
    expect(contents.emitPreventable('will-redirect', 'http://127.0.0.1:9/steal')).toBe(true);
    expect(contents.emitPreventable('will-attach-webview')).toBe(true);
    expect(contents.windowOpenHandler!({ url: 'https://example.com' })).toEqual({ action: 'deny' });
  });

  it('serves the renderer through the app:// handler with the CSP, and nothing outside it', async () => {
    const { standin } = await start();
    const page = await standin.fetchApp('app://skald/index.html');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect((await standin.fetchApp('app://skald/../../etc/passwd')).status).toBe(404);
    expect((await standin.fetchApp('app://other/index.html')).status).toBe(404);
  });

  it("IPC is served only to the app origin's top frame", async () => {
    const { standin } = await start();
    await expect(standin.invoke('app:ping', { text: 'hi' })).resolves.toMatchObject({
      ok: true,
      result: { text: 'hi' },
    });
    await expect(standin.invoke('app:ping', { text: 'hi' }, 'https://evil.example/')).resolves.toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    await expect(
      standin.invoke('app:ping', { text: 'hi' }, 'app://skald/index.html', { url: 'app://skald/' }),
    ).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await expect(standin.invoke('app:ping', { text: 5 })).resolves.toMatchObject({ ok: false });
  });

  it('core events reach every window, serialized once whatever the number of windows', async () => {
    const { standin, desktop } = await start();
    new standin.electron.BrowserWindow({ show: false }); // a second window
    expect(standin.windows).toHaveLength(2);
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      desktop.core.events.emit('app', { type: 'notice', level: 'info', message: 'hello' });
      const events = stringify.mock.calls.filter(
        ([value]: unknown[]) => (value as { type?: string })?.type === 'notice',
      );
      expect(events).toHaveLength(1);
    } finally {
      stringify.mockRestore();
    }
    for (const w of standin.windows)
      expect(w.webContents.sent).toContainEqual({
        channel: 'event:app',
        payload: JSON.stringify({ type: 'notice', level: 'info', message: 'hello' }),
      });
  });
});

describe('lifecycle', () => {
  it('R6: a window whose renderer crashed is reloaded; a clean exit is not; a crash loop stops after three in a row', async () => {
    const { desktop, standin } = await start();
    const contents = standin.windows[0]!.webContents;
    const gone = (reason: string) =>
      contents.emit('render-process-gone', {}, { reason, exitCode: reason === 'clean-exit' ? 0 : 139 });
    const loaded = () => new Promise((resolve) => contents.once('did-finish-load', resolve));
    let load = loaded();
    gone('crashed');
    expect(contents.reloads).toBe(1);
    await load; // the page loaded again: the core and the window go on
    expect(standin.windows[0]!.loadedUrl).toBe('app://skald/index.html');
    expect(desktop.window().isDestroyed()).toBe(false);
    gone('clean-exit');
    expect(contents.reloads).toBe(1);
    load = loaded();
    gone('oom');
    await load;
    expect(contents.reloads).toBe(2);
    // Dying again before the page loads, again and again: three reloads, then no more.
    for (let i = 0; i < 5; i++) gone('crashed');
    expect(contents.reloads).toBe(2 + MAX_RELOADS_IN_A_ROW);
  });

  it('a second launch without the lock quits at once; the first one is focused on second-instance', async () => {
    const second = createElectronStandin({ userData: tempDir(), hasLock: false });
    expect(
      await startDesktop({
        electron: second.electron,
        argv: [],
        env: {},
        rendererDir: '/x',
        preloadPath: '/x',
        iconPath: '/x',
        agentsDir: '/x',
      }),
    ).toBeNull();
    expect(second.log.quitCalls).toBe(1);
    const { standin } = await start();
    standin.windows[0]!.hide();
    standin.app.emit('second-instance');
    expect(standin.windows[0]!.isVisible()).toBe(true);
  });

  it('closing the window hides it; the app and the core go on', async () => {
    const { standin, desktop } = await start();
    standin.windows[0]!.close();
    expect(standin.windows[0]!.isDestroyed()).toBe(false);
    expect(standin.windows[0]!.isVisible()).toBe(false);
    expect(standin.log.exitCode).toBeNull();
    await expect(standin.invoke('app:ping', { text: 'still' })).resolves.toMatchObject({ ok: true });
    expect(desktop.core.db.open).toBe(true);
  });

  it('the tray opens the window, shows what waits, and quits; a waiting approval notifies while hidden', async () => {
    llm = await startScriptedLlm({
      turns: [{ toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'x' } }] }],
    });
    const { standin, desktop } = await start();
    const tray = standin.trays[0]!;
    const labels = () => (tray.menu!.template as { label?: string }[]).map((i) => i.label ?? '-');
    expect(labels()).toEqual(['Open Skald', 'Nothing waits for you', '-', 'Quit']);
    standin.windows[0]!.close(); // hidden
    const provider = (
      await desktop.core.handlers['providers:create']({
        kind: 'openai_compatible',
        name: 's',
        baseUrl: llm.baseUrl,
        apiKey: 'k',
        enabled: true,
      })
    ).provider;
    await desktop.core.handlers['models:create']({ providerId: provider.id, modelId: 'm' });
    const { id } = await desktop.core.handlers['chat:createSession']({});
    await desktop.core.handlers['chat:send']({ sessionId: id, content: 'write it' });
    await expect.poll(() => desktop.waitingCount(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => labels()[1]).toBe('1 waiting for your approval');
    expect(tray.tooltip).toContain('1 waiting');
    expect(standin.notifications).toHaveLength(1);
    expect(standin.notifications[0]!.options.body).toContain('write_file waits for your approval');
    standin.notifications[0]!.emit('click');
    expect(standin.windows[0]!.isVisible()).toBe(true);
  });

  it('no notification while the window is in view', async () => {
    const { standin, desktop } = await start();
    desktop.core.events.emit('inbox', { type: 'clarification_requested', request_id: 1, title: 'Which one?' });
    expect(standin.notifications).toHaveLength(0);
    standin.windows[0]!.blur();
    desktop.core.events.emit('inbox', { type: 'clarification_requested', request_id: 2, title: 'Which one?' });
    expect(standin.notifications.map((n) => n.options.body)).toEqual(['A question waits for you: Which one?']);
  });

  it("a chat's answer notifies while the window is out of view, not while it is in view", async () => {
    llm = await startScriptedLlm({
      turns: [{ text: 'Seen while you looked.' }, { text: 'The build is green:\n all   tests pass.' }],
    });
    const { standin, desktop } = await start();
    const provider = (
      await desktop.core.handlers['providers:create']({
        kind: 'openai_compatible',
        name: 's',
        baseUrl: llm.baseUrl,
        apiKey: 'k',
      })
    ).provider;
    await desktop.core.handlers['models:create']({ providerId: provider.id, modelId: 'm' });
    const { id } = await desktop.core.handlers['chat:createSession']({ title: 'Nightly build' });
    const answered = (n: number) =>
      expect
        .poll(() => desktop.core.db.prepare("SELECT count(*) AS n FROM chat_history WHERE role = 'assistant'").get(), {
          timeout: 10_000,
        })
        .toEqual({ n });
    await desktop.core.handlers['chat:send']({ sessionId: id, content: 'first' });
    await answered(1);
    expect(standin.notifications).toHaveLength(0);
    standin.windows[0]!.blur();
    await desktop.core.handlers['chat:send']({ sessionId: id, content: 'and now?' });
    await answered(2);
    await expect
      .poll(() => standin.notifications.map((n) => n.options.body))
      .toEqual(['Answered in “Nightly build”: The build is green: all tests pass.']);
    standin.notifications[0]!.emit('click');
    expect(standin.windows[0]!.isFocused()).toBe(true);
  });

  it('quit stops the running command, closes the database, then exits; registrations are undone', async () => {
    llm = await startScriptedLlm({
      turns: [{ toolCalls: [{ name: 'execute_cmd', arguments: { command: 'sleep 37.25' } }] }],
    });
    const { standin, desktop } = await start();
    await desktop.core.handlers['approval:createRule']({ tool_pattern: 'execute_cmd', action: 'allow', priority: 1 });
    const provider = (
      await desktop.core.handlers['providers:create']({
        kind: 'openai_compatible',
        name: 's',
        baseUrl: llm.baseUrl,
        apiKey: 'k',
      })
    ).provider;
    await desktop.core.handlers['models:create']({ providerId: provider.id, modelId: 'm' });
    const { id } = await desktop.core.handlers['chat:createSession']({});
    await desktop.core.handlers['chat:setWorkingDirectory']({ sessionId: id, path: desktop.core.config.workspaceDir });
    await desktop.core.handlers['chat:send']({ sessionId: id, content: 'sleep' });
    // A plain command (no `$!` or `&`, which the shell gate would ask about), found by its unique argument.
    const findPid = () =>
      execFileSync('ps', ['-eo', 'pid=,args='])
        .toString()
        .split('\n')
        .find((l) => l.trim().endsWith('sleep 37.25'));
    await expect.poll(() => findPid() !== undefined, { timeout: 15_000 }).toBe(true);
    const pid = Number(findPid()!.trim().split(/\s+/)[0]);
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive()).toBe(true);
    standin.app.quit(); // as the OS would (Cmd+Q, logout): held until the core has stopped
    expect(standin.log.exitCode).toBeNull();
    await expect.poll(() => standin.log.exitCode, { timeout: 15_000 }).toBe(0);
    expect(desktop.core.db.open).toBe(false);
    // The group was killed during dispose; a killed child may take a moment to be reaped by init.
    await expect.poll(alive, { timeout: 5_000 }).toBe(false);
    expect(standin.handlerCount()).toBe(0);
    expect(standin.trays[0]!.isDestroyed).toBe(true);
    running.splice(0);
  });

  it('a core that does not stop in time does not keep the app from exiting', async () => {
    const { standin, desktop } = await start({ quitTimeoutMs: 200 });
    const realDispose = desktop.core.dispose;
    (desktop.core as { dispose: () => Promise<void> }).dispose = () => new Promise(() => {});
    await desktop.quit();
    expect(standin.log.exitCode).toBe(0);
    running.splice(0);
    await realDispose();
  });

  it('restart stops the core, relaunches and exits', async () => {
    const { standin, desktop } = await start();
    await desktop.quit({ relaunch: true });
    expect(standin.log.relaunched).toBe(1);
    expect(standin.log.exitCode).toBe(0);
    expect(desktop.core.db.open).toBe(false);
    running.splice(0);
  });
});

describe('menu and window state', () => {
  it('a packaged build offers no DevTools; a development build does', async () => {
    const packaged = await start({ isPackaged: true });
    expect(menuRoles((packaged.standin.log.applicationMenu as { template: never[] }).template)).not.toContain(
      'toggleDevTools',
    );
    const dev = await start();
    expect(menuRoles((dev.standin.log.applicationMenu as { template: never[] }).template)).toContain('toggleDevTools');
  });

  it('size, position and maximized state come back at the next start; an off-screen position is dropped', async () => {
    const first = await start();
    first.standin.windows[0]!.setBounds({ x: 300, y: 200, width: 1000, height: 700 });
    expect(existsSync(join(first.userData, WINDOW_STATE_FILE))).toBe(true);
    await first.desktop.quit();
    running.splice(0);
    const second = await start({ userData: first.userData });
    expect(second.standin.windows[0]!.options).toMatchObject({ x: 300, y: 200, width: 1000, height: 700 });
    await second.desktop.quit();
    running.splice(0);
    const third = await start({ userData: first.userData, displays: [{ x: 0, y: 0, width: 250, height: 150 }] });
    expect(third.standin.windows[0]!.options.x).toBeUndefined();
    expect(third.standin.windows[0]!.options).toMatchObject({ width: 1000, height: 700 });
  });
});
