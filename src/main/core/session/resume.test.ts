/**
 * Crash and restart (checks R1, R2, R4, R5 in docs/security-checks.md): a real core in a child process is SIGKILLed
 * while a shell command runs; a new core on the same data folder finds the row `running`, shows it interrupted (a shell
 * call is side-effecting, so it waits for the person), re-runs it only when asked, and the turn then continues. A
 * call queued behind it never started: it is not called interrupted, and it runs after the re-run. A read killed as
 * its decision was committed without an fsync keeps that commit (docs/performance.md "Durability follows consequence").
 */
import { execSync, spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundleChild } from '../../../../test/helpers/bundle-child';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { startScriptedLlm, type ScriptedLlm } from '../../../../test/llm-server/index';

const root = join(__dirname, '../../../..');
let h: Harness | undefined;
let llm: ScriptedLlm | undefined;
// The crash child, bundled once: each start is then plain Node, not a whole core through tsx (test/helpers/bundle-child.ts).
let crashChild = '';
beforeAll(async () => {
  crashChild = await bundleChild('crash-child');
});
afterAll(() => rmSync(crashChild, { force: true }));
afterEach(async () => {
  await h?.close();
  await llm?.close();
  h = undefined;
  llm = undefined;
  cleanupTempDirs();
});

function runChildUntilTool(dataDir: string, workspace: string, baseUrl: string, mode = 'shell'): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [crashChild, dataDir, workspace, baseUrl, mode], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let toolCallId = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /tool-running (\S+)/.exec(out);
      if (m && !toolCallId) {
        toolCallId = m[1]!;
        child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL' && toolCallId ? resolve(toolCallId) : reject(new Error(`child ended early: ${out}`)),
    );
  });
}

describe('resume after a crash', () => {
  it('a killed shell call stays running on disk, shows interrupted, re-runs only on request, then the turn goes on', async () => {
    llm = await startScriptedLlm({
      turns: [{ toolCalls: [{ name: 'execute_cmd', arguments: { command: 'sleep 1; echo finished' } }] }],
    });
    const base = tempDir();
    const dataDir = join(base, 'data');
    const toolCallId = await runChildUntilTool(dataDir, join(base, 'ws'), llm.baseUrl);

    const raw = new Database(join(dataDir, 'skald.db'), { readonly: true });
    expect(raw.prepare('SELECT status FROM chat_llm_tools WHERE tool_call_id = ?').get(toolCallId)).toEqual({
      status: 'running',
    });
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    raw.close();

    h = await startHarness({ dataDir, turns: [{ text: 'resumed and finished' }] });
    const sessionId = (await h.call('chat:listSessions', {})).sessions[0]!.id;
    await h.waitForEvent('tool_interrupted', (e) => e.tool_call_id === toolCallId);
    await h.waitForEvent('turn_running', (e) => !e.running);
    const card = (await h.call('chat:history', { sessionId })).messages
      .flatMap((m) => m.tools)
      .find((t) => t.tool_call_id === toolCallId)!;
    expect(card).toMatchObject({ status: 'running', interrupted: true });
    expect(h.llm.requests).toHaveLength(0); // nothing re-ran and the model was not called on its own

    expect((await h.call('chat:rerunTool', { sessionId, toolCallId })).started).toBe(true);
    await h.waitForEvent('tool_done', (e) => e.tool_call_id === toolCallId);
    await h.waitForEvent('done');
    expect((await h.call('chat:history', { sessionId })).messages.at(-1)!.content).toBe('resumed and finished');
    expect(JSON.stringify(h.llm.requests[0]!.body)).toContain('finished');
  });

  it("an app crash right after an allowed read's unsynced commit loses none of it (answer, row, decision)", async () => {
    llm = await startScriptedLlm({
      turns: [{ text: 'Reading it.', toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] }],
    });
    const base = tempDir();
    const dataDir = join(base, 'data');
    const toolCallId = await runChildUntilTool(dataDir, join(base, 'ws'), llm.baseUrl, 'read-kill');

    const raw = new Database(join(dataDir, 'skald.db'), { readonly: true });
    const row = raw
      .prepare(
        'SELECT t.status, t.decision_id, m.content FROM chat_llm_tools t JOIN chat_history m ON m.id = t.message_id WHERE t.tool_call_id = ?',
      )
      .get(toolCallId);
    expect(row).toMatchObject({ status: 'running', content: 'Reading it.' });
    expect(
      raw.prepare('SELECT action FROM tool_decisions WHERE id = ?').get((row as { decision_id: number }).decision_id),
    ).toEqual({ action: 'allow' });
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    raw.close();
  });

  it('the model sees an interrupted call as interrupted; a new message moves on past it', async () => {
    llm = await startScriptedLlm({
      turns: [{ toolCalls: [{ name: 'execute_cmd', arguments: { command: 'sleep 23' } }] }],
    });
    const base = tempDir();
    const dataDir = join(base, 'data');
    const toolCallId = await runChildUntilTool(dataDir, join(base, 'ws'), llm.baseUrl);
    const sleeping = () =>
      execSync('ps -eo args')
        .toString()
        .split('\n')
        .filter((l) => l.trim() === 'sleep 23').length;
    expect(sleeping()).toBe(1); // the crashed core's command outlived it (its own process group)
    h = await startHarness({ dataDir, turns: [{ text: 'I will check the state first.' }] });
    expect(sleeping()).toBe(0); // R4: the next start ended the leftover
    await h.waitForEvent('tool_interrupted');
    await h.waitForEvent('turn_running', (e) => !e.running);
    const sessionId = (await h.call('chat:listSessions', {})).sessions[0]!.id;
    await h.sendAndSettle(sessionId, 'what happened?');
    const body = JSON.stringify(h.llm.requests[0]!.body);
    expect(body).toContain('Interrupted when the app stopped');
    const card = (await h.call('chat:history', { sessionId })).messages
      .flatMap((m) => m.tools)
      .find((t) => t.tool_call_id === toolCallId)!;
    expect(card.status).toBe('failed');
  });

  /** A round of a shell command (killed mid-run) and a write queued behind it: the write never started. */
  async function crashWithAQueuedCall() {
    llm = await startScriptedLlm({
      turns: [
        {
          toolCalls: [
            { name: 'execute_cmd', arguments: { command: 'sleep 1; echo finished' } },
            { name: 'write_file', arguments: { path: 'after.txt', content: 'A' } },
          ],
        },
      ],
    });
    const base = tempDir();
    const dataDir = join(base, 'data');
    const interrupted = await runChildUntilTool(dataDir, join(base, 'ws'), llm.baseUrl);
    const raw = new Database(join(dataDir, 'skald.db'), { readonly: true });
    const rows = raw.prepare('SELECT tool_call_id, name, status FROM chat_llm_tools ORDER BY id').all() as {
      tool_call_id: string;
      name: string;
      status: string;
    }[];
    raw.close();
    expect(rows.map((r) => [r.name, r.status])).toEqual([
      ['execute_cmd', 'running'],
      ['write_file', 'queued'],
    ]);
    return { dataDir, interrupted, queued: rows[1]!.tool_call_id };
  }

  it('a call queued behind an interrupted one never started: it is not called interrupted, waits, and runs after the re-run', async () => {
    const { dataDir, interrupted, queued } = await crashWithAQueuedCall();
    h = await startHarness({ dataDir, turns: [{ text: 'both done' }] });
    const sessionId = (await h.call('chat:listSessions', {})).sessions[0]!.id;
    await h.waitForEvent('tool_interrupted', (e) => e.tool_call_id === interrupted);
    await h.waitForEvent('turn_running', (e) => !e.running);
    expect(h.events.filter((e) => e.type === 'tool_interrupted').map((e) => e.tool_call_id)).toEqual([interrupted]);
    const cards = (await h.call('chat:history', { sessionId })).messages.flatMap((m) => m.tools);
    expect(cards.map((c) => [c.name, c.status, c.interrupted])).toEqual([
      ['execute_cmd', 'running', true],
      ['write_file', 'queued', false],
    ]);
    expect(existsSync(join(h.workspace, 'after.txt'))).toBe(false);

    // The re-run goes on with the call that waited behind it, through the gate (a write asks), then the turn.
    await h.call('chat:rerunTool', { sessionId, toolCallId: interrupted });
    await h.waitForEvent('tool_done', (e) => e.tool_call_id === interrupted);
    const asked = await h.waitForEvent('pending_write', (e) => e.tool_call_id === queued);
    await h.call('inbox:resolveApproval', {
      requestId: asked.request_id,
      action: 'approve',
      note: '',
      argsHash: asked.args_hash,
    });
    await h.waitForEvent('done');
    expect(readFileSync(join(h.workspace, 'after.txt'), 'utf8')).toBe('A');
    expect((await h.call('chat:history', { sessionId })).messages.flatMap((m) => m.tools).map((c) => c.status)).toEqual(
      ['done', 'done'],
    );
  });

  it('a new message moves on: the interrupted call fails, the one queued behind it ends cancelled, never started', async () => {
    const { dataDir, queued } = await crashWithAQueuedCall();
    h = await startHarness({ dataDir, turns: [{ text: 'moving on' }] });
    await h.waitForEvent('turn_running', (e) => !e.running);
    const sessionId = (await h.call('chat:listSessions', {})).sessions[0]!.id;
    await h.sendAndSettle(sessionId, 'forget it');
    expect((await h.call('chat:history', { sessionId })).messages.flatMap((m) => m.tools).map((c) => c.status)).toEqual(
      ['failed', 'cancelled'],
    );
    expect(h.events.find((e) => e.type === 'tool_cancelled' && e.tool_call_id === queued)).toMatchObject({
      note: expect.stringMatching(/^Not started/),
    });
    expect(JSON.stringify(h.llm.requests[0]!.body)).toContain('Not started');
    expect(existsSync(join(h.workspace, 'after.txt'))).toBe(false);
  });
});
