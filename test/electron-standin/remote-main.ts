/**
 * The main-process half of the desktop shape run end to end (docs/desktop.md "The desktop shape run end to end").
 * In a child process the real built main bundle (`out/main/index.js`) imports `electron` and gets the stand-in
 * (electron-module.ts); this module connects that stand-in to renderer-host.ts in the test process, which drives a
 * real Chromium, over the child's IPC channel:
 * - the stand-in reports windows, loads, `webContents.send`, exit and relaunch;
 * - the host asks for what a renderer needs from the main process: IPC calls (with the sender frame it knows),
 *   `protocol.handle` responses, navigation and window-open decisions, permission answers; and, for the tests,
 *   what a person does outside the page (close the window, click the tray, quit from the OS) and a snapshot.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createElectronStandin, type ElectronStandin } from './index';

/** Host → main. Those with `rid` are answered with a `reply`. */
export type HostMessage =
  | { t: 'reply'; rid: number; ok: boolean; value?: unknown; message?: string }
  | { t: 'ipc'; rid: number; frame: { url: string; parent: unknown } | null; channel: string; args: unknown[] }
  | {
      t: 'protocol';
      rid: number;
      scheme: string;
      url: string;
      method: string;
      headers: Record<string, string>;
      body?: Uint8Array;
    }
  | { t: 'navigate'; rid: number; id: number; url: string; isMainFrame: boolean }
  | { t: 'window-open'; rid: number; id: number; url: string }
  | { t: 'permission'; rid: number; permission: string; origin: string }
  | { t: 'inspect'; rid: number }
  | { t: 'quit' }
  | { t: 'close-window' }
  | { t: 'tray-menu'; label: string }
  | { t: 'notification-click'; index: number }
  | { t: 'second-instance' }
  /** The page's renderer process died (Chromium's crash), as Electron reports it on the window's webContents. */
  | { t: 'render-process-gone'; id: number; reason: string; exitCode: number };

/** Main → host. */
export type MainMessage =
  | { t: 'reply'; rid: number; ok: boolean; value?: unknown; message?: string }
  | { t: 'schemes'; schemes: { scheme: string }[] }
  | { t: 'window'; id: number; preload: string }
  | { t: 'load'; rid: number; id: number; url: string }
  | { t: 'send'; id: number; channel: string; args: unknown[] }
  | { t: 'exit'; code: number }
  | { t: 'relaunch' }
  | { t: 'open-external'; url: string };

export interface Snapshot {
  windows: {
    visible: boolean;
    focused: boolean;
    destroyed: boolean;
    loadedUrl: string | null;
    webPreferences: Record<string, unknown>;
  }[];
  trays: { tooltip: string; labels: string[]; destroyed: boolean }[];
  notifications: { body: string; shown: boolean }[];
  openedExternal: string[];
  /** Paths handed to `shell.openPath` (recorded; nothing is opened). */
  openedPaths: string[];
  exitCode: number | null;
  relaunched: number;
}

type Channel = Pick<NodeJS.Process, 'send' | 'on' | 'exit'>;

export function connectToHost(channel: Channel = process): ElectronStandin {
  const send = (message: MainMessage, then?: () => void) => channel.send!(message, undefined, undefined, then);
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextRid = 1;
  const ask = (message: { t: 'load'; id: number; url: string }) =>
    new Promise<unknown>((resolve, reject) => {
      const rid = nextRid++;
      pending.set(rid, { resolve, reject });
      send({ ...message, rid });
    });

  const standin = createElectronStandin({
    userData: process.env.SKALD_STANDIN_USER_DATA ?? mkdtempSync(join(tmpdir(), 'skald-standin-')),
    observer: {
      schemesRegistered: (schemes) => send({ t: 'schemes', schemes: schemes as { scheme: string }[] }),
      windowCreated: (id, options) =>
        send({
          t: 'window',
          id,
          preload: String((options.webPreferences as { preload?: string } | undefined)?.preload ?? ''),
        }),
      load: async (id, url) => void (await ask({ t: 'load', id, url })),
      sent: (id, channelName, args) => send({ t: 'send', id, channel: channelName, args }),
      relaunched: () => send({ t: 'relaunch' }),
      openedExternal: (url) => send({ t: 'open-external', url }),
      // Electron's app.exit ends the process at once; the host hears the code first.
      exited: (code) => send({ t: 'exit', code }, () => channel.exit(code)),
    },
  });
  const contents = (id: number) => standin.windows.find((w) => w.webContents.id === id)?.webContents;

  async function answer(message: HostMessage & { rid: number }): Promise<unknown> {
    switch (message.t) {
      case 'ipc':
        return standin.invokeFrom(message.frame, message.channel, message.args);
      case 'protocol': {
        const request = new Request(message.url, {
          method: message.method,
          headers: message.headers,
          body: message.body ? Buffer.from(message.body) : undefined,
        });
        const response = await standin.handleProtocol(message.scheme, request);
        return {
          status: response.status,
          headers: Object.fromEntries(response.headers.entries()),
          body: new Uint8Array(await response.arrayBuffer()),
        };
      }
      case 'navigate': {
        const target = contents(message.id);
        if (!target) return { prevented: true };
        let prevented = message.isMainFrame && target.emitPreventable('will-navigate', message.url);
        const frameEvent = {
          url: message.url,
          isMainFrame: message.isMainFrame,
          preventDefault: () => void (prevented = true),
        };
        target.emit('will-frame-navigate', frameEvent);
        return { prevented };
      }
      case 'window-open':
        return contents(message.id)?.windowOpenHandler?.({ url: message.url }) ?? { action: 'deny' };
      case 'permission': {
        const { request, check } = standin.permission;
        const checked = check ? check(null, message.permission, message.origin, {}) : true;
        const requested = await new Promise<boolean>((resolve) =>
          request ? request(null, message.permission, resolve, { requestingUrl: message.origin }) : resolve(true),
        );
        return { granted: checked && requested };
      }
      case 'inspect':
        return snapshot(standin);
      default:
        throw new Error(`unknown request ${message.t}`);
    }
  }

  channel.on('message', (raw) => {
    const message = raw as HostMessage;
    if (message.t === 'reply') {
      const waiting = pending.get(message.rid);
      pending.delete(message.rid);
      if (message.ok) waiting?.resolve(message.value);
      else waiting?.reject(new Error(message.message));
      return;
    }
    if ('rid' in message) {
      answer(message).then(
        (value) => send({ t: 'reply', rid: message.rid, ok: true, value }),
        (error: Error) => send({ t: 'reply', rid: message.rid, ok: false, message: error.message }),
      );
      return;
    }
    if (message.t === 'quit') standin.app.quit();
    else if (message.t === 'close-window') standin.windows.find((w) => !w.isDestroyed())?.close();
    else if (message.t === 'second-instance') standin.app.emit('second-instance');
    else if (message.t === 'render-process-gone')
      contents(message.id)?.emit('render-process-gone', {}, { reason: message.reason, exitCode: message.exitCode });
    else if (message.t === 'notification-click') standin.notifications[message.index]?.emit('click');
    else if (message.t === 'tray-menu') {
      const items = (standin.trays.at(-1)?.menu?.template ?? []) as { label?: string; click?: () => void }[];
      items.find((item) => item.label === message.label)?.click?.();
    }
  });
  // Electron logs an unhandled rejection in the main process; it does not end the app.
  process.on('unhandledRejection', (error) => console.error('[standin] unhandled rejection', error));
  return standin;
}

function snapshot(standin: ElectronStandin): Snapshot {
  return {
    windows: standin.windows.map((w) => ({
      visible: w.isVisible(),
      focused: w.isFocused(),
      destroyed: w.isDestroyed(),
      loadedUrl: w.loadedUrl,
      webPreferences: w.options.webPreferences as Record<string, unknown>,
    })),
    trays: standin.trays.map((t) => ({
      tooltip: t.tooltip,
      labels: ((t.menu?.template ?? []) as { label?: string }[]).map((i) => i.label ?? '-'),
      destroyed: t.isDestroyed,
    })),
    notifications: standin.notifications.map((n) => ({ body: n.options.body, shown: n.shown })),
    openedExternal: standin.log.openedExternal,
    openedPaths: standin.log.openedPaths,
    exitCode: standin.log.exitCode,
    relaunched: standin.log.relaunched,
  };
}
