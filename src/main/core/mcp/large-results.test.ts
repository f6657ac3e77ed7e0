/**
 * Results too long for the model (docs/mcp.md "Results"), through the real session path: the scripted LLM over
 * HTTP, the real gate and SQLite, and the oversized fixture server over stdio. A 1 MB answer reaches the model, the
 * row and the card as its first 100 KB plus where the whole is saved; the saved file holds all of it. Before, the
 * whole megabyte went into the next request (past most models' context) and into the chat's card.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';
import { grantForSession } from '../agents/group-registry';
import { MAX_RESULT_CHARS } from '../tools/mcp/results';
import { expectNoProcesses, node, OVERSIZED } from './test-kit';

let h: Harness | null = null;
const marker = `skald-mcp-large-${Math.random().toString(36).slice(2)}`;
afterEach(async () => {
  await h?.close();
  h = null;
  await expectNoProcesses(marker);
  cleanupTempDirs();
});

it('a 1 MB answer: the model, the row and the card get its first 100 KB and where the whole is saved', async () => {
  h = await startHarness({
    turns: [
      {
        toolCalls: [
          { name: 'mcp__big__big_text', arguments: { megabytes: 1 } },
          { name: 'mcp__big__deep_result', arguments: { levels: 3 } },
        ],
      },
      { text: 'read it' },
    ],
  });
  await h.call('mcp:save', { name: 'big', transport: 'stdio', command: node, args: [OVERSIZED, marker] });
  await h.core.mcp.manager.open('big');
  const sessionId = await h.newSession();
  grantForSession(h.core.db, sessionId, 'big');
  h.core.approval.rules.createRule({ tool_pattern: 'mcp__big__*', action: 'allow', priority: 1 });
  const events = await h.sendAndSettle(sessionId, 'go');

  const [big, small] = events.filter((e) => e.type === 'tool_done') as { result: string; result_type: string | null }[];
  expect(big!.result.length).toBeLessThan(MAX_RESULT_CHARS + 300);
  expect(big!.result.startsWith('y'.repeat(MAX_RESULT_CHARS))).toBe(true);
  const saved = /the whole result is saved to (\S+):/.exec(big!.result)![1]!;
  expect(saved).toMatch(/^mcp-output\/big\/big_text-\d+-result-[0-9a-f]{6}\.txt$/);
  expect(big!.result).toContain(`[result cut at ${MAX_RESULT_CHARS} of ${1024 * 1024} characters;`);
  expect(readFileSync(join(h.workspace, saved), 'utf8')).toBe('y'.repeat(1024 * 1024));
  // A small structured answer stays JSON.
  expect(small).toMatchObject({ result: '{"v":[[[]]]}', result_type: 'json' });

  const sent = JSON.stringify(h.llm.requests.at(-1)!.body);
  expect(sent.length).toBeLessThan(MAX_RESULT_CHARS + 50_000);
  expect(sent).toContain(saved);
  const row = h.core.db
    .prepare('SELECT length(result) AS n FROM chat_llm_tools WHERE name = ?')
    .get('mcp__big__big_text') as { n: number };
  expect(row.n).toBe(big!.result.length);
}, 60_000);
