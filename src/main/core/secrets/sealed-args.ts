/**
 * Secret arguments of tool calls (docs/plugins.md, "Secret arguments"). A tool declares which of its arguments hold
 * secrets (`set_secret`'s `value`, a plugin's secret fields in `configure_plugin`'s `config`). The moment a call
 * arrives from the model — before its row is written — each of those strings is replaced by a sealed object
 * `{"$sealed": "<base64 of the cipher's output>"}`. Everything downstream (row, gate, hash, card, Inbox, events,
 * resume) carries only the sealed form; the plaintext is recovered only at the declared paths, right before the tool
 * runs. When the history is replayed to the model, sealed values read `[secret withheld]`.
 * A tool that may carry secrets but cannot name them all (a plugin name the registry does not know) declares every
 * field it cannot prove public (`unprovenPaths`); arguments of such a tool that are not one JSON object are kept
 * whole, sealed (`sealJson`), and the call fails without reading them.
 * Limits: the model itself produced the value, so its own provider saw it once; nothing of ours sends it again.
 * Numbers and booleans are not sealed: a secret is text.
 */
import { isSealedValue as isSealed, SEALED_KEY } from '../../../shared/sealed';
import { parseToolArguments } from '../../../shared/tool-arguments';
import type { SecretPaths } from '../tools/tool';
import { isContainer, unprovenPaths } from '../tools/secret-paths';
import type { SecretCipher } from './secret-cipher';

export { SEALED_KEY, unprovenPaths };
export const WITHHELD = '[secret withheld]';

/** Where the secret strings of one call's arguments are: declared by the tool (tools/tool.ts). */
export type { SecretPaths };

export interface OpenedArgs {
  /** The arguments with their secret values in plain text: for normalizing, never to store or show. */
  plain: Record<string, unknown>;
  /**
   * Seals the secret paths of `args` again (after normalizing), reusing the original ciphertext for an unchanged
   * value, so the sealed form — and the hash over it — is the same on every pass (live call, resume, approval).
   */
  reseal(args: Record<string, unknown>): Record<string, unknown>;
}

export interface SealedArgs {
  /** Seals the strings at `paths` inside a call's JSON arguments; text that is not a JSON object is left as it is. */
  sealJson(json: string, paths: SecretPaths | undefined): string;
  /** Opens the sealed values at `paths` of stored arguments. Throws on a value it cannot open. */
  open(args: Record<string, unknown>, paths: SecretPaths | undefined): OpenedArgs;
  /** The arguments with the values at `paths` opened again, for the tool to run with. Throws on a value it cannot open. */
  unseal(args: Record<string, unknown>, paths: SecretPaths | undefined): Record<string, unknown>;
  /**
   * Each sealed value at `paths`, opened, with where it sits: for the person's explicit reveal on an approval card
   * (docs/plugins.md "Revealing a secret argument"), never stored, logged or sent in an event. Throws on a value it
   * cannot open.
   */
  reveal(args: Record<string, unknown>, paths: SecretPaths): RevealedValue[];
}

/** One opened secret argument: its path of keys in the call's arguments and its plain text. */
export interface RevealedValue {
  path: string[];
  value: string;
}

const hasKey = (v: Record<string, unknown> | unknown[], key: string): boolean =>
  Array.isArray(v) ? /^(0|[1-9]\d*)$/.test(key) && Number(key) < v.length : Object.hasOwn(v, key);

/** The value at `path` inside `root`, or undefined. */
function valueAt(root: Record<string, unknown>, path: readonly string[]): unknown {
  let at: unknown = root;
  for (const key of path) {
    if (!isContainer(at) || !hasKey(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** A copy of `root` with `fn` applied to the value at `path` (when the parents exist and are objects or arrays). */
function mapAt<T extends Record<string, unknown> | unknown[]>(
  root: T,
  path: readonly string[],
  fn: (value: unknown) => unknown,
): T {
  const [head, ...rest] = path;
  if (head === undefined || !hasKey(root, head)) return root;
  const child = (root as Record<string, unknown>)[head];
  const next = rest.length === 0 ? fn(child) : isContainer(child) ? mapAt(child, rest, fn) : child;
  if (Array.isArray(root)) return root.map((v, i) => (i === Number(head) ? next : v)) as T;
  return { ...root, [head]: next };
}

/**
 * `reseal` of arguments without secret paths: one function for every such call, not a new one per call (each costs
 * a call's waited-on path a little: docs/performance.md "What keeps the waited-on paths fast").
 */
const unchanged = (args: Record<string, unknown>): Record<string, unknown> => args;

export function createSealedArgs(cipher: SecretCipher): SealedArgs {
  return {
    sealJson(json, paths) {
      if (!paths) return json;
      const parsed = parseToolArguments(json);
      // Text that is not one JSON object cannot show where its secret is: it is kept only sealed, whole. The call then
      // fails (`isSealedWhole`) with a sentence that quotes none of it.
      if (!parsed.ok) return JSON.stringify({ [SEALED_KEY]: cipher.encrypt(json).toString('base64') });
      let out = parsed.args;
      for (const path of paths(out)) {
        out = mapAt(out, path, (v) =>
          typeof v === 'string' && v !== '' ? { [SEALED_KEY]: cipher.encrypt(v).toString('base64') } : v,
        );
      }
      return JSON.stringify(out);
    },
    open(args, paths) {
      if (!paths) return { plain: args, reseal: unchanged };
      const known = new Map<string, string>(); // plaintext → the ciphertext it came from
      let plain = args;
      for (const path of paths(args)) {
        plain = mapAt(plain, path, (v) => {
          if (!isSealed(v)) return v;
          const text = cipher.decrypt(Buffer.from(v[SEALED_KEY], 'base64'));
          known.set(text, v[SEALED_KEY]);
          return text;
        });
      }
      return {
        plain,
        reseal(next) {
          let out = next;
          for (const path of paths(next)) {
            out = mapAt(out, path, (v) =>
              typeof v === 'string' && v !== ''
                ? { [SEALED_KEY]: known.get(v) ?? cipher.encrypt(v).toString('base64') }
                : v,
            );
          }
          return out;
        },
      };
    },
    unseal(args, paths) {
      if (!paths) return args;
      let out = args;
      for (const path of paths(args))
        out = mapAt(out, path, (v) => (isSealed(v) ? cipher.decrypt(Buffer.from(v[SEALED_KEY], 'base64')) : v));
      return out;
    },
    reveal(args, paths) {
      return paths(args).flatMap((path) => {
        const v = valueAt(args, path);
        return isSealed(v) ? [{ path: [...path], value: cipher.decrypt(Buffer.from(v[SEALED_KEY], 'base64')) }] : [];
      });
    },
  };
}

/** Arguments that are one sealed value: text of a tool that may carry secrets, which was not one JSON object. */
export const isSealedWhole = (args: Record<string, unknown>): boolean => isSealed(args);

/** What the model reads for such a call: never the text itself (a parser's message may quote it). */
export const SEALED_WHOLE_TEXT =
  "The arguments are not one JSON object, and this tool's arguments may hold a secret: they were stored sealed and not read. Send them again as one JSON object.";

/** Sealed values replaced by `[secret withheld]` anywhere in a JSON text (what the model and logs may see). */
export function withholdSealed(json: string): string {
  if (!json.includes(SEALED_KEY)) return json;
  try {
    return JSON.stringify(JSON.parse(json, (_key, value: unknown) => (isSealed(value) ? WITHHELD : value)));
  } catch {
    return json;
  }
}

/** The sealing of one session's calls, by tool name (the session's tool-call path uses only this). */
export interface CallSecrets {
  seal(toolName: string, json: string): string;
  open(toolName: string, args: Record<string, unknown>): OpenedArgs;
  unseal(toolName: string, args: Record<string, unknown>): Record<string, unknown>;
  /** The opened secret arguments of a stored call; null when the tool declares none (nothing to reveal). */
  reveal(toolName: string, args: Record<string, unknown>): RevealedValue[] | null;
}

export function callSecrets(sealed: SealedArgs, pathsOf: (toolName: string) => SecretPaths | undefined): CallSecrets {
  return {
    seal: (name, json) => sealed.sealJson(json, pathsOf(name)),
    open: (name, args) => sealed.open(args, pathsOf(name)),
    unseal: (name, args) => sealed.unseal(args, pathsOf(name)),
    reveal: (name, args) => {
      const paths = pathsOf(name);
      return paths ? sealed.reveal(args, paths) : null;
    },
  };
}

/** For sessions built without a cipher (benchmarks, tests of other parts): no tool has secret arguments. */
export const NO_CALL_SECRETS: CallSecrets = {
  seal: (_name, json) => json,
  open: (_name, args) => ({ plain: args, reseal: unchanged }),
  unseal: (_name, args) => args,
  reveal: () => null,
};
