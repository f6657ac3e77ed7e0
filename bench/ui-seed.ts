/**
 * What the UI benches show: a long session that looks like real agent work, and a streamed reply of real Markdown.
 * - The session: user questions; assistant replies in Markdown (paragraphs with bold and code spans, lists, a fenced
 *   code block in every 8th reply, a heading and a table in every 20th); every 4th reply with finished tool cards
 *   (read_file, execute_cmd, grep_files, with their results). Each message starts with `Message <n>:`, so the page
 *   can tell which one is on screen.
 * - The stream: tokens of 2–12 characters, each carrying its own marker `t<n>` so the page can tell the newest token
 *   on screen; between them paragraphs, headings, lists, bold, code spans, links, tables and fenced TypeScript.
 */
import type { Core } from '../src/main/core/index';
import { SessionStore } from '../src/main/core/session/session-store';

const WORDS = ['the', 'config', 'loader', 'reads', 'each', 'file', 'once', 'and', 'caches', 'its', 'parsed', 'form', 'so', 'later', 'calls', 'are', 'cheap'];

function sentence(i: number, n: number): string {
  return Array.from({ length: n }, (_, k) => {
    const w = WORDS[(i * 7 + k * 3) % WORDS.length]!;
    return k % 9 === 4 ? `**${w}**` : k % 11 === 6 ? `\`${w}()\`` : w;
  }).join(' ');
}

function codeBlock(i: number): string {
  const lines = [`export function handler${i}(request: Request): Response {`];
  for (let k = 0; k < 6 + (i % 10); k++) lines.push(`  const value${k} = request.headers.get('x-${k}') ?? ${k}; // step ${k}`);
  lines.push('  return new Response(JSON.stringify({ ok: true }));', '}');
  return `\`\`\`ts\n${lines.join('\n')}\n\`\`\``;
}

export function userText(i: number): string {
  return `Message ${i}: ${sentence(i, 8 + (i % 13))}?`;
}

export function assistantText(i: number): string {
  const parts = [`Message ${i}: ${sentence(i, 20 + (i % 30))}.`];
  if (i % 20 === 1) parts.push(`## Findings for step ${i}`, '| file | lines | status |\n| --- | --- | --- |\n| src/a.ts | 120 | ok |\n| src/b.ts | 87 | changed |');
  if (i % 5 === 3) parts.push(`- ${sentence(i + 1, 6)}\n- ${sentence(i + 2, 7)}\n- ${sentence(i + 3, 5)}`);
  if (i % 8 === 5) parts.push(codeBlock(i));
  if (i % 3 === 0) parts.push(sentence(i + 4, 25 + (i % 20)));
  return parts.join('\n\n');
}

const TOOLS = [
  (i: number) => ({ name: 'read_file', arguments: JSON.stringify({ path: `src/module-${i % 97}.ts` }), result: Array.from({ length: 12 }, (_, k) => `${k + 1}\texport const v${k} = ${k};`).join('\n') }),
  (i: number) => ({ name: 'execute_cmd', arguments: JSON.stringify({ command: `npm test -- module-${i % 97}` }), result: `PASS src/module-${i % 97}.test.ts\n  ✓ loads (3 ms)\n  ✓ caches (1 ms)\n\nTests: 2 passed` }),
  (i: number) => ({ name: 'grep_files', arguments: JSON.stringify({ pattern: `handler${i % 50}` }), result: `src/a.ts:${i % 300}:export function handler${i % 50}(` }),
];

/** Seeds a session of `count` messages (alternating user / assistant) with tool cards; returns its id. */
export function seedLongSession(core: Core, title: string, count: number): number {
  const store = new SessionStore(core.db);
  const sessionId = store.createSession(title);
  core.db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const isUser = i % 2 === 0;
      const messageId = store.appendMessage({ sessionId, role: isUser ? 'user' : 'assistant', content: isUser ? userText(i) : assistantText(i) });
      if (!isUser && i % 8 === 3) {
        const calls = [TOOLS[i % 3]!(i), TOOLS[(i + 1) % 3]!(i)].map((c, k) => ({ ...c, id: `seed-${i}-${k}` }));
        store.insertRoundTools(sessionId, messageId, calls);
        for (const c of calls) store.finishTool(c.id, 'done', c.result);
      }
    }
  })();
  return sessionId;
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
  let t = i % 7 === 3 ? `**t${i}** ` : i % 11 === 5 ? `\`t${i}\` ` : i % 97 === 13 ? `[t${i}](https://example.com/${i}) ` : `t${i} `;
  if (i % 60 === 59) t += '\n\n';
  return t;
}
