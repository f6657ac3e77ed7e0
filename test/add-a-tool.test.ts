/**
 * Adding a tool is one file (docs/tools.md "One tool shape"): three tools written into a temporary file of their own,
 * handed to a real core, and nothing else changed. Each is offered to the model, gated by what it says it is (a read
 * of a file in the working directory runs, an edit asks unless the run context allows writing there, both are refused
 * outside the working directory, the rule groups `@fs_read` / `@fs_write` take them in, a tool allowed by default is
 * seeded as a rule the Security page lists), labelled by its own `describe`, and carded as its `card` says.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RunContextSchema } from '../src/shared/run-context';
import type { Tool } from '../src/main/core/tools/tool';
import { startHarness, type Harness } from './helpers/core-harness';
import { cleanupTempDirs } from './helpers/temp';

const repo = resolve(__dirname, '..');
// Inside the repository, so that the file resolves `zod` and is compiled like any source file.
const folder = mkdtempSync(join(repo, 'test', '.tmp-tool-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const TOOL_FILE = `
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { defineTool } from ${JSON.stringify(join(repo, 'src/main/core/tools/define-tool'))};

export const wordCountTool = defineTool({
  name: 'word_count',
  description: 'Count the words of a text file.',
  input: z.object({ path: z.string().min(1) }),
  kind: 'read',
  category: 'filesystem',
  describe: (a) => 'word_count \`' + a.path + '\`',
  targetPath: (a) => (typeof a.path === 'string' ? a.path : null),
  execute: (a) => readFileSync(a.path, 'utf8').split(/\\s+/).filter(Boolean).length + ' words',
});

export const stampFileTool = defineTool({
  name: 'stamp_file',
  description: 'Write a stamp into a file.',
  input: z.object({ path: z.string().min(1) }),
  kind: 'edit',
  category: 'filesystem',
  describe: (a) => 'stamp_file \`' + a.path + '\`',
  targetPath: (a) => (typeof a.path === 'string' ? a.path : null),
  execute: (a) => (writeFileSync(a.path, 'stamped'), 'stamped'),
});

export const sayHelloTool = defineTool({
  name: 'say_hello',
  description: 'Greet someone.',
  input: z.object({ name: z.string().min(1) }),
  kind: 'other',
  category: 'introspection',
  defaultDecision: 'allow',
  describe: (a) => 'say_hello to ' + a.name,
  execute: (a) => 'Hello, ' + a.name + '!',
});
`;

async function loadTools(): Promise<Tool[]> {
  const file = join(folder, 'my-tools.ts');
  writeFileSync(file, TOOL_FILE);
  const mod = (await import(file)) as Record<string, Tool>;
  return [mod.wordCountTool!, mod.stampFileTool!, mod.sayHelloTool!];
}

let h: Harness;
afterEach(async () => {
  await h?.close();
  cleanupTempDirs();
});

const toolNames = (body: Record<string, unknown>) =>
  ((body.tools as { function: { name: string } }[] | undefined) ?? []).map((t) => t.function.name);

describe('a tool added in a file of its own', () => {
  it('is offered, gated by its kind, labelled and carded, with no other file touched', async () => {
    h = await startHarness({
      extraTools: await loadTools(),
      turns: [
        {
          match: 'count please',
          toolCalls: [
            { name: 'word_count', arguments: { path: 'notes.txt' } },
            { name: 'say_hello', arguments: { name: 'Ada' } },
          ],
        },
        { match: 'count please', text: 'done' },
        { match: 'stamp please', toolCalls: [{ name: 'stamp_file', arguments: { path: 'notes.txt' } }] },
      ],
    });
    writeFileSync(join(h.workspace, 'notes.txt'), 'one two three');

    // Offered.
    const sessionId = await h.newSession();
    await h.sendAndSettle(sessionId, 'count please');
    expect(toolNames(h.llm.requests[0]!.body)).toEqual(
      expect.arrayContaining(['word_count', 'stamp_file', 'say_hello']),
    );

    // Labelled and carded: the history's cards, as the renderer gets them.
    const page = await h.call('chat:history', { sessionId });
    const cards = page.messages.flatMap((m) => m.tools ?? []);
    const count = cards.find((c) => c.name === 'word_count')!;
    expect(count).toMatchObject({
      status: 'done',
      result: '3 words',
      label_short: 'word_count `notes.txt`',
      path: 'notes.txt',
      display: 'none',
    });
    // A read inside the working directory: allowed by the run context's file fast path, as read_file is.
    expect(count.decision).toMatchObject({ action: 'allow', why: { kind: 'fast_path' } });
    const hello = cards.find((c) => c.name === 'say_hello')!;
    expect(hello).toMatchObject({ status: 'done', result: 'Hello, Ada!', label_short: 'say_hello to Ada' });
    // Allowed by default: seeded once as a rule the Security page lists and the person can change.
    expect(hello.decision).toMatchObject({ action: 'allow', why: { kind: 'rule' } });
    expect(h.core.approval.rules.listRules('default')).toEqual(
      expect.arrayContaining([expect.objectContaining({ tool_pattern: 'say_hello', action: 'allow', note: 'seeded' })]),
    );

    // Gated by its kind, like the built-in file tools.
    const gate = (toolName: string, path: string, runContext = {}) => {
      const n = h.core.tools.normalize(toolName, { path }, h.workspace);
      if (!n.ok) throw new Error(n.error);
      return h.core.approval.gate.check({
        sessionId: null,
        agentId: 'main',
        source: 'web',
        toolName,
        category: h.core.tools.categoryOf(toolName),
        args: n.args,
        runContext: { ...RunContextSchema.parse({}), ...runContext },
        workingDir: h.workspace,
      });
    };
    expect(gate('stamp_file', 'notes.txt').action).toBe('require');
    expect(gate('stamp_file', 'notes.txt', { allow_fs_writes: [h.workspace] })).toMatchObject({
      action: 'allow',
      why: { kind: 'fast_path' },
    });
    const outside = join(h.workspace, '..', 'elsewhere.txt');
    for (const name of ['word_count', 'stamp_file'])
      expect(gate(name, outside)).toMatchObject({ action: 'deny', why: { guard: 'outside_working_dir' } });
    mkdirSync(join(h.workspace, 'locked'));
    h.core.approval.rules.createRule({ tool_pattern: '@fs_write', path_pattern: 'locked/*', action: 'deny' });
    expect(gate('stamp_file', 'locked/a.txt').action).toBe('deny');
    expect(gate('word_count', 'locked/a.txt').action).toBe('allow');

    // An edit's card offers its diff: the card the renderer gets says so from the start, before anyone decides.
    await h.call('chat:send', { sessionId, content: 'stamp please' });
    const started = await h.waitForEvent('tool_start', (e) => e.name === 'stamp_file');
    expect(started).toMatchObject({ label_short: 'stamp_file `notes.txt`', path: 'notes.txt', display: 'diff' });
    await h.waitForEvent('approval_required', (e) => e.tool_call_id === started.tool_call_id);
    await h.call('chat:stop', { sessionId });
  });
});
