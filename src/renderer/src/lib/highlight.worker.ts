/**
 * The highlighting worker (lib/highlight.ts starts it on the first code block): shiki's core, the JavaScript regex
 * engine, two themes and one chunk per grammar, all bundled with the app and loaded here on demand, so compiling a
 * grammar or tokenizing a long block never blocks the page. Answers each request with the tokens' text and their
 * light and dark colours, nothing else (no HTML).
 */
/// <reference lib="webworker" />
import type { HighlighterCore } from 'shiki/core';

type Loader = () => Promise<{ default: unknown }>;

/** Each grammar its own chunk; aliases map onto the same loader. */
const GRAMMARS: Record<string, Loader> = {
  typescript: () => import('shiki/langs/typescript.mjs'),
  tsx: () => import('shiki/langs/tsx.mjs'),
  javascript: () => import('shiki/langs/javascript.mjs'),
  jsx: () => import('shiki/langs/jsx.mjs'),
  json: () => import('shiki/langs/json.mjs'),
  shellscript: () => import('shiki/langs/shellscript.mjs'),
  python: () => import('shiki/langs/python.mjs'),
  rust: () => import('shiki/langs/rust.mjs'),
  go: () => import('shiki/langs/go.mjs'),
  html: () => import('shiki/langs/html.mjs'),
  css: () => import('shiki/langs/css.mjs'),
  markdown: () => import('shiki/langs/markdown.mjs'),
  yaml: () => import('shiki/langs/yaml.mjs'),
  diff: () => import('shiki/langs/diff.mjs'),
  sql: () => import('shiki/langs/sql.mjs'),
  toml: () => import('shiki/langs/toml.mjs'),
  c: () => import('shiki/langs/c.mjs'),
  cpp: () => import('shiki/langs/cpp.mjs'),
  java: () => import('shiki/langs/java.mjs'),
};
const ALIASES: Record<string, string> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  sh: 'shellscript',
  bash: 'shellscript',
  zsh: 'shellscript',
  shell: 'shellscript',
  console: 'shellscript',
  py: 'python',
  rs: 'rust',
  golang: 'go',
  yml: 'yaml',
  md: 'markdown',
  htm: 'html',
  'c++': 'cpp',
  hpp: 'cpp',
  h: 'c',
  jsonc: 'json',
};
export const MAX_CHARS = 100_000;
/**
 * Lines longer than this stay plain. TextMate grammars rescan a line from each position: the TypeScript grammar took
 * 1.4 s on one identifier of 5,000 characters and 5.5 s on 10,000 (a base64 string in a shell script, 0.5 s at
 * 5,000), so one long line held the worker for minutes and every later block waited unhighlighted. At this bound a
 * whole block (MAX_CHARS) costs at most a few seconds in the worst grammar; shiki's own time limit per line does not
 * help, since the time goes inside single scans.
 */
export const MAX_TOKENIZED_LINE = 1_000;

function grammarOf(lang: string): string | null {
  const key = lang.trim().toLowerCase();
  const name = ALIASES[key] ?? key;
  return Object.prototype.hasOwnProperty.call(GRAMMARS, name) ? name : null;
}

let highlighter: Promise<HighlighterCore> | null = null;
const loaded = new Map<string, Promise<void>>();

function getHighlighter(): Promise<HighlighterCore> {
  highlighter ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }] = await Promise.all([
      import('shiki/core'),
      import('shiki/engine/javascript'),
    ]);
    return createHighlighterCore({
      // Every token colour of these two reads at 4.5:1 or more on the theme's code background (docs/ui.md
      // "Accessibility"); plain github-light's strings and keywords did not.
      themes: [import('shiki/themes/github-light-high-contrast.mjs'), import('shiki/themes/github-dark-default.mjs')],
      langs: [],
      engine: createJavaScriptRegexEngine(),
    });
  })();
  return highlighter;
}

async function ensureGrammar(h: HighlighterCore, name: string): Promise<void> {
  let p = loaded.get(name);
  if (!p) {
    p = GRAMMARS[name]!().then((m) => h.loadLanguage(m.default as Parameters<HighlighterCore['loadLanguage']>[0]));
    loaded.set(name, p);
  }
  await p;
}

/** Tokens of `code` with a light and a dark colour each; null when the language is not bundled. */
async function highlightTokens(code: string, lang: string): Promise<HighlightedLine[] | null> {
  const name = grammarOf(lang);
  if (!name || code.length > MAX_CHARS) return null;
  const h = await getHighlighter();
  await ensureGrammar(h, name);
  return h
    .codeToTokensWithThemes(code, {
      lang: name,
      themes: { light: 'github-light-high-contrast', dark: 'github-dark-default' },
      tokenizeMaxLineLength: MAX_TOKENIZED_LINE,
    })
    .map((line) =>
      line.map((t) => [t.content, t.variants.light?.color ?? '', t.variants.dark?.color ?? ''] as HighlightedToken),
    );
}

/** `[text, light colour, dark colour]` */
export type HighlightedToken = [string, string, string];
export type HighlightedLine = HighlightedToken[];
export interface HighlightRequest {
  id: number;
  code: string;
  lang: string;
}
export interface HighlightAnswer {
  id: number;
  lines: HighlightedLine[] | null;
}

self.onmessage = (event: MessageEvent<HighlightRequest>) => {
  const { id, code, lang } = event.data;
  highlightTokens(code, lang).then(
    (lines) => self.postMessage({ id, lines } satisfies HighlightAnswer),
    () => self.postMessage({ id, lines: null } satisfies HighlightAnswer),
  );
};
