// @vitest-environment jsdom
/**
 * The app's one Markdown renderer on text it must not parse (docs/chat-ui.md "Markdown that is shown as plain text"):
 * the reason, then the text itself, escaped, through the same sanitizer; ordinary Markdown as before. In jsdom.
 */
import { expect, it } from 'vitest';
import { renderMarkdown, renderMarkdownFragment } from './markdown';

it('text nested past the bound shows as plain text with the reason, every character kept', () => {
  const text = `Intro <b>bold</b> & "quotes"\n\n${'>'.repeat(20_000)} the bottom`;
  const box = document.createElement('div');
  box.innerHTML = renderMarkdown(text);
  expect(box.querySelector('.md-plain-note')?.textContent).toBe(
    'Shown as plain text: it nests quotes or lists more than 32 levels deep.',
  );
  expect(box.querySelector('.md-plain')?.textContent).toBe(text);
  expect(box.querySelector('b')).toBeNull();
});

it('a long text shows in chunks of 100 lines (layout skips those off screen), the text unbroken across them', () => {
  const text = Array.from({ length: 250 }, (_, i) => `${'>'.repeat((i % 40) + 1)} line ${i}`).join('\n');
  const fragment = renderMarkdownFragment(text);
  const chunks = [...fragment.querySelectorAll('.md-plain > .md-plain-chunk')];
  expect(chunks.map((c) => c.textContent!.split('\n').length)).toEqual([101, 101, 50]);
  expect(chunks.map((c) => c.textContent).join('')).toBe(text);
});

it('model HTML in such text stays text: nothing runs or loads', () => {
  const text = `<img src="https://evil.example/x.png" onerror="alert(1)"><script>alert(2)</script>${'_a'.repeat(30_000)}`;
  const fragment = renderMarkdownFragment(text);
  expect(fragment.querySelector('img, script')).toBeNull();
  expect(fragment.querySelector('.md-plain-note')?.textContent).toMatch(/long words full of "\*" or "_"/);
  expect(fragment.querySelector('.md-plain')?.textContent).toBe(text);
});

it('ordinary Markdown renders as Markdown', () => {
  const box = document.createElement('div');
  box.innerHTML = renderMarkdown('> a *quote*\n\n- item `code_x`');
  expect(box.querySelector('blockquote em')?.textContent).toBe('quote');
  expect(box.querySelector('li code')?.textContent).toBe('code_x');
  expect(box.querySelector('.md-plain')).toBeNull();
});

it('a line too long for one chunk is cut across chunks (never inside a surrogate pair), the text unbroken', () => {
  const line = `${'_a'.repeat(30_000)}😀${'_a'.repeat(20_000)}`;
  const text = `short line\n${line}\nlast`;
  const chunks = [...renderMarkdownFragment(text).querySelectorAll('.md-plain > .md-plain-chunk')];
  expect(chunks.length).toBeGreaterThan(10);
  expect(Math.max(...chunks.map((c) => c.textContent!.length))).toBeLessThanOrEqual(8 * 1024);
  expect(chunks[0]!.textContent).toBe('short line\n');
  for (const chunk of chunks) expect(chunk.textContent).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
  expect(chunks.map((c) => c.textContent).join('')).toBe(text);
});

it('plain text is text nodes only: HTML in it is escaped in the string form and never an element in the nodes', () => {
  const text = `<img src=x onerror="alert(1)"> & </span><b>\n${'>'.repeat(40)}`;
  const fragment = renderMarkdownFragment(text);
  const plain = fragment.querySelector('.md-plain')!;
  expect(
    [...plain.querySelectorAll('*')].every((e) => e.className === 'md-plain-chunk' && e.childElementCount === 0),
  ).toBe(true);
  const box = document.createElement('div');
  box.innerHTML = renderMarkdown(text);
  expect(box.querySelector('img, b')).toBeNull();
  expect(box.querySelector('.md-plain')?.textContent).toBe(text);
});
