/**
 * The shapes that would overflow marked's stack, take a gigabyte or seconds are found, each with its reason; ordinary
 * Markdown, long and nested within reason, is not (docs/chat-ui.md "Markdown that is shown as plain text").
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_DELIMITER_RUN, MAX_INDENT_COLUMNS, MAX_NESTING, markdownHazard } from './markdown-hazards';

const lines = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i)).join('\n');

describe('markdownHazard', () => {
  it('finds nesting past the bound, by quotes, bullets, numbers or indentation', () => {
    expect(markdownHazard(`${'>'.repeat(20_000)} x`)).toMatch(/more than 32 levels/);
    expect(markdownHazard(lines(2400, (i) => `${'>'.repeat((i % 400) + 1)} x`))).toMatch(/levels/);
    expect(markdownHazard(`intro\n\n${'> '.repeat(MAX_NESTING + 1)}x`)).toMatch(/levels/);
    expect(markdownHazard(`${'- '.repeat(MAX_NESTING + 1)}x`)).toMatch(/levels/);
    expect(markdownHazard(`${'1. '.repeat(MAX_NESTING + 1)}x`)).toMatch(/levels/);
    expect(markdownHazard(`> - > 2) * + ${'>'.repeat(MAX_NESTING)} x`)).toMatch(/levels/);
    expect(markdownHazard(lines(300, (i) => `${'  '.repeat(i)}- x`))).toMatch(/indented more than 256 columns/);
    expect(markdownHazard(`${'\t'.repeat(MAX_INDENT_COLUMNS / 4 + 1)}x`)).toMatch(/indented/);
  });

  it('finds a run of delimiters past the bound, and words or runs of spaces that would take seconds', () => {
    expect(markdownHazard(`${'*'.repeat(5000)}a${'*'.repeat(5000)}`)).toMatch(/run of more than 256 "\*"/);
    expect(markdownHazard(`x ${'_'.repeat(MAX_DELIMITER_RUN + 1)}`)).toMatch(/"_"/);
    expect(markdownHazard('~'.repeat(MAX_DELIMITER_RUN + 1))).toMatch(/"~"/);
    expect(markdownHazard('_a'.repeat(20_000))).toMatch(/too slow to lay out as Markdown/);
    expect(markdownHazard('**a'.repeat(20_000))).toMatch(/too slow/);
    expect(markdownHazard(randomBytes(600_000).toString('base64url'))).toMatch(/too slow/);
    expect(markdownHazard(`# a${' '.repeat(40_000)}x`)).toMatch(/long runs of spaces, too slow/);
    expect(markdownHazard(`a${' '.repeat(2000)}`.repeat(100))).toMatch(/long runs of spaces, too slow/);
  });

  it('passes ordinary Markdown: long, nested within reason, full of underscores between spaces', () => {
    const ordinary = [
      lines(5000, (i) => `Line ${i} with *emphasis*, __strong__, \`code_with_underscores\` and snake_case_name_${i}.`),
      lines(20, (i) => `${'> '.repeat(i + 1)}quote level ${i + 1}`),
      lines(30, (i) => `${'  '.repeat(i)}- item ${i}`),
      `\`\`\`python\n${lines(2000, (i) => `${'    '.repeat(i % 12)}value_${i} = compute(a_${i}, b_${i}) * 2`)}\n\`\`\``,
      '| a | b |\n|---|---|\n' + lines(5000, (i) => `| ${i} | x_${i} |`),
      randomBytes(30_000).toString('base64url'),
      '***\n---\n___',
      lines(3000, (i) => `| ${String(i).padEnd(60)} | ${'padded cell'.padEnd(80)} |`),
      '*'.repeat(MAX_DELIMITER_RUN),
      `${'> '.repeat(MAX_NESTING)}deepest allowed`,
    ];
    for (const text of ordinary) expect(markdownHazard(text), text.slice(0, 80)).toBeNull();
    expect(markdownHazard('')).toBeNull();
  });
});
