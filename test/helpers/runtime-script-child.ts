/**
 * Child for src/main/core/approval/shell-cold-start.test.ts, in a process of its own (a test worker's `require` cache
 * is shared with the test files it ran before): creates a core, then reports on one line of JSON whether
 * web-tree-sitter's CommonJS build was loaded before `core.start()`, after it, whether the runtime was started by
 * `start()` (its compile settled first) while the grammar stayed unloaded, and whether the bash parser the grammar
 * load makes comes from that build (so no second runtime, from the ES build, was loaded).
 * argv: <data dir>
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createCore } from '../../src/main/core/index';
import { createParser, runtimeCompiled } from '../../src/main/core/treesitter/grammars';

const require = createRequire(import.meta.url);
const script = require.resolve('web-tree-sitter');
const dataDir = process.argv[2]!;
const core = await createCore({ dataDir, workspaceDir: join(dataDir, 'workspace'), shape: 'web', version: 'test' });
const beforeStart = script in require.cache;
await runtimeCompiled();
core.start();
const afterStart = script in require.cache;
// The runtime's start finishes in microtasks; nothing but `start()` began it (the grammar's load has not begun).
await new Promise((resolve) => setImmediate(resolve));
const { Parser: Runtime } = require('web-tree-sitter') as typeof import('web-tree-sitter');
let runtimeStarted = true;
try {
  new Runtime().delete();
} catch {
  runtimeStarted = false;
}
const grammarUnloaded = core.approval.shell.needsGrammar('ls "a b"');
await core.approval.shell.whenLoaded();
const parser = await createParser('bash');
const { Parser } = require('web-tree-sitter') as typeof import('web-tree-sitter');
const fromScript = parser instanceof Parser;
const parsed = parser.parse('ls "a b" | head')?.rootNode.type ?? null;
process.stdout.write(
  `${JSON.stringify({ beforeStart, afterStart, runtimeStarted, grammarUnloaded, fromScript, parsed })}\n`,
);
await core.dispose();
