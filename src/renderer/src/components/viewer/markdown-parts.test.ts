import { describe, expect, it } from 'vitest';
import { atxHeading, findHeading, headingText, MarkdownScanner, splitMarkdown } from './markdown-parts';

const section = (i: number) =>
  `## Section ${i}\n\nSome **bold** text and a list:\n\n- one\n- two\n\n| a | b |\n|---|---|\n| ${i} | x |\n`;

describe('splitMarkdown', () => {
  it('keeps a small document whole', () => {
    const { parts, headings, isComplete } = splitMarkdown('# Title\n\nText.\n\n## Next\n');
    expect(parts).toEqual(['# Title\n\nText.\n\n## Next\n']);
    expect(headings.map((h) => [h.id, h.level, h.part, h.index])).toEqual([
      ['md-title', 1, 0, 0],
      ['md-next', 2, 0, 1],
    ]);
    expect(isComplete).toBe(true);
  });

  it('cuts a large document before headings, and the parts put together are the document', () => {
    const text = Array.from({ length: 400 }, (_, i) => section(i)).join('\n');
    const { parts, heights, headings } = splitMarkdown(text, 2048);
    expect(parts.length).toBeGreaterThan(15);
    expect(parts.join('')).toBe(text);
    expect(heights).toHaveLength(parts.length);
    // Each cut is before a heading, or before a block at the margin that follows a blank line.
    parts
      .slice(1)
      .forEach((part, i) =>
        expect(part.startsWith('## Section') || (/^\S/.test(part) && parts[i]!.endsWith('\n\n'))).toBe(true),
      );
    expect(headings).toHaveLength(400);
    // Every heading sits in the part that holds its text, at its index there.
    for (const h of headings)
      expect(parts[h.part]!.split('\n').filter((l) => l.startsWith('## '))[h.index]).toBe(`## ${h.text}`);
  });

  it('never cuts inside a code fence or an HTML block that holds blank lines', () => {
    const fence = '```md\n# not a heading\n\n\n## nor this\n```\n';
    const comment = '<!--\n\n# hidden\n\n-->\n';
    const text = `${'word '.repeat(500)}\n\n${fence}\n${comment}\n# Real\n\nend\n`;
    const { parts, headings } = splitMarkdown(text, 100);
    expect(parts.join('')).toBe(text);
    expect(parts.some((p) => p.includes(fence))).toBe(true);
    expect(parts.some((p) => p.includes(comment))).toBe(true);
    expect(headings.map((h) => h.text)).toEqual(['Real']);
  });

  it('does not cut before a line that continues the block above (indented, or a setext underline)', () => {
    const text = `${'a '.repeat(200)}\n\n    indented code\n\nTitle\n=====\n\nmore\n`;
    const { parts, headings } = splitMarkdown(text, 10);
    expect(parts.every((p) => !p.startsWith('    ') && !p.startsWith('='))).toBe(true);
    expect(headings).toEqual([expect.objectContaining({ level: 1, text: 'Title' })]);
  });

  it('outlines setext headings under a paragraph only, and gives repeated headings their own ids', () => {
    const { headings } = splitMarkdown('Intro\n-----\n\n- item\n---\n\n## Intro\n\n## Intro\n');
    expect(headings.map((h) => h.id)).toEqual(['md-intro', 'md-intro-2', 'md-intro-3']);
    expect(findHeading(headings, 'intro-2')?.index).toBe(1);
    expect(findHeading(headings, 'md-intro-3')?.index).toBe(2);
    expect(findHeading(headings, 'Intro')?.id).toBe('md-intro');
  });

  it('appends the reference definitions to every part, so a reference link works in any part', () => {
    const text = `[ref]: https://example.com/\n\n${Array.from({ length: 50 }, (_, i) => section(i)).join('\n')}\nSee [the site][ref].\n`;
    const { parts } = splitMarkdown(text, 1024);
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) expect(part.endsWith('\n\n[ref]: https://example.com/\n')).toBe(true);
  });

  it('heading text leaves out inline markup, links and tags', () => {
    expect(headingText('The **bold** [link](x.md) <em>tag</em> `code`')).toBe('The bold link tag code');
  });
});

describe('MarkdownScanner', () => {
  it('reads a slice at a time and ends with the same parts as one pass', () => {
    const text = Array.from({ length: 2000 }, (_, i) => section(i)).join('\n');
    const scanner = new MarkdownScanner(text, 4096);
    let stops = 0;
    expect(scanner.scan(() => scanner.partCount >= 1)).toBe(false);
    const first = scanner.result();
    expect(first.isComplete).toBe(false);
    expect(first.parts).toHaveLength(1);
    while (!scanner.scan(() => ++stops % 3 === 0));
    expect(stops).toBeGreaterThan(3);
    const whole = scanner.result();
    expect(whole).toEqual(splitMarkdown(text, 4096));
    expect(whole.parts[0]).toBe(first.parts[0]);
  });
});

describe('headings from hostile lines', () => {
  it('reads ATX headings as CommonMark does: level, text, closing #s only after a space', () => {
    expect(atxHeading('# Title')).toEqual({ level: 1, source: 'Title' });
    expect(atxHeading('  ### Title ###   ')).toEqual({ level: 3, source: 'Title' });
    expect(atxHeading('## C# and F#')).toEqual({ level: 2, source: 'C# and F#' });
    expect(atxHeading('## a ##b')).toEqual({ level: 2, source: 'a ##b' });
    expect(atxHeading('### ###')).toEqual({ level: 3, source: '' });
    expect(atxHeading('#')).toEqual({ level: 1, source: '' });
    expect(atxHeading('#\tTabbed')).toEqual({ level: 1, source: 'Tabbed' });
    for (const no of ['#Title', '####### seven', '    # indented code', 'text # not'])
      expect(atxHeading(no)).toBeNull();
  });

  // Each of these held the page for about a minute before (a pattern, or the clean-up, growing with the square of the
  // line); the test's own timeout would stop them.
  it('a heading line of 200,000 spaces, and headings full of "![", "[" and "<", outline at once', () => {
    const spaces = `# a${' '.repeat(200_000)}x`;
    expect(atxHeading(spaces)?.source).toBe(`a${' '.repeat(200_000)}x`);
    const text = `${spaces}\n\n# ${'!['.repeat(100_000)}\n\n## ${'['.repeat(200_000)}\n\n### ${'<'.repeat(200_000)}\n\nTitle\n${'='.repeat(10)}\n`;
    const { headings } = splitMarkdown(text);
    expect(headings.map((h) => [h.level, h.text.length <= 1000])).toEqual([
      [1, true],
      [1, true],
      [2, true],
      [3, true],
      [1, true],
    ]);
    expect(headings.at(-1)!.text).toBe('Title');
    expect(headingText('x'.repeat(5000))).toHaveLength(1000);
  });
});
