/**
 * What the UI benches show: the text of a long session's answers, and a streamed reply of real Markdown.
 * - The session itself is bench/seed-session.ts (questions, assistant steps with finished tool cards, answers);
 *   its answers here are Markdown: paragraphs with bold and code spans, a list in every 5th, a fenced code block in
 *   every 8th, a heading and a table in every 20th. Each starts with `Answer <n>:` (and each question with
 *   `Question <n>:`), so the page can tell which one is on screen.
 * - The stream: tokens of 2–12 characters, each carrying its own marker `t<n>` so the page can tell the newest token
 *   on screen; between them paragraphs, headings, lists, bold, code spans, links, tables and fenced TypeScript.
 */

const WORDS = [
  'the',
  'config',
  'loader',
  'reads',
  'each',
  'file',
  'once',
  'and',
  'caches',
  'its',
  'parsed',
  'form',
  'so',
  'later',
  'calls',
  'are',
  'cheap',
];

function sentence(i: number, n: number): string {
  return Array.from({ length: n }, (_, k) => {
    const w = WORDS[(i * 7 + k * 3) % WORDS.length]!;
    return k % 9 === 4 ? `**${w}**` : k % 11 === 6 ? `\`${w}()\`` : w;
  }).join(' ');
}

function codeBlock(i: number): string {
  const lines = [`export function handler${i}(request: Request): Response {`];
  for (let k = 0; k < 6 + (i % 10); k++)
    lines.push(`  const value${k} = request.headers.get('x-${k}') ?? ${k}; // step ${k}`);
  lines.push('  return new Response(JSON.stringify({ ok: true }));', '}');
  return `\`\`\`ts\n${lines.join('\n')}\n\`\`\``;
}

/** The answer of step `i` (four messages a step), in Markdown. */
export function markdownAnswer(i: number): string {
  const parts = [`Answer ${i}: ${sentence(i, 20 + (i % 30))}.`];
  if (i % 20 === 1)
    parts.push(
      `## Findings for step ${i}`,
      '| file | lines | status |\n| --- | --- | --- |\n| src/a.ts | 120 | ok |\n| src/b.ts | 87 | changed |',
    );
  if (i % 5 === 3) parts.push(`- ${sentence(i + 1, 6)}\n- ${sentence(i + 2, 7)}\n- ${sentence(i + 3, 5)}`);
  if (i % 8 === 5) parts.push(codeBlock(i));
  if (i % 3 === 0) parts.push(sentence(i + 4, 25 + (i % 20)));
  return parts.join('\n\n');
}

/** The text of the newest message of a session of `messages` seeded with markdownAnswer (its last answer). */
export const newestMarker = (messages: number) => `Answer ${Math.floor(messages / 4) - 1}:`;
export const OLDEST_MARKER = 'Question 0:';

/**
 * Token `i` of a reply that is one code block, never closed while it streams (a whole file written out): an opening
 * fence, then `t<i>` words, ten to a line.
 */
export function codeStreamToken(i: number): string {
  return `${i === 0 ? '```ts\n' : ''}t${i}${i % 10 === 9 ? '\n' : ' '}`;
}

/** Token `i` of the streamed reply: always contains `t<i>`, often ends a block or starts a new one. */
export function streamToken(i: number): string {
  const phase = i % 600;
  if (phase === 0) return `\n\n## Section t${i}\n\n`;
  if (phase >= 300 && phase < 314) {
    // A fenced TypeScript block streamed line by line (its lines are tokens too).
    if (phase === 300) return `\n\n\`\`\`ts\n// block t${i}\n`;
    if (phase === 313) return `const t${i} = 'done';\n\`\`\`\n\n`;
    return `export const t${i}: number = ${i} * 2; // value\n`;
  }
  if (phase >= 400 && phase < 406) return `${phase === 400 ? '\n\n' : ''}- item t${i}\n${phase === 405 ? '\n' : ''}`;
  if (phase === 500) return `\n\n| t${i} | b |\n| --- | --- |\n| 1 | 2 |\n\n`;
  let t =
    i % 7 === 3
      ? `**t${i}** `
      : i % 11 === 5
        ? `\`t${i}\` `
        : i % 97 === 13
          ? `[t${i}](https://example.com/${i}) `
          : `t${i} `;
  if (i % 60 === 59) t += '\n\n';
  return t;
}

/**
 * Replies shaped to break a Markdown parser (docs/chat-ui.md "Markdown that is shown as plain text"), each starting
 * with `Hostile <n>:`. marked alone, in Node on the bench machine: a stack overflow; out of memory at 1 GB; 8.7 s;
 * 1.33 s; a stack overflow; 0.11 s.
 */
export const HOSTILE_REPLIES: readonly string[] = [
  `Hostile 0: twenty thousand nested quotes.\n\n${'>'.repeat(20_000)} the bottom`,
  `Hostile 1: quotes nesting to 400 levels.\n\n${Array.from({ length: 2_400 }, (_, i) => `${'>'.repeat((i % 400) + 1)} line ${i}`).join('\n')}`,
  `Hostile 2: ${'_a'.repeat(50_000)}`,
  `Hostile 3: a line with forty thousand spaces${' '.repeat(40_000)}in it`,
  `Hostile 4: ${'*'.repeat(5_000)}nested emphasis${'*'.repeat(5_000)}`,
  `Hostile 5: a token of 60 KB ${Array.from({ length: 60_000 }, (_, i) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[(i * 7919) % 64]).join('')}`,
];
