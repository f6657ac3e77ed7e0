/**
 * oxc's parse through its raw transfer (docs/outline.md "Why oxc for TypeScript and JavaScript"): the native parser
 * writes its AST into a buffer shared with JavaScript, and oxc's generated deserializer reads it into the same ESTree
 * objects as `parseSync`'s JSON. Through JSON, making the string on the native side, handing it over and `JSON.parse`
 * were about four fifths of an outline's time.
 *
 * oxc's own entry to it (`experimentalRawTransfer`) refuses Node before 22 by its version number, because there no
 * typed array can span the whole 6 GiB buffer (the parser's 2 GiB block must sit at a 4 GiB-aligned address inside
 * it). Node 20 allocates the buffer and makes views of it below 4 GiB, and the native side needs only those: the
 * block's offset is asked with a one-byte view. So this module sets the buffer up itself, as oxc's
 * `raw-transfer/common.js` does, and runs on every Node the app supports (20.19 for the tests and the bench,
 * Electron's 22). The buffer's pages are only committed where the parser writes.
 *
 * Limits: it uses oxc-parser's exported internals (`src-js/bindings`, `generated/constants`, the deserializers),
 * which change with its version (package.json holds it to 0.159.x). When any of it cannot be set up here,
 * `parseRaw` returns null and the caller parses through JSON.
 */
import { createRequire } from 'node:module';
import { isMainThread } from 'node:worker_threads';
import type { ParserOptions } from 'oxc-parser';

const require = createRequire(import.meta.url);

/** What the outline reads of a parse (the deserializer also gives comments and the module record). */
export interface RawParse {
  program: { body: unknown[] };
  errors: { severity: string; message: string; labels: { start: number }[] }[];
}

interface Binding {
  getBufferOffset(buffer: Uint8Array): number;
  parseRawSync(
    filename: string,
    block: Uint8Array,
    sourceStart: number,
    sourceByteLen: number,
    options: ParserOptions,
  ): void;
}

interface Constants {
  BLOCK_SIZE: number;
  BLOCK_ALIGN: number;
  BUFFER_SIZE: number;
  ACTIVE_SIZE: number;
  IS_TS_FLAG_POS: number;
}

type Deserialize = (buffer: Uint8Array, sourceText: string, sourceStart: number, sourceByteLen: number) => RawParse;

interface Runtime {
  binding: Binding;
  constants: Constants;
  deserializers: Partial<Record<'js' | 'ts', Deserialize>>;
}

/**
 * The main thread parses only the small slices an edit reparses (`outline-service.ts`, under 64 K characters: JSON
 * costs under 3 ms there), or every file when no worker can start. It takes the JSON path below this size, so that an
 * edit never pays for the buffer's first allocation (about 20 ms) and loading the deserializer (about 25 ms).
 */
const MAIN_THREAD_MIN_CHARS = 64 * 1024;
/**
 * Setting raw transfer up costs about 45 ms once per thread (allocating the buffer makes V8 collect garbage, and a
 * deserializer is a large module to load), more than JSON costs for a text under this size. Such a text goes through
 * JSON while the setup is not done, and the setup follows once the thread is free, so that the first outline of a
 * small file in a fresh worker (the pool ends idle ones) is not slower than before.
 */
const SETUP_NOW_MIN_CHARS = 256 * 1024;
/**
 * On the main thread, let go of the buffer after this long without a parse (its written pages stay committed while it
 * is held). A worker keeps it: the pool ends idle workers (`outline-pool.ts`), and the buffer with them.
 */
const IDLE_MS = 10_000;
/** The native side reads the source as UTF-8 from the buffer's end; a UTF-16 unit takes at most 3 bytes. */
const MAX_UTF8_PER_CHAR = 3;

let runtime: Runtime | null | undefined;
let held: { buffer: Uint8Array; int32: Int32Array; float64: Float64Array; block: Uint8Array } | null = null;
let idleTimer: NodeJS.Timeout | undefined;
const encoder = new TextEncoder();

function setUp(): Runtime | null {
  if (runtime !== undefined) return runtime;
  try {
    const binding = require('oxc-parser/src-js/bindings') as Partial<Binding>;
    const constants = require('oxc-parser/src-js/generated/constants') as Constants;
    runtime =
      typeof binding.parseRawSync === 'function' && typeof binding.getBufferOffset === 'function'
        ? { binding: binding as Binding, constants, deserializers: {} }
        : null;
  } catch {
    runtime = null; // no native binding, or a runtime that cannot load these modules: JSON it is
  }
  return runtime;
}

/** The buffer as oxc's deserializers expect it: a Uint8Array over the block's region, with int32/float64 views. */
function bufferOf(rt: Runtime): NonNullable<typeof held> {
  if (held) return held;
  const { BLOCK_SIZE, BLOCK_ALIGN, BUFFER_SIZE } = rt.constants;
  const whole = new ArrayBuffer(BLOCK_SIZE + BLOCK_ALIGN);
  const offset = rt.binding.getBufferOffset(new Uint8Array(whole, 0, 1));
  const buffer = new Uint8Array(whole, offset, BUFFER_SIZE);
  const int32 = new Int32Array(whole, offset, BUFFER_SIZE / 4);
  const float64 = new Float64Array(whole, offset, BUFFER_SIZE / 8);
  Object.assign(buffer, { int32, float64 });
  held = { buffer, int32, float64, block: new Uint8Array(whole, offset, BLOCK_SIZE) };
  return held;
}

function deserializerOf(rt: Runtime, kind: AstKind): Deserialize {
  let d = rt.deserializers[kind];
  if (!d) {
    d = (require(`oxc-parser/src-js/generated/deserialize/${kind}`) as { deserialize: Deserialize }).deserialize;
    rt.deserializers[kind] = d;
  }
  return d;
}

type AstKind = 'js' | 'ts';

/** The AST a parse gives (`astType` left to its default): JavaScript's for `js`/`jsx`, TypeScript's for the rest. */
function astKindOf(options: ParserOptions): AstKind {
  return options.lang === 'js' || options.lang === 'jsx' ? 'js' : 'ts';
}

/** The runtime and its buffer, made now if they are not; null (and JSON from then on) when they cannot be. */
function ready(): { rt: Runtime; parts: NonNullable<typeof held> } | null {
  const rt = setUp();
  if (!rt) return null;
  try {
    return { rt, parts: bufferOf(rt) };
  } catch {
    runtime = null; // the buffer cannot be made here (address space, a runtime without big ArrayBuffers)
    return null;
  }
}

function isReady(kind: AstKind): boolean {
  return held !== null && !!runtime?.deserializers[kind];
}

let isPreparing = false;

/** Sets raw transfer up for `kind` once the thread's current work is done (see SETUP_NOW_MIN_CHARS). */
function prepareSoon(kind: AstKind): void {
  if (isPreparing) return;
  isPreparing = true;
  setImmediate(() => {
    isPreparing = false;
    const now = ready();
    if (!now) return;
    try {
      deserializerOf(now.rt, kind);
    } catch {
      runtime = null;
      held = null;
      return;
    }
    armIdleTimer();
  });
}

function armIdleTimer(): void {
  clearTimeout(idleTimer);
  if (!isMainThread) return;
  idleTimer = setTimeout(() => (held = null), IDLE_MS);
  idleTimer.unref();
}

/** The ESTree of `text` as `parseSync` gives it; null when raw transfer does not run here (the caller uses JSON). */
export function parseRaw(filename: string, text: string, options: ParserOptions): RawParse | null {
  if (isMainThread && text.length < MAIN_THREAD_MIN_CHARS) return null;
  const kind = astKindOf(options);
  if (!isReady(kind) && text.length < SETUP_NOW_MIN_CHARS) {
    if (runtime !== null) prepareSoon(kind);
    return null;
  }
  const now = ready();
  if (!now) return null;
  const { rt, parts } = now;
  clearTimeout(idleTimer);
  const maxBytes = text.length * MAX_UTF8_PER_CHAR;
  const sourceStart = rt.constants.ACTIVE_SIZE - maxBytes;
  const { read, written } = encoder.encodeInto(
    text,
    new Uint8Array(parts.buffer.buffer, parts.buffer.byteOffset + sourceStart, maxBytes),
  );
  if (read !== text.length) return null;
  let parsed: RawParse;
  try {
    rt.binding.parseRawSync(filename, parts.block, sourceStart, written, options);
    // The parser says which AST it wrote (it follows `lang`, as astKindOf expects).
    parsed = deserializerOf(rt, parts.buffer[rt.constants.IS_TS_FLAG_POS] === 0 ? 'js' : 'ts')(
      parts.buffer,
      text,
      sourceStart,
      written,
    );
  } catch {
    // Not a syntax error (those are in `errors`): raw transfer itself failed. JSON from now on, on this thread.
    runtime = null;
    held = null;
    return null;
  }
  armIdleTimer();
  return parsed;
}
