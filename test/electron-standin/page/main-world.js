/*
 * The page's side of the stand-in's contextBridge (docs/desktop.md "The desktop shape run end to end"). Runs in the
 * page's main world before the page's own scripts. The preload runs in an isolated world (preload-world.js); the two
 * worlds share the DOM but no JavaScript objects, so what the preload exposes arrives here as a description in which
 * every function is a token, and each call goes back as a synchronous DOM event that the preload world answers
 * before dispatchEvent returns, as contextBridge's calls are synchronous. Values are copied (JSON), functions are
 * proxied both ways, a thrown error keeps only its message, a promise settles later: contextBridge's rules.
 * The exposed object is frozen and its window property can be neither written nor deleted (token-codec.js: how
 * values and functions cross).
 * A page script can send the same events, but they reach only the functions the preload exposed: the same power as
 * calling window.skald.
 */
(() => {
  if (window.top !== window) return;
  const M2P = '__skald_standin_m2p';
  const P2M = '__skald_standin_p2m';
  const dispatch = EventTarget.prototype.dispatchEvent.bind(window);
  const Event_ = CustomEvent;
  const { parse, stringify } = JSON;
  const defineProperty = Object.defineProperty;
  const exposedKeys = new Set();
  const promises = new Map();
  let reply = null;

  const send = (message) => dispatch(new Event_(M2P, { detail: stringify(message) }));

  const { functions: ourFunctions, encode, decode } = tokenCodec('m', (id, args) => call(id, args));

  const freeze = (value) => {
    if (value && typeof value === 'object') {
      Object.values(value).forEach(freeze);
      Object.freeze(value);
    }
    return value;
  };

  function call(id, args) {
    reply = null;
    send({ t: 'call', fn: id, args: encode(args) });
    const answer = reply;
    reply = null;
    if (!answer) throw new Error('The preload did not answer.');
    if (answer.kind === 'throw') throw new Error(answer.message);
    if (answer.kind === 'promise')
      return new Promise((resolve, reject) => promises.set(answer.pid, { resolve, reject }));
    return decode(answer.value);
  }

  window.addEventListener(P2M, (event) => {
    const message = parse(event.detail);
    if (message.t === 'reply') reply = message;
    else if (message.t === 'settle') {
      const pending = promises.get(message.pid);
      if (!pending) return;
      promises.delete(message.pid);
      if (message.ok) pending.resolve(decode(message.value));
      else pending.reject(new Error(message.message));
    } else if (message.t === 'callback') {
      const fn = ourFunctions.get(message.fn);
      if (fn) fn(...decode(message.args));
    } else if (message.t === 'expose' && !exposedKeys.has(message.key)) {
      exposedKeys.add(message.key);
      defineProperty(window, message.key, {
        value: freeze(decode(message.value)),
        enumerable: true,
        writable: false,
        configurable: false,
      });
    }
  });
  send({ t: 'hello' });
})();
