/**
 * The turn loop end to end against real things: the scripted LLM over HTTP with the real provider client, the
 * real tool registry on a temp workspace, the real gate and Inbox, real SQLite.
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';

let h: Harness;
afterEach(async () => {
  await h?.close();
  cleanupTempDirs();
});

const types = (events: { type: string }[]) => events.map((e) => e.type);

describe('turn loop', () => {
  it('a text-only turn: persisted and echoed first, streamed, done', async () => {
    h = await startHarness({ turns: [{ text: 'Hello there, person.' }] });
    const sessionId = await h.newSession();
    const events = await h.sendAndSettle(sessionId, 'hi');
    expect(events[0]).toMatchObject({ type: 'user_message', content: 'hi', queued: false });
    expect(types(events)).toContain('text_delta');
    const streamed = events
      .filter((e) => e.type === 'text_delta')
      .map((e) => (e as { delta: string }).delta)
      .join('');
    expect(streamed).toBe('Hello there, person.');
    expect(events.find((e) => e.type === 'done')).toMatchObject({ content: 'Hello there, person.' });
    const history = await h.call('chat:history', { sessionId });
    expect(history.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'hi'],
      ['assistant', 'Hello there, person.'],
    ]);
    expect(history.messages[1]!.output_tokens).toBeGreaterThan(0);
  });

  it('a read tool inside the workspace runs without asking; its result goes back to the model', async () => {
    h = await startHarness({
      turns: [{ toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] }, { text: 'It says hello.' }],
    });
    writeFileSync(join(h.workspace, 'notes.txt'), 'hello from the file\n');
    const sessionId = await h.newSession();
    const events = await h.sendAndSettle(sessionId, 'read notes.txt');
    const start = events.find((e) => e.type === 'tool_start')!;
    expect(start).toMatchObject({ name: 'read_file', path: expect.stringContaining('notes.txt') });
    expect(events.find((e) => e.type === 'tool_decision')).toMatchObject({ decision: { action: 'allow' } });
    expect(events.find((e) => e.type === 'tool_done')).toMatchObject({
      result: expect.stringContaining('hello from the file'),
    });
    const second = JSON.stringify(h.llm.requests[1]!.body);
    expect(second).toContain('hello from the file');
    expect(types(events)).not.toContain('approval_required');
  });

  it('a write asks; approved, it runs with exactly the arguments shown', async () => {
    h = await startHarness({
      turns: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'out/a.txt', content: 'A\n' } }] },
        { text: 'Written.' },
      ],
    });
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: 'write it' });
    const pending = await h.waitForEvent('pending_write');
    expect(pending.new_content).toBe('A\n');
    expect(existsSync(join(h.workspace, 'out/a.txt'))).toBe(false);
    const history = await h.call('chat:history', { sessionId });
    expect(history.messages.at(-1)!.tools[0]).toMatchObject({
      status: 'pending',
      pending: { request_id: pending.request_id },
    });
    await expect(
      h.call('inbox:resolveApproval', {
        requestId: pending.request_id,
        action: 'approve',
        note: '',
        argsHash: 'f'.repeat(64),
      }),
    ).rejects.toThrow(/argument|hash/i);
    await h.call('inbox:resolveApproval', {
      requestId: pending.request_id,
      action: 'approve',
      note: '',
      argsHash: pending.args_hash,
    });
    await h.waitForEvent('done');
    expect(readFileSync(join(h.workspace, 'out/a.txt'), 'utf8')).toBe('A\n');
    const card = (await h.call('chat:history', { sessionId })).messages.find((m) => m.tools.length)!.tools[0]!;
    expect(card).toMatchObject({ status: 'done', decision: { actor: 'user', action: 'allow' } });
    await expect(
      h.call('inbox:resolveApproval', {
        requestId: pending.request_id,
        action: 'approve',
        note: '',
        argsHash: pending.args_hash,
      }),
    ).rejects.toThrow();
  });

  it('a rejected write is not written; the model reads the reason; the turn goes on', async () => {
    h = await startHarness({
      turns: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'b.txt', content: 'B' } }] },
        { text: 'OK, not writing.' },
      ],
    });
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: 'write b' });
    const pending = await h.waitForEvent('pending_write');
    await h.call('inbox:resolveApproval', {
      requestId: pending.request_id,
      action: 'reject',
      note: 'not now',
      argsHash: pending.args_hash,
    });
    const rejected = await h.waitForEvent('tool_rejected');
    expect(rejected.reason).toBe('User rejected this tool call. Reason: not now');
    await h.waitForEvent('done');
    expect(existsSync(join(h.workspace, 'b.txt'))).toBe(false);
    expect(JSON.stringify(h.llm.requests[1]!.body)).toContain('User rejected this tool call. Reason: not now');
  });

  it('a bad tool argument is a result the model can read, not a crash', async () => {
    h = await startHarness({
      turns: [
        { toolCalls: [{ name: 'read_file', arguments: '{"path": ' }] },
        { toolCalls: [{ name: 'no_such_tool', arguments: {} }] },
        { text: 'Sorry.' },
      ],
    });
    const sessionId = await h.newSession();
    const events = await h.sendAndSettle(sessionId, 'go');
    const errors = events.filter((e) => e.type === 'tool_error').map((e) => (e as { error: string }).error);
    expect(errors[0]).toMatch(/not valid JSON/);
    expect(errors.length).toBe(2);
    expect(types(events)).toContain('done');
  });

  it('/stop mid-tool kills the command, ends the turn cancelled, and the next turn works', async () => {
    h = await startHarness({
      turns: [
        { toolCalls: [{ name: 'execute_cmd', arguments: { command: 'sleep 37 & sleep 37' } }] },
        { text: 'after stop' },
      ],
    });
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: 'run it' });
    const pending = await h.waitForEvent('pending_write');
    expect(pending.new_content).toBe('$ sleep 37 & sleep 37');
    await h.call('inbox:resolveApproval', {
      requestId: pending.request_id,
      action: 'approve',
      note: '',
      argsHash: pending.args_hash,
    });
    await h.waitForEvent('tool_decision', (e) => e.decision.actor === 'user');
    await new Promise((r) => setTimeout(r, 300));
    expect((await h.call('chat:stop', { sessionId })).stopped).toBe(true);
    await h.waitForEvent('tool_cancelled');
    await h.waitForEvent('cancelled');
    await h.waitForEvent('turn_running', (e) => !e.running);
    const card = (await h.call('chat:history', { sessionId })).messages.find((m) => m.tools.length)!.tools[0]!;
    expect(card.status).toBe('cancelled');
    // The whole process tree died, the backgrounded sleep too.
    await expect
      .poll(
        () =>
          execSync('ps -eo args')
            .toString()
            .split('\n')
            .filter((l) => l.trim() === 'sleep 37').length,
      )
      .toBe(0);
    const events = await h.sendAndSettle(sessionId, 'again');
    expect(events.find((e) => e.type === 'done')).toMatchObject({ content: 'after stop' });
  });

  it('a failing model falls back to the next one (500), and 400 does not', async () => {
    h = await startHarness({ models: 2, turns: [{ status: 500 }, { text: 'from the second model' }] });
    const sessionId = await h.newSession();
    const events = await h.sendAndSettle(sessionId, 'hi');
    expect(events.find((e) => e.type === 'model_fallback')).toBeTruthy();
    expect(events.find((e) => e.type === 'done')).toMatchObject({ content: 'from the second model' });
    h.llm.script([{ status: 400, errorMessage: 'bad request' }]);
    const failed = await h.sendAndSettle(sessionId, 'again');
    expect(types(failed)).not.toContain('model_fallback');
    // Said once, by the round's llm_failed (the turn does not repeat it as an error).
    expect(failed.filter((e) => e.type === 'llm_failed' || e.type === 'error')).toEqual([
      expect.objectContaining({ type: 'llm_failed', last_error: expect.stringContaining('bad request') }),
    ]);
  });

  it('slash commands are answered by the core and never reach the model', async () => {
    h = await startHarness();
    const sessionId = await h.newSession();
    for (const command of ['/help', '/models', '/cost', '/context', '/bogus']) {
      const events = await h.sendAndSettle(sessionId, command);
      expect(events.map((e) => e.type)).toEqual(['command_reply']);
    }
    expect(h.llm.requests).toHaveLength(0);
    const unknown = h.events.filter((e) => e.type === 'command_reply').at(-1) as { content: string };
    expect(unknown.content).toMatch(/Unknown command \/bogus[\s\S]*\/help/);
    const before = (await h.call('chat:listSessions', {})).sessions.length;
    await h.sendAndSettle(sessionId, '/new');
    expect((await h.call('chat:listSessions', {})).sessions.length).toBe(before + 1);
  });

  it('a message sent during a turn is queued and injected at the next round boundary', async () => {
    h = await startHarness({
      turns: [{ toolCalls: [{ name: 'list_files', arguments: { path: '.' } }], delayMs: 400 }, { text: 'saw both' }],
    });
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: 'first' });
    await new Promise((r) => setTimeout(r, 100));
    await h.call('chat:send', { sessionId, content: 'and also this' });
    expect(h.events.find((e) => e.type === 'user_message' && e.content === 'and also this')).toMatchObject({
      queued: true,
    });
    await h.waitForEvent('done');
    expect(h.events.find((e) => e.type === 'user_message' && e.content === 'and also this' && e.replaces)).toBeTruthy();
    expect(JSON.stringify(h.llm.requests[1]!.body)).toContain('and also this');
    expect(JSON.stringify(h.llm.requests[0]!.body)).not.toContain('and also this');
  });
});

describe('/compact', () => {
  it('summarizes the older history through the model; later turns see the summary instead of those rows', async () => {
    h = await startHarness({ turns: Array.from({ length: 5 }, (_, i) => ({ text: `answer ${i}` })) });
    const sessionId = await h.newSession();
    for (let i = 0; i < 5; i++) await h.sendAndSettle(sessionId, `question ${i}`);
    h.llm.script([{ text: 'SUMMARY: five questions asked and answered.' }, { text: 'after compaction' }]);
    await h.sendAndSettle(sessionId, '/compact');
    const reply = await h.waitForEvent(
      'command_reply',
      (e) => e.command === '/compact' && e.content.startsWith('Compacted'),
    );
    expect(reply.content).toMatch(/Compacted 4 messages/);
    expect(JSON.stringify(h.llm.requests.at(-1)!.body)).toContain('question 0');
    await h.sendAndSettle(sessionId, 'go on');
    const last = JSON.stringify(h.llm.requests.at(-1)!.body);
    expect(last).toContain('SUMMARY: five questions asked and answered.');
    expect(last).not.toContain('question 0');
    expect(last).toContain('question 4');
    expect((await h.call('chat:history', { sessionId })).messages.map((m) => m.content)).toContain('question 0');
  });
});

describe('/stop while a call waits for approval', () => {
  it('withdraws the approval; the next message ends that call as cancelled and the model sees why', async () => {
    h = await startHarness({
      turns: [{ toolCalls: [{ name: 'write_file', arguments: { path: 'c.txt', content: 'C' } }] }, { text: 'fine' }],
    });
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: 'write c' });
    const pending = await h.waitForEvent('pending_write');
    await h.call('chat:stop', { sessionId });
    await h.waitForEvent('cancelled');
    await expect(
      h.call('inbox:resolveApproval', {
        requestId: pending.request_id,
        action: 'approve',
        note: '',
        argsHash: pending.args_hash,
      }),
    ).rejects.toThrow();
    await h.sendAndSettle(sessionId, 'never mind');
    const card = (await h.call('chat:history', { sessionId })).messages.flatMap((m) => m.tools)[0]!;
    expect(card.status).toBe('cancelled');
    expect(JSON.stringify(h.llm.requests.at(-1)!.body)).toContain('stopped while this call waited for approval');
    expect(existsSync(join(h.workspace, 'c.txt'))).toBe(false);
  });
});

describe('approval:listTools', () => {
  it('lists every tool a rule can name, with categories, and the offered tools are recorded as known', async () => {
    h = await startHarness({ turns: [{ text: 'hi' }] });
    await h.sendAndSettle(await h.newSession(), 'hello');
    const tools = await h.call('approval:listTools', {});
    const names = tools.built_in.map((t) => t.name);
    expect(names).toEqual([...names].sort());
    expect(tools.built_in.find((t) => t.name === 'read_file')).toMatchObject({
      category: 'filesystem',
      traits: { kind: 'read', pathKeys: ['path'], commandKey: null },
    });
    expect(tools.built_in.find((t) => t.name === 'execute_cmd')).toMatchObject({
      category: 'shell',
      traits: { kind: 'execute', commandKey: 'command' },
    });
    // Every built-in says what it is (the Security page's tester reads these, never a list of names).
    expect(tools.built_in.filter((t) => t.traits === null).map((t) => t.name)).toEqual([]);
    expect(names).toContain('ask_user_clarification');
    await expect
      .poll(
        () =>
          (h.core.db.prepare("SELECT count(*) AS n FROM known_tools WHERE name = 'write_todos'").get() as { n: number })
            .n,
      )
      .toBe(1);
    expect(JSON.stringify(h.llm.requests[0]!.body)).toContain('write_todos');
  });
});

describe('ask_user_clarification', () => {
  it('waits in the chat and the Inbox without asking for approval first; the answer goes back to the model', async () => {
    h = await startHarness({
      turns: [
        {
          toolCalls: [
            {
              name: 'ask_user_clarification',
              arguments: { title: 'Which file?', question: 'Shall I use **a.txt**?', suggested_answers: ['yes', 'no'] },
            },
          ],
        },
        { text: 'Using a.txt.' },
      ],
    });
    const sessionId = await h.newSession();
    await h.call('chat:send', { sessionId, content: 'do it' });
    const asked = await h.waitForEvent('agent_question');
    expect(asked).toMatchObject({ title: 'Which file?', suggested_answers: ['yes', 'no'] });
    expect(h.events.some((e) => e.type === 'approval_required' || e.type === 'pending_write')).toBe(false);
    expect((await h.call('inbox:list', {})).clarifications).toHaveLength(1);
    const card = (await h.call('chat:history', { sessionId })).messages.flatMap((m) => m.tools)[0]!;
    expect(card).toMatchObject({ status: 'pending', pending: { request_id: asked.request_id } });
    await h.call('inbox:answerClarification', { requestId: asked.request_id, answer: 'yes' });
    await h.waitForEvent('done');
    expect(h.events.find((e) => e.type === 'tool_done')).toMatchObject({ result: 'The user answered: yes' });
    expect(JSON.stringify(h.llm.requests[1]!.body)).toContain('The user answered: yes');
  });
});

describe('working directory', () => {
  it('a chosen project folder outside the default workspace is where the file tools work', async () => {
    const project = join(tempDir(), 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'README.md'), 'project readme\n');
    h = await startHarness({
      turns: [{ toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] }, { text: 'read it' }],
    });
    const sessionId = await h.newSession();
    expect((await h.call('chat:setWorkingDirectory', { sessionId, path: project })).working_directory).toBe(project);
    const events = await h.sendAndSettle(sessionId, 'read the readme');
    expect(events.find((e) => e.type === 'tool_done')).toMatchObject({
      result: expect.stringContaining('project readme'),
    });
    expect(JSON.stringify(h.llm.requests[0]!.body)).toContain(`Working directory: ${project}`);
  });

  it("refuses the app's data folder as a working directory, and a missing folder", async () => {
    h = await startHarness();
    const sessionId = await h.newSession();
    await expect(h.call('chat:setWorkingDirectory', { sessionId, path: h.dataDir })).rejects.toThrow(/data folder/);
    await expect(h.call('chat:setWorkingDirectory', { sessionId, path: join(h.workspace, 'nope') })).rejects.toThrow(
      /Not a directory/,
    );
  });
});
