/*
 * The preload's world (docs/desktop.md "The desktop shape run end to end"): an isolated world of the page's top frame,
 * created by the stand-in through the DevTools protocol, where the real preload bundle (`out/preload/index.cjs`)
 * runs with a `require` that offers only `electron`, as a sandboxed preload's does. Its `electron` is:
 * - `ipcRenderer`: `invoke` and `on`/`off`/`once`/`removeListener` over a DevTools binding that exists in this world
 *   only (the page's main world cannot see it); the stand-in hands each call to the main process with the sender
 *   frame it knows from the DevTools protocol (never one the page names), and delivers replies and
 *   `webContents.send` messages back here;
 * - `contextBridge.exposeInMainWorld`: the exposed object goes to main-world.js as a description with function tokens.
 * Like Electron's sandboxed preloads, it runs in the top frame only (`nodeIntegrationInSubFrames: false`).
 * `__PRELOAD_BUNDLE__` is replaced with the bundle's text.
 */
(() => {
  if (window.top !== window) return;
  const M2P = '__skald_standin_m2p';
  const P2M = '__skald_standin_p2m';
  const toMain = globalThis.__skaldStandinIpc;
  delete globalThis.__skaldStandinIpc;
  const exposures = [];
  let nextPromise = 1;

  const send = (message) => window.dispatchEvent(new CustomEvent(P2M, { detail: JSON.stringify(message) }));
  const messageOf = (error) => String((error && error.message) || error);

  const { functions, encode, decode } = tokenCodec('p', (id, args) =>
    send({ t: 'callback', fn: id, args: encode(args) }),
  );

  window.addEventListener(M2P, (event) => {
    const message = JSON.parse(event.detail);
    if (message.t === 'hello') return exposures.forEach(send);
    if (message.t !== 'call') return;
    const fn = functions.get(message.fn);
    if (!fn) return send({ t: 'reply', kind: 'throw', message: 'Not a function the preload exposed.' });
    let result;
    try {
      result = fn(...decode(message.args));
    } catch (error) {
      return send({ t: 'reply', kind: 'throw', message: messageOf(error) });
    }
    if (result && typeof result.then === 'function') {
      const pid = nextPromise++;
      send({ t: 'reply', kind: 'promise', pid });
      result.then(
        (value) => send({ t: 'settle', pid, ok: true, value: encode(value) }),
        (error) => send({ t: 'settle', pid, ok: false, message: messageOf(error) }),
      );
    } else send({ t: 'reply', kind: 'value', value: encode(result) });
  });

  const invokes = new Map();
  const listeners = new Map();
  let nextInvoke = 1;
  const ipcRenderer = {
    invoke(channel, ...args) {
      const id = nextInvoke++;
      return new Promise((resolve, reject) => {
        invokes.set(id, { resolve, reject, channel });
        toMain(JSON.stringify({ t: 'invoke', id, channel, args }));
      });
    },
    on(channel, listener) {
      if (!listeners.has(channel)) listeners.set(channel, []);
      listeners.get(channel).push(listener);
      return ipcRenderer;
    },
    once(channel, listener) {
      const once = (...args) => {
        ipcRenderer.removeListener(channel, once);
        listener(...args);
      };
      return ipcRenderer.on(channel, once);
    },
    removeListener(channel, listener) {
      const list = listeners.get(channel) || [];
      const at = list.indexOf(listener);
      if (at >= 0) list.splice(at, 1);
      return ipcRenderer;
    },
  };
  ipcRenderer.off = ipcRenderer.removeListener;

  globalThis.__skaldStandinDeliver = (json) => {
    const message = JSON.parse(json);
    if (message.t === 'reply') {
      const pending = invokes.get(message.id);
      if (!pending) return;
      invokes.delete(message.id);
      if (message.ok) pending.resolve(message.value);
      else pending.reject(new Error(`Error invoking remote method '${pending.channel}': ${message.message}`));
    } else if (message.t === 'event') {
      for (const listener of [...(listeners.get(message.channel) || [])])
        listener({ sender: ipcRenderer }, ...message.args);
    }
  };

  const contextBridge = {
    exposeInMainWorld(key, api) {
      const message = { t: 'expose', key, value: encode(api) };
      exposures.push(message);
      send(message);
    },
  };
  const require = (name) => {
    if (name === 'electron') return { contextBridge, ipcRenderer };
    throw new Error(`module not found: ${name}`);
  };
  const module = { exports: {} };
  // eslint-disable-next-line no-unused-vars
  (function (require, module, exports) {
    __PRELOAD_BUNDLE__;
  })(require, module, module.exports);
})();
