/**
 * Code-block highlighting with shiki, bundled with the app and loaded lazily (docs/chat-ui.md "Code highlighting"):
 * the core, the JavaScript regex engine (no WebAssembly), the two GitHub themes and each grammar are separate
 * chunks fetched from the app's own files the first time a code block needs them, never from a CDN, and never in
 * the first paint. Tokens are turned into DOM nodes with `textContent` and CSS variables, so no HTML string from
 * the highlighter is ever parsed. The light/dark colours follow the page's `color-scheme` (CSS `light-dark()`).
 * Limits: languages outside `GRAMMARS` stay plain text; a block over `MAX_CHARS` is not highlighted.
 */
import type { HighlighterCore, ThemedTokenWithVariants } from 'shiki/core';

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
  ts: 'typescript', mts: 'typescript', cts: 'typescript', js: 'javascript', mjs: 'javascript', cjs: 'javascript', sh: 'shellscript',
  bash: 'shellscript', zsh: 'shellscript', shell: 'shellscript', console: 'shellscript', py: 'python', rs: 'rust', golang: 'go',
  yml: 'yaml', md: 'markdown', htm: 'html', 'c++': 'cpp', hpp: 'cpp', h: 'c', jsonc: 'json',
};
export const MAX_CHARS = 100_000;

export function grammarOf(lang: string): string | null {
  const key = lang.trim().toLowerCase();
  const name = ALIASES[key] ?? key;
  return Object.prototype.hasOwnProperty.call(GRAMMARS, name) ? name : null;
}

let highlighter: Promise<HighlighterCore> | null = null;
const loaded = new Map<string, Promise<void>>();

function getHighlighter(): Promise<HighlighterCore> {
  highlighter ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }] = await Promise.all([import('shiki/core'), import('shiki/engine/javascript')]);
    return createHighlighterCore({
      themes: [import('shiki/themes/github-light.mjs'), import('shiki/themes/github-dark.mjs')],
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
export async function highlightTokens(code: string, lang: string): Promise<ThemedTokenWithVariants[][] | null> {
  const name = grammarOf(lang);
  if (!name || code.length > MAX_CHARS) return null;
  const h = await getHighlighter();
  await ensureGrammar(h, name);
  return h.codeToTokensWithThemes(code, { lang: name, themes: { light: 'github-light', dark: 'github-dark' } });
}

/** Replaces the text of a `<code>` element with coloured spans (text nodes only; no HTML is parsed). */
export function paintTokens(code: HTMLElement, lines: ThemedTokenWithVariants[][]): void {
  const doc = code.ownerDocument;
  const out = doc.createDocumentFragment();
  lines.forEach((line, i) => {
    for (const token of line) {
      const span = doc.createElement('span');
      span.textContent = token.content;
      const light = token.variants.light?.color;
      const dark = token.variants.dark?.color;
      if (light) span.style.setProperty('--hl-light', light);
      if (dark) span.style.setProperty('--hl-dark', dark);
      out.appendChild(span);
    }
    if (i < lines.length - 1) out.appendChild(doc.createTextNode('\n'));
  });
  code.replaceChildren(out);
  code.classList.add('highlighted');
}

/** Highlights every not-yet-highlighted fenced block under `root` whose language is bundled. */
export async function highlightWithin(root: HTMLElement): Promise<void> {
  const blocks = [...root.querySelectorAll<HTMLElement>('pre > code[class*="language-"]:not(.highlighted)')];
  for (const code of blocks) {
    const lang = /language-([\w+#.-]+)/.exec(code.className)?.[1] ?? '';
    const text = code.textContent ?? '';
    const lines = await highlightTokens(text, lang).catch(() => null);
    // The element may have been replaced or re-rendered meanwhile; paint only what still shows the same text.
    if (lines && code.isConnected && code.textContent === text) paintTokens(code, lines);
  }
}
