/**
 * The chat's Markdown sanitizer (src/renderer/src/lib/markdown.ts) on its own, in real Chromium, with no CSP: each
 * vector is rendered into a live page and a local "remote" server records every request it receives. The
 * sanitizer passes only if nothing reaches that server on render, and a remote image loads only after a click.
 * The module is bundled with esbuild exactly as it is (no stand-in), so this is a unit test in a real browser.
 */
import { build } from 'esbuild';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';

let server: Server;
let remote: string;
const hits: string[] = [];
let bundle: string;

test.beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': req.url?.endsWith('.css') ? 'text/css' : 'image/png' });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  remote = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const out = await build({
    stdin: {
      contents:
        "import { renderMarkdown, renderMarkdownFragment, sanitizeHtml } from './src/renderer/src/lib/markdown'; Object.assign(window, { renderMarkdown, renderMarkdownFragment, sanitizeHtml });",
      resolveDir: process.cwd(),
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    logLevel: 'error',
  });
  bundle = out.outputFiles[0]!.text;
});

test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Every way we know for HTML in a message to fetch something on render. `R` is the remote origin. */
const vectors: Record<string, (R: string) => string> = {
  'img src': (R) => `<img src="${R}/img">`,
  'markdown image': (R) => `![pixel](${R}/md-img)`,
  'reference image': (R) => `![pixel][p]\n\n[p]: ${R}/ref-img`,
  'img srcset': (R) => `<img src="data:image/png;base64,iVBORw0KGgo=" srcset="${R}/srcset 1x, ${R}/srcset2 2x">`,
  'img srcset only': (R) => `<img srcset="${R}/srcset-only">`,
  'picture source': (R) =>
    `<picture><source srcset="${R}/picture-source"><img src="data:image/png;base64,iVBORw0KGgo="></picture>`,
  'picture source media': (R) =>
    `<picture><source media="(min-width: 1px)" srcset="${R}/picture-media" type="image/png"></picture>`,
  'video poster': (R) => `<video poster="${R}/poster"></video>`,
  'video src': (R) => `<video src="${R}/video" autoplay></video>`,
  'video source': (R) => `<video autoplay><source src="${R}/video-source"></video>`,
  'video track': (R) => `<video><track src="${R}/track" default></video>`,
  'audio src': (R) => `<audio src="${R}/audio" autoplay></audio>`,
  'audio source': (R) => `<audio autoplay><source src="${R}/audio-source"></audio>`,
  'input type=image': (R) => `<input type="image" src="${R}/input-image">`,
  'table background': (R) => `<table background="${R}/table-bg"><tr><td>x</td></tr></table>`,
  'td background': (R) => `<table><tr><td background="${R}/td-bg">x</td></tr></table>`,
  'body background': (R) => `<body background="${R}/body-bg">x</body>`,
  'div background': (R) => `<div background="${R}/div-bg">x</div>`,
  'svg image href': (R) => `<svg><image href="${R}/svg-image"></image></svg>`,
  'svg image xlink:href': (R) =>
    `<svg xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="${R}/svg-xlink"></image></svg>`,
  'svg use': (R) => `<svg><use href="${R}/svg-use#x"></use></svg>`,
  'svg feImage': (R) =>
    `<svg><filter id="f"><feImage href="${R}/feimage"/></filter><rect filter="url(#f)" width="9" height="9"/></svg>`,
  'svg style url': (R) => `<svg><rect style="fill: url(${R}/svg-style)" width="9" height="9"/></svg>`,
  'style attribute url()': (R) => `<div style="background-image: url(${R}/style-attr)">x</div>`,
  'style attribute image-set': (R) => `<div style="background: image-set('${R}/image-set' 1x)">x</div>`,
  'style element': (R) => `<style>body { background: url(${R}/style-el) }</style>x`,
  'style @import': (R) => `<style>@import url(${R}/import.css);</style>x`,
  'link stylesheet': (R) => `<link rel="stylesheet" href="${R}/link.css">`,
  'link prefetch': (R) => `<link rel="prefetch" href="${R}/prefetch">`,
  'link preload': (R) => `<link rel="preload" as="image" href="${R}/preload">`,
  'meta refresh': (R) => `<meta http-equiv="refresh" content="0; url=${R}/refresh">`,
  'base href': (R) => `<base href="${R}/base/"><img src="relative.png">`,
  iframe: (R) => `<iframe src="${R}/iframe"></iframe>`,
  'iframe srcdoc': (R) => `<iframe srcdoc="<img src='${R}/srcdoc'>"></iframe>`,
  frame: (R) => `<frameset><frame src="${R}/frame"></frameset>`,
  object: (R) => `<object data="${R}/object"></object>`,
  embed: (R) => `<embed src="${R}/embed">`,
  'image element': (R) => `<image src="${R}/image-el">`,
  'img lowsrc/dynsrc': (R) => `<img lowsrc="${R}/lowsrc" dynsrc="${R}/dynsrc">`,
  'input src': (R) => `<input src="${R}/input-src">`,
  'form action (autofocus)': (R) => `<form action="${R}/form"><button autofocus>x</button></form>`,
  'img protocol-relative': (R) => `<img src="${R.replace('http:', '')}/proto-relative">`,
  'img data svg with remote': (R) =>
    `<img src="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'><image href='${R}/data-svg'/></svg>">`,
  'math href': (R) => `<math><mi href="${R}/math">x</mi></math>`,
  'noscript img': (R) => `<noscript><img src="${R}/noscript"></noscript>`,
  'template img': (R) => `<template><img src="${R}/template"></template>`,
  'a ping': (R) => `<a href="https://example.com" ping="${R}/ping">x</a>`,
  'object in markdown link': (R) => `[x](${R}/link-only) <object data="${R}/object2"></object>`,
  'script src': (R) => `<script src="${R}/script.js"></script>`,
  'img onerror fetch': (R) => `<img src=x onerror="fetch('${R}/onerror')">`,
  'nested picture in table': (R) => `| a |\n|---|\n| <picture><source srcset="${R}/table-picture"></picture> |`,
};

test.describe('the Markdown sanitizer, without any CSP', () => {
  test('no vector fetches anything on render', async ({ page }) => {
    await page.setContent('<!doctype html><html><body><div id="out"></div></body></html>');
    await page.addScriptTag({ content: bundle });
    const leaked: Record<string, string[]> = {};
    for (const [name, vector] of Object.entries(vectors)) {
      hits.length = 0;
      const html = await page.evaluate((md) => {
        const w = window as unknown as { renderMarkdown: (t: string) => string };
        const out = document.getElementById('out')!;
        out.innerHTML = w.renderMarkdown(md);
        return out.innerHTML;
      }, vector(remote));
      // Long enough for the browser to start any fetch the DOM asked for (images, media, styles, frames).
      await page.waitForTimeout(150);
      if (hits.length) leaked[name] = [...hits];
      expect(html, name).not.toMatch(
        /<(video|audio|source|picture|svg|iframe|object|embed|link|meta|base|style|input|form|script)\b/i,
      );
      expect(html, name).not.toMatch(/\s(srcset|background|poster|ping|style|lowsrc|dynsrc)=/i);
    }
    expect(leaked).toEqual({});
  });

  test('every vector in text shown as plain text (nested past the bound) stays text, as nodes and as HTML', async ({
    page,
  }) => {
    await page.setContent('<!doctype html><html><body><div id="out"></div></body></html>');
    await page.addScriptTag({ content: bundle });
    const text = `${Object.values(vectors)
      .map((vector) => vector(remote))
      .join('\n')}\n${'>'.repeat(40)} deep`;
    for (const form of ['nodes', 'html'] as const) {
      hits.length = 0;
      const shown = await page.evaluate(
        ({ text, form }) => {
          const w = window as unknown as {
            renderMarkdown: (t: string) => string;
            renderMarkdownFragment: (t: string) => DocumentFragment;
          };
          const out = document.getElementById('out')!;
          if (form === 'nodes') out.replaceChildren(w.renderMarkdownFragment(text));
          else out.innerHTML = w.renderMarkdown(text);
          return {
            note: out.querySelector('.md-plain-note')?.textContent,
            text: out.querySelector('.md-plain')?.textContent,
            elements: [...out.querySelectorAll('*')].map((e) => e.className || e.tagName),
          };
        },
        { text, form },
      );
      await page.waitForTimeout(150);
      expect(hits, form).toEqual([]);
      expect(shown.note, form).toMatch(/more than 32 levels deep/);
      expect(shown.text, form).toBe(text);
      expect(new Set(shown.elements), form).toEqual(new Set(['md-plain-note', 'md-plain', 'md-plain-chunk']));
    }
  });

  test('a remote image becomes a placeholder and loads only when clicked', async ({ page }) => {
    await page.setContent('<!doctype html><html><body><div id="out"></div></body></html>');
    await page.addScriptTag({ content: bundle });
    hits.length = 0;
    await page.evaluate((md) => {
      const w = window as unknown as { renderMarkdown: (t: string) => string };
      const out = document.getElementById('out')!;
      out.innerHTML = w.renderMarkdown(md);
      // The chat's click handler (Markdown.tsx) does the same: the placeholder's URL becomes an image.
      out.addEventListener('click', (e) => {
        const p = (e.target as HTMLElement).closest('[data-remote-src]');
        if (!p) return;
        const img = document.createElement('img');
        img.src = p.getAttribute('data-remote-src')!;
        p.replaceWith(img);
      });
    }, `Look: ![a chart](${remote}/chart.png)`);
    await page.waitForTimeout(150);
    expect(hits).toEqual([]);
    const placeholder = page.locator('.remote-image');
    await expect(placeholder).toContainText('a chart');
    await expect(placeholder).toContainText('127.0.0.1');
    await placeholder.click();
    await expect.poll(() => hits).toEqual(['/chart.png']);
  });

  test('the model cannot forge a placeholder, and links are tamed', async ({ page }) => {
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ content: bundle });
    const html = await page.evaluate((R) => {
      const w = window as unknown as { renderMarkdown: (t: string) => string };
      return w.renderMarkdown(
        `<span data-remote-src="${R}/forged" class="remote-image">Click me</span> [web](https://example.com) [js](javascript:alert(1)) [file](file:///etc/passwd) [mail](mailto:a@b.c) [top](#top) ![ok](data:image/png;base64,iVBORw0KGgo=)`,
      );
    }, remote);
    expect(html).not.toContain('data-remote-src');
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">web</a>');
    expect(html).not.toMatch(/javascript:|file:/);
    expect(html).toContain('href="mailto:a@b.c"');
    expect(html).toContain('href="#top"');
    expect(html).toContain('<img src="data:image/png;base64,iVBORw0KGgo=" alt="ok">');
  });
});
