/*
 * Shared by main-world.js and preload-world.js (the host wraps each with it): how values cross between the two worlds.
 * Values go as JSON; a function becomes a token `{ __fn: '<prefix><n>' }` kept in `functions` on its own side, and a
 * token from the other side becomes a function that calls `toRemote(id, args)`.
 */
// eslint-disable-next-line no-unused-vars
function tokenCodec(prefix, toRemote) {
  const functions = new Map();
  let next = 1;
  const encode = (value) => {
    if (typeof value === 'function') {
      const id = `${prefix}${next++}`;
      functions.set(id, value);
      return { __fn: id };
    }
    if (Array.isArray(value)) return value.map(encode);
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encode(v)]));
    return value;
  };
  const decode = (value) => {
    if (Array.isArray(value)) return value.map(decode);
    if (value && typeof value === 'object') {
      if (typeof value.__fn === 'string') {
        const id = value.__fn;
        return (...args) => toRemote(id, args);
      }
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decode(v)]));
    }
    return value;
  };
  return { functions, encode, decode };
}
