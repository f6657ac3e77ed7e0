/**
 * The desktop shape's checks that need a window (docs/desktop.md "The desktop shape run end to end";
 * docs/security-checks.md E1–E7, I3–I5): the real built main bundle under the Electron stand-in, its real preload in
 * an isolated world of a real Chromium page. Also the lifecycle through what a person does outside the page: closing
 * the window hides it and the app goes on, the tray counts what waits and brings the window back, Quit stops a
 * running command and closes the database before the process ends. A renderer crash (R6) stops nothing: the shell
 * hears `render-process-gone`, reloads the window, and the new page shows the command still running, then done.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exposedKeys } from '../src/shared/contract/api';
import { callBridge, expect, startApp, stopApp, test, type App } from './fixtures';
import { shots } from './screens';
import { configureModel, startLlmProcess, type LlmProcess } from './scripted-llm';

let app: App;
let llm: LlmProcess | undefined;

test.beforeEach(async ({ page }) => {
  app = await startApp(page);
});

test.afterEach(async () => {
  llm?.stop();
  llm = undefined;
  if (app) await stopApp(app);
});

test('E1, E2, I5: the window is hardened and window.skald is exactly the contract, frozen, with no Node and no ipcRenderer', async ({
  page,
}) => {
  // The preload's object is `window.skaldBridge` (frozen, exactly the contract); the renderer wraps it into
  // `window.skald` (the same members, its outcomes unwrapped: docs/architecture.md "Layers").
  const { windows } = await app.desktop!.inspect();
  expect(windows).toHaveLength(1);
  expect(windows[0]!.webPreferences).toMatchObject({
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    webviewTag: false,
    allowRunningInsecureContent: false,
  });
  expect(windows[0]!.webPreferences).not.toHaveProperty('experimentalFeatures');
  expect(windows[0]!.loadedUrl).toBe('app://skald/index.html');
  await page.goto(app.url);
  await expect(page.getByTestId('app-info')).toContainText('desktop');
  const seen = await page.evaluate(async () => {
    const w = window as unknown as Record<string, unknown>;
    const exposed = window.skaldBridge!;
    const skald = window.skald!;
    const event = new Promise<unknown>((resolve) => {
      const off = skald.on.app((payload) => {
        off();
        resolve(payload);
      });
    });
    // The preload answers each call's outcome as data (docs/architecture.md "Layers"); the renderer unwraps it.
    const reply = (await exposed.app.ping({ text: 'over IPC' })) as unknown as { ok: true; result: { text: string } };
    let replaced = 'kept';
    try {
      (w as { skaldBridge: unknown }).skaldBridge = {};
    } catch {
      replaced = 'threw';
    }
    return {
      reply: reply.result.text,
      event: await event,
      keys: Object.keys(exposed).sort(),
      wrapped: Object.keys(skald).sort(),
      frozen: Object.isFrozen(exposed) && Object.isFrozen(exposed.app),
      same: w.skaldBridge === exposed,
      replaced,
      node: [typeof w.require, typeof w.process, typeof w.module, typeof w.Buffer],
      ipc: Object.getOwnPropertyNames(window).filter((k) => /ipc|electron|standin/i.test(k)),
    };
  });
  expect(seen.reply).toBe('over IPC');
  expect(seen.event).toMatchObject({ type: 'pong', text: 'over IPC' });
  expect(seen.keys).toEqual(exposedKeys());
  expect(seen.wrapped).toEqual(exposedKeys());
  expect(seen.frozen).toBe(true);
  expect(seen.same).toBe(true);
  expect(seen.node).toEqual(['undefined', 'undefined', 'undefined', 'undefined']);
  expect(seen.ipc).toEqual([]);
  await shots(page, 'desktop-window');
});

test('E3: the page comes from app:// with its CSP, which Chromium enforces; file:// and paths outside the renderer are refused', async ({
  page,
}) => {
  const consoleLines: string[] = [];
  page.on('console', (m) => consoleLines.push(m.text()));
  const response = await page.goto(app.url);
  const csp = response!.headers()['content-security-policy']!;
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
  const outcome = await page.evaluate(async () => {
    const violation = new Promise<string>((resolve) =>
      document.addEventListener('securitypolicyviolation', (e) => resolve(e.effectiveDirective), { once: true }),
    );
    const s = document.createElement('script');
    s.textContent = 'window.__inlineRan = true';
    document.body.appendChild(s);
    const blockedBy = await violation;
    const fileFetch = await fetch('file:///etc/passwd').then(
      () => 'read',
      (e: Error) => e.name,
    );
    const outside = await fetch('/%2e%2e/%2e%2e/%2e%2e/etc/passwd').then((r) => r.status);
    return {
      inline: (window as unknown as { __inlineRan?: boolean }).__inlineRan ?? false,
      blockedBy,
      fileFetch,
      outside,
    };
  });
  expect(outcome).toEqual({ inline: false, blockedBy: 'script-src-elem', fileFetch: 'TypeError', outside: 404 });
  const before = page.url();
  await page.evaluate(() => void (location.href = 'file:///etc/passwd'));
  await page.waitForTimeout(300);
  expect(page.url()).toBe(before);
  await expect(page.getByTestId('app-info')).toContainText('desktop');
  expect(consoleLines.join('\n')).toMatch(
    /Not allowed to load local resource: file:\/\/\/etc\/passwd|Refused to connect to 'file:\/\/\/etc\/passwd'/,
  );
});

test('E5, E6: navigation away is refused and logged; window.open is denied, http(s) goes to the browser, file: nowhere', async ({
  page,
}) => {
  await page.goto(app.url);
  const before = page.url();
  await page.evaluate(() => void (location.href = 'https://example.com/away'));
  await expect.poll(() => app.desktop!.log()).toContain('blocked navigation to https://example.com/away');
  expect(page.url()).toBe(before);
  await expect(page.getByTestId('app-info')).toContainText('desktop');
  const popups: string[] = [];
  page.context().on('page', (p) => popups.push(p.url()));
  await page.evaluate(() => {
    window.open('https://example.com/docs');
    window.open('file:///etc/passwd');
  });
  await expect.poll(async () => (await app.desktop!.inspect()).openedExternal).toEqual(['https://example.com/docs']);
  await expect.poll(() => page.context().pages().length).toBe(1);
});

test('E7: camera, geolocation and notification requests are denied by the permission handlers', async ({ page }) => {
  await page.goto(app.url);
  const answers = await page.evaluate(async () => ({
    notification: await Notification.requestPermission(),
    geolocation: await new Promise<string>((resolve) =>
      navigator.geolocation.getCurrentPosition(
        () => resolve('granted'),
        (e) => resolve(`denied ${e.code}`),
        { timeout: 3000 },
      ),
    ),
    // No camera exists here, so getUserMedia would fail either way; the permission state says what was decided.
    camera: (await navigator.permissions.query({ name: 'camera' as PermissionName })).state,
    microphone: (await navigator.permissions.query({ name: 'microphone' as PermissionName })).state,
  }));
  expect(answers).toMatchObject({ notification: 'denied', geolocation: 'denied 1' });
  expect(answers.camera).not.toBe('granted');
  expect(answers.microphone).not.toBe('granted');
});

test('I3, I4: a bad call is refused at the boundary with its code and no stack or path; the app stays up', async ({
  page,
}) => {
  await page.goto(app.url);
  // What crosses IPC: the outcome as data, its error only a code and a message (no stack, no path).
  const outcome = (await page.evaluate(() => window.skaldBridge!.app.ping({ text: 42 }))) as unknown as {
    ok: boolean;
    error: Record<string, string>;
  };
  expect(outcome.ok).toBe(false);
  expect(Object.keys(outcome.error).sort()).toEqual(['code', 'message']);
  expect(outcome.error.code).toMatch(/^[a-z_]+$/);
  expect(outcome.error.message).toMatch(/expected string/i);
  expect(outcome.error.message).not.toMatch(/\n\s+at |\/work\/|node_modules/);
  // What the app sees: a BridgeError that keeps the code (none parsed out of a message).
  const failure = await page.evaluate(() =>
    window.skald!.app.ping({ text: 42 as never }).then(
      () => null,
      (e: Error & { code?: string }) => ({ code: e.code, message: e.message }),
    ),
  );
  expect(failure).toEqual({ code: outcome.error.code, message: outcome.error.message });
  expect(await callBridge<{ text: string }>(page, 'app:ping', { text: 'still here' })).toMatchObject({
    text: 'still here',
  });
});

test('closing the window hides it and turns go on; the tray counts the waiting approval, notifies, and opens the window', async ({
  page,
}) => {
  llm = await startLlmProcess(app.dataDir, [
    { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'x' } }] },
    { text: 'done' },
  ]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  const standin = app.desktop!;
  standin.tell({ t: 'close-window' });
  await expect
    .poll(async () => (await standin.inspect()).windows[0])
    .toMatchObject({ visible: false, destroyed: false });
  // The page lives on behind the hidden window, as Electron's does: the turn runs and asks.
  await page.getByTestId('composer').fill('write it');
  await page.getByTestId('send').click();
  await expect
    .poll(async () => (await standin.inspect()).trays[0]!.labels)
    .toEqual(['Open Skald', '1 waiting for your approval', '-', 'Quit']);
  expect((await standin.inspect()).notifications.map((n) => n.body)).toEqual(['write_file waits for your approval.']);
  standin.tell({ t: 'notification-click', index: 0 });
  await expect.poll(async () => (await standin.inspect()).windows[0]).toMatchObject({ visible: true, focused: true });
  await page.getByTestId('approval-card').getByRole('button', { name: 'Approve once' }).click();
  await expect(page.locator('[data-testid="tool-card"][data-tool="write_file"]')).toHaveAttribute(
    'data-status',
    'done',
  );
  await expect.poll(async () => (await standin.inspect()).trays[0]!.labels[1]).toBe('Nothing waits for you');
});

test('Quit from the tray stops the running command and closes the database before the process ends', async ({
  page,
}) => {
  llm = await startLlmProcess(app.dataDir, [
    { toolCalls: [{ name: 'execute_cmd', arguments: { command: 'sleep 41.75' } }] },
    { text: 'done' },
  ]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  await callBridge(page, 'approval:createRule', { tool_pattern: 'execute_cmd', action: 'allow', priority: 1 });
  await page.getByTestId('composer').fill('sleep');
  await page.getByTestId('send').click();
  const sleeper = () =>
    execFileSync('ps', ['-eo', 'pid=,args='])
      .toString()
      .split('\n')
      .find((l) => l.trim().endsWith('sleep 41.75'));
  await expect.poll(() => sleeper() !== undefined, { timeout: 20_000 }).toBe(true);
  app.desktop!.tell({ t: 'tray-menu', label: 'Quit' });
  expect(await app.desktop!.exited).toBe(0);
  // A cleanly closed SQLite database leaves no write-ahead log behind; the command's group was ended.
  expect(existsSync(join(app.dataDir, 'skald.db'))).toBe(true);
  expect(existsSync(join(app.dataDir, 'skald.db-wal'))).toBe(false);
  await expect.poll(() => sleeper(), { timeout: 5_000 }).toBeUndefined();
});

test('R6: the renderer crashes while a command runs; the shell reloads the window, the command runs on and its card ends done', async ({
  page,
}) => {
  const command = 'while [ ! -f go.flag ]; do sleep 0.2; done; echo released';
  llm = await startLlmProcess(app.dataDir, [
    { toolCalls: [{ name: 'execute_cmd', arguments: { command } }] },
    { text: 'The command finished after the reload.' },
  ]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  await page.getByTestId('composer').fill('wait for the flag');
  await page.getByTestId('send').click();
  const card = page.getByTestId('tool-card').first();
  await card.getByRole('button', { name: 'Approve once' }).click();
  await expect(card).toHaveAttribute('data-status', 'running');

  // Chromium's renderer dies; the stand-in tells the main process as Electron would (render-process-gone).
  const cdp = await page.context().newCDPSession(page);
  void cdp.send('Page.crash').catch(() => undefined);
  const standin = app.desktop!;
  await expect.poll(() => standin.page() !== page, { timeout: 20_000 }).toBe(true);
  expect(standin.log()).toContain("the window's renderer is gone (crashed");
  const reloaded = standin.page();
  const again = reloaded.getByTestId('tool-card').first();
  await expect(again).toHaveAttribute('data-status', 'running');
  await expect(again).toHaveAttribute('data-interrupted', 'false');

  writeFileSync(join(app.workspaceDir, 'go.flag'), '');
  await expect(again).toHaveAttribute('data-status', 'done');
  await expect(again).toContainText('released');
  await expect(reloaded.getByTestId('msg-assistant').last()).toContainText('The command finished after the reload.');
  await shots(reloaded, '17-desktop-after-renderer-crash');
});

test('the viewer opens a file it has no view for with the system app only after a confirmation; programs are refused', async ({
  page,
}) => {
  const standin = app.desktop!;
  writeFileSync(join(app.workspaceDir, 'data.bin'), Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 1, 2, 3]));
  writeFileSync(join(app.workspaceDir, 'setup.exe'), Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'));
  await page.goto(app.url);
  await callBridge(page, 'viewer:open', { path: 'data.bin' });
  const view = page.getByTestId('viewer-binary');
  await expect(view).toContainText('50 4b 03 04');
  await view.getByRole('button', { name: 'Open with the system app…' }).click();
  const confirm = page.getByTestId('system-open-confirm');
  await expect(confirm).toContainText('Open data.bin with the system app?');
  await expect(confirm).toContainText(join(app.workspaceDir, 'data.bin'));
  await shots(page, 'viewer-system-open-confirm');
  // Cancel: nothing is handed to the system.
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  expect((await standin.inspect()).openedPaths).toEqual([]);
  // Confirm: the shell's shell.openPath gets the file's real path, exactly once (so the cancel handed nothing).
  await view.getByRole('button', { name: 'Open with the system app…' }).click();
  await confirm.getByRole('button', { name: 'Open it' }).click();
  await expect(page.getByTestId('system-open-result')).toContainText('Asked the system to open data.bin.');
  await expect.poll(async () => (await standin.inspect()).openedPaths).toEqual([join(app.workspaceDir, 'data.bin')]);
  // A program is never offered, and a direct call is refused by the core.
  await callBridge(page, 'viewer:open', { path: 'setup.exe' });
  const exe = page.getByTestId('viewer-binary');
  await expect(exe.getByTestId('system-open-unavailable')).toContainText('setup.exe is a program or installer');
  await expect(exe.getByRole('button', { name: 'Open with the system app…' })).toHaveCount(0);
  await shots(page, 'viewer-system-open-refused');
  const resolved = await callBridge<{ file: { handle: string } }>(page, 'viewer:resolve', { path: 'setup.exe' });
  expect(
    await callBridge(page, 'viewer:openWithSystem', { handle: resolved.file.handle, confirmed: true }),
  ).toMatchObject({ status: 'not_opened', reason: 'refused' });
  expect((await standin.inspect()).openedPaths).toEqual([join(app.workspaceDir, 'data.bin')]);
});
