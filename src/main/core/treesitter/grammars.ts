/**
 * One loader for tree-sitter grammars (web-tree-sitter + the `.wasm` files the per-language npm packages ship),
 * shared by the outline tool and the shell-aware approval rules. The runtime is initialised once per thread, on first
 * use or by `core.start()` (its JavaScript and, once compiled, its instance; never a grammar: docs/shell-analysis.md
 * "Cold start"), and each grammar is loaded once, lazily, then cached. Limit: a language without an installable
 * grammar package has no entry here (callers fall back to text). `prefetchGrammar` starts compiling a grammar's
 * WebAssembly and the runtime's, every function, off the main thread before they are needed; the load then only
 * instantiates what is compiled, without yielding to the event loop once both modules are compiled
 * (docs/shell-analysis.md "Cold start").
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import type { Language, Parser } from 'web-tree-sitter';

const require = createRequire(import.meta.url);

/** Grammar id → `package/file.wasm`, resolved through node_modules so it works from source and from the bundle. */
export const GRAMMAR_WASM = {
  python: 'tree-sitter-python/tree-sitter-python.wasm',
  javascript: 'tree-sitter-javascript/tree-sitter-javascript.wasm',
  typescript: 'tree-sitter-typescript/tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-typescript/tree-sitter-tsx.wasm',
  go: 'tree-sitter-go/tree-sitter-go.wasm',
  java: 'tree-sitter-java/tree-sitter-java.wasm',
  c: 'tree-sitter-c/tree-sitter-c.wasm',
  cpp: 'tree-sitter-cpp/tree-sitter-cpp.wasm',
  lua: '@tree-sitter-grammars/tree-sitter-lua/tree-sitter-lua.wasm',
  ruby: 'tree-sitter-ruby/tree-sitter-ruby.wasm',
  bash: 'tree-sitter-bash/tree-sitter-bash.wasm',
  elixir: 'tree-sitter-elixir/tree-sitter-elixir.wasm',
  json: 'tree-sitter-json/tree-sitter-json.wasm',
  yaml: '@tree-sitter-grammars/tree-sitter-yaml/tree-sitter-yaml.wasm',
  html: 'tree-sitter-html/tree-sitter-html.wasm',
  css: 'tree-sitter-css/tree-sitter-css.wasm',
  // The spec's Rust outline used `syn`, which has no TS equivalent; tree-sitter-rust ships a wasm that loads here.
  rust: 'tree-sitter-rust/tree-sitter-rust.wasm',
} as const;
// Not here, on purpose: swift (its npm package downloads a binary at install time, unavailable offline), kotlin,
// toml, markdown, sql (a text outline instead, docs/tools.md). `get_ast_outline` uses a text outline for those.

export type GrammarId = keyof typeof GRAMMAR_WASM;

type TreeSitter = typeof import('web-tree-sitter');
let runtime: Promise<TreeSitter> | undefined;
const languages = new Map<GrammarId, Promise<Language>>();

const RUNTIME_WASM = 'web-tree-sitter/web-tree-sitter.wasm';
/** Compiled modules by package path: read and compiled by V8 off the main thread (`WebAssembly.compile`). */
const compiled = new Map<string, Promise<WebAssembly.Module>>();
/** The same modules once their compile has settled: usable at once, without a turn of the event loop. */
const inHand = new Map<string, WebAssembly.Module>();
/** Eager compiles under way: V8's lazy compilation is off while there is one (`compileEagerly`). */
let eagerCompiles = 0;

/**
 * Compiles every function now, on V8's background threads, instead of on its first call on the main thread (V8
 * compiles WebAssembly lazily by default, and the bash grammar's lexer and parse functions are large: compiled
 * lazily, the first command the grammar reads paid about 20 ms for them; docs/shell-analysis.md "Cold start").
 * The flag is process-wide and read when the compile job starts its functions, so it stays off until the compile
 * settles, then lazy compilation is back for every other module (the outline's grammars in their threads).
 */
function compileEagerly(bytes: Uint8Array<ArrayBuffer>): Promise<WebAssembly.Module> {
  if (eagerCompiles++ === 0) setFlagsFromString('--no-wasm-lazy-compilation');
  const done = WebAssembly.compile(bytes);
  const settle = () => {
    if (--eagerCompiles === 0) setFlagsFromString('--wasm-lazy-compilation');
  };
  done.then(settle, settle);
  return done;
}

/**
 * Reads the file at once (a megabyte or two from the page cache) and starts its compile: read with fs/promises, the
 * bytes came in chunks, each waiting for a turn of a main thread still busy building the core, and the compile
 * started late. A missing file is a rejected promise, like a failed compile.
 */
function compileNow(path: string, eager: boolean): Promise<WebAssembly.Module> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = readFileSync(require.resolve(path));
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  return eager ? compileEagerly(bytes) : WebAssembly.compile(bytes);
}

function compileWasm(path: string, eager = false): Promise<WebAssembly.Module> {
  let pending = compiled.get(path);
  if (!pending) {
    pending = compileNow(path, eager);
    // A failed compile must not poison the cache forever: the next caller retries.
    pending.then(
      (module) => inHand.set(path, module),
      () => compiled.delete(path),
    );
    compiled.set(path, pending);
  }
  return pending;
}

/**
 * Starts compiling this grammar's WebAssembly and the runtime's now, every function of both, on V8's background
 * threads (the runtime's too: compiled lazily on the main thread, the 60-odd functions a first parse calls cost it
 * 9-12 ms); errors surface at the load. For a grammar needed soon at full speed: the shell gate's bash.
 *
 * Resolves after one turn of the event loop (a millisecond): V8's compile has a step that runs on the main thread's
 * event loop once the bytes are decoded, and only then do the background threads start. A caller about to hold the
 * main thread (the core's creation: opening the database blocks it on the disk for tens of milliseconds) awaits this
 * first, so the compile runs meanwhile instead of after (docs/shell-analysis.md "Cold start").
 */
export function prefetchGrammar(id: GrammarId): Promise<void> {
  compileWasm(GRAMMAR_WASM[id], true).catch(() => undefined);
  compileWasm(RUNTIME_WASM, true).catch(() => undefined);
  return new Promise((resolve) => setTimeout(resolve, 1));
}

/**
 * The runtime's JavaScript: web-tree-sitter's CommonJS build, loaded with `require`, which is synchronous. Its ES build
 * came through Node's ES-module loader, which reads the file on the thread pool and evaluates it turns later: a
 * command waiting for the grammar then also waited for whatever else ran in those turns (docs/shell-analysis.md
 * "Cold start"). Only this build is ever loaded, so there is one runtime per thread.
 */
function runtimeScript(): TreeSitter {
  return require('web-tree-sitter') as TreeSitter;
}

/**
 * Starts the runtime now, on this thread, as far as it can go without waiting (`core.start()`): its JavaScript (a
 * few milliseconds) and, when its compile has settled, its instance and Emscripten's linking (about 6 ms more), so a
 * command the grammar must read at once waits only for the grammar's own load (docs/shell-analysis.md "Cold start").
 * No grammar is loaded and nothing is parsed (a parse starts V8's optimizing compile of the code it runs).
 */
export function preloadRuntime(): void {
  runtimeScript();
  if (inHand.has(RUNTIME_WASM)) initRuntime().catch(() => undefined); // a failure is the first load's to report
}

/** Settles once the runtime's compile has (for a caller that must know `preloadRuntime` will find it in hand). */
export function runtimeCompiled(): Promise<unknown> {
  return compileWasm(RUNTIME_WASM).catch(() => undefined);
}

/**
 * The runtime's start from its compiled module: its instance is made at once (that work is done before this returns;
 * only Emscripten's last steps and `Parser.init`'s own wait for microtasks, a fraction of a millisecond).
 */
function startRuntime(module: WebAssembly.Module): Promise<TreeSitter> {
  const ts = runtimeScript();
  // The runtime instantiated from the compiled module (an instantiation error rejects the init).
  return ts.Parser.init({
    instantiateWasm: (
      imports: WebAssembly.Imports,
      done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
    ) => done(new WebAssembly.Instance(module, imports), module),
  }).then(() => ts);
}

function initRuntime(): Promise<TreeSitter> {
  if (!runtime) {
    // Once the compiled module is in hand, nothing here yields to the event loop: the script is required, and the
    // runtime's start only chains promises. A module already settled starts now, not a microtask later.
    const module = inHand.get(RUNTIME_WASM);
    try {
      runtime = module ? startRuntime(module) : compileWasm(RUNTIME_WASM).then(startRuntime);
    } catch (error) {
      runtime = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    // A failed start must not poison the cache forever: the next caller retries.
    runtime.catch(() => (runtime = undefined));
  }
  return runtime;
}

export function loadLanguage(id: GrammarId): Promise<Language> {
  let pending = languages.get(id);
  if (!pending) {
    pending = Promise.all([initRuntime(), compileWasm(GRAMMAR_WASM[id])]).then(([ts, module]) =>
      ts.Language.loadSync(module),
    );
    // A failed load must not poison the cache forever: the next caller retries.
    pending.catch(() => languages.delete(id));
    languages.set(id, pending);
  }
  return pending;
}

/** A fresh parser for one grammar. Parsers are cheap; languages are the expensive part and are cached. */
export async function createParser(id: GrammarId): Promise<Parser> {
  const language = await loadLanguage(id);
  const parser = new (await initRuntime()).Parser();
  parser.setLanguage(language);
  return parser;
}
