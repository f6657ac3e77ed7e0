/**
 * Monaco for the viewer, loaded lazily as its own chunk (the chat's first paint never waits for it). Only the
 * editor core, the read-only features the viewer uses (find, folding, go-to-line, bracket matching, the diff
 * editor) and the Monarch grammars are bundled; no language service workers. The one editor worker is a
 * bundled file of the app's origin (the CSP's `worker-src 'self'`), never a CDN or a blob built from a string.
 */
import * as monaco from 'monaco-editor/editor/editor.api.js';
import 'monaco-editor/features/find/register.js';
import 'monaco-editor/features/folding/register.js';
import 'monaco-editor/features/bracketMatching/register.js';
import 'monaco-editor/features/gotoLine/register.js';
import 'monaco-editor/features/diffEditor/register.js';
import 'monaco-editor/features/wordHighlighter/register.js';
import 'monaco-editor/features/clipboard/register.js';
import 'monaco-editor/features/contextmenu/register.js';
import 'monaco-editor/features/readOnlyMessage/register.js';
import 'monaco-editor/features/codicon/register.js';
import 'monaco-editor/basic-languages/monaco.contribution.js';
import EditorWorker from 'monaco-editor/editor/editor.worker.js?worker';

(self as unknown as { MonacoEnvironment: { getWorker: () => Worker } }).MonacoEnvironment = {
  getWorker: () => new EditorWorker(),
};

export { monaco };
