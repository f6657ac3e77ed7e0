/**
 * Standing instructions: the person's own from Settings (docs/chat-ui.md "Your instructions"), and the project's
 * (docs/chat-ui.md "Project instructions"): the working directory's AGENTS.md reaches the model
 * in the system message, as it is each round, for the session's agent and its sub-agents; it is read only as
 * `read_file` would be allowed to read it without asking, and reading it writes nothing. Real core, real SQLite and
 * gate, the scripted LLM over HTTP.
 */
import { linkSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs } from '../../../../test/helpers/temp';
import type { RecordedRequest } from '../../../../test/llm-server/index';
import { MAX_PROJECT_INSTRUCTIONS_CHARS as MAX_PROJECT_CHARS } from './project-instructions';
import { MAX_INSTRUCTIONS_CHARS } from '../../../shared/contract/app';

let h: Harness;
afterEach(async () => {
  await h?.close();
  cleanupTempDirs();
});

const systemOf = (r: RecordedRequest) => String((r.body.messages as { role: string; content: string }[])[0]!.content);
const count = (table: string) => (h.core.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('AGENTS.md in the working directory', () => {
  it('goes to the model in the system message, as it is each round; reading it writes nothing', async () => {
    h = await startHarness({ turns: [{ text: 'first' }, { text: 'second' }] });
    const file = join(h.workspace, 'AGENTS.md');
    writeFileSync(file, '# Conventions\nUse tabs. Run `make check` before you finish.\n');
    const sessionId = await h.newSession();
    expect(await h.call('chat:projectInstructions', { sessionId })).toEqual({ path: file, included: true, note: null });
    await h.sendAndSettle(sessionId, 'hello');
    expect(systemOf(h.llm.requests[0]!)).toContain(`Project instructions, from ${file}`);
    expect(systemOf(h.llm.requests[0]!)).toContain(
      '<project-instructions>\n# Conventions\nUse tabs. Run `make check` before you finish.\n\n</project-instructions>',
    );
    expect(count('chat_llm_tools')).toBe(0);
    expect(count('tool_decisions')).toBe(0);
    writeFileSync(file, 'Use spaces now.\n'); // edited between turns: the next round reads it again
    await h.sendAndSettle(sessionId, 'again');
    expect(systemOf(h.llm.requests[1]!)).toContain(
      '<project-instructions>\nUse spaces now.\n\n</project-instructions>',
    );
    expect(systemOf(h.llm.requests[1]!)).not.toContain('Use tabs');
  });

  it('a rule that keeps read_file from it without asking keeps it from the model, and the chat bar says why', async () => {
    h = await startHarness({ turns: [{ text: 'ok' }] });
    writeFileSync(join(h.workspace, 'AGENTS.md'), 'SECRET-CONVENTION\n');
    h.core.approval.rules.createRule({
      tool_pattern: 'read_file',
      path_pattern: 'AGENTS.md',
      action: 'require',
      priority: 50,
    });
    const sessionId = await h.newSession();
    const said = await h.call('chat:projectInstructions', { sessionId });
    expect(said).toMatchObject({
      included: false,
      note: expect.stringMatching(
        /^Reading AGENTS\.md is not allowed without asking \(.+\), so the model does not get it\.$/,
      ),
    });
    await h.sendAndSettle(sessionId, 'hello');
    expect(JSON.stringify(h.llm.requests[0]!.body)).not.toContain('SECRET-CONVENTION');
  });

  it('a link named AGENTS.md is not followed, a hard link into the data folder is refused; no file, no part', async () => {
    h = await startHarness({ turns: [{ text: 'ok' }, { text: 'ok' }, { text: 'ok' }] });
    mkdirSync(join(h.workspace, '..', 'outside'), { recursive: true });
    writeFileSync(join(h.workspace, '..', 'outside', 'secret.md'), 'OUTSIDE-TEXT\n');
    symlinkSync(join(h.workspace, '..', 'outside', 'secret.md'), join(h.workspace, 'AGENTS.md'));
    const sessionId = await h.newSession();
    expect(await h.call('chat:projectInstructions', { sessionId })).toMatchObject({
      included: false,
      note: 'AGENTS.md is not a regular file (a link or a folder), so it is not read.',
    });
    await h.sendAndSettle(sessionId, 'hello');
    expect(JSON.stringify(h.llm.requests[0]!.body)).not.toContain('OUTSIDE-TEXT');
    expect(systemOf(h.llm.requests[0]!)).not.toContain('Project instructions');

    // A hard link to a file of the data folder: the gate's hard guard refuses the read, so nothing is given.
    writeFileSync(join(h.dataDir, 'private.json'), 'DATA-FOLDER-TEXT\n');
    rmSync(join(h.workspace, 'AGENTS.md'));
    linkSync(join(h.dataDir, 'private.json'), join(h.workspace, 'AGENTS.md'));
    expect(await h.call('chat:projectInstructions', { sessionId })).toMatchObject({
      included: false,
      note: expect.stringMatching(/^Reading AGENTS\.md is not allowed without asking/),
    });
    await h.sendAndSettle(sessionId, 'again');
    expect(JSON.stringify(h.llm.requests.at(-1)!.body)).not.toContain('DATA-FOLDER-TEXT');

    const other = await h.newSession();
    const empty = join(h.workspace, '..', 'plain');
    mkdirSync(empty);
    await h.call('chat:setWorkingDirectory', { sessionId: other, path: empty });
    expect(await h.call('chat:projectInstructions', { sessionId: other })).toEqual({
      path: null,
      included: false,
      note: null,
    });
    await h.sendAndSettle(other, 'hello');
    expect(systemOf(h.llm.requests.at(-1)!)).not.toContain('Project instructions');
  });

  it(`a long one is cut at ${MAX_PROJECT_CHARS.toLocaleString('en')} characters, saying so`, async () => {
    h = await startHarness({ turns: [{ text: 'ok' }] });
    writeFileSync(join(h.workspace, 'AGENTS.md'), `${'x'.repeat(MAX_PROJECT_CHARS)}TAIL-PAST-THE-CUT`);
    const sessionId = await h.newSession();
    await h.sendAndSettle(sessionId, 'hello');
    const system = systemOf(h.llm.requests[0]!);
    expect(system).not.toContain('TAIL-PAST-THE-CUT');
    expect(system).toContain(
      `[Only its first ${MAX_PROJECT_CHARS.toLocaleString('en')} characters are given (the file has ${(MAX_PROJECT_CHARS + 17).toLocaleString('en')} bytes). Read the rest with read_file.]`,
    );
  });

  it('a sub-agent gets it too', async () => {
    h = await startHarness({
      turns: [
        {
          match: 'delegate',
          toolCalls: [
            {
              name: 'execute_task',
              arguments: { mode: 'sync', agent_id: 'code-explorer', prompt: 'TOKEN-CHILD look', title: 'look' },
            },
          ],
        },
        { match: 'TOKEN-CHILD', text: 'looked' },
        { match: 'delegate', text: 'done' },
      ],
    });
    writeFileSync(join(h.workspace, 'AGENTS.md'), 'CHILD-SEES-THIS\n');
    const sessionId = await h.newSession();
    await h.sendAndSettle(sessionId, 'delegate');
    const child = h.llm.requests.find(
      (r) =>
        JSON.stringify(r.body.messages).includes('TOKEN-CHILD') &&
        !JSON.stringify(r.body.messages).includes('delegate'),
    )!;
    expect(systemOf(child)).toContain('CHILD-SEES-THIS');
  });
});

describe("the person's own instructions (Settings → General)", () => {
  it("go into the system message each round, before the project's; cleared, they are gone; too long is refused", async () => {
    h = await startHarness({ turns: [{ text: 'one' }, { text: 'two' }] });
    writeFileSync(join(h.workspace, 'AGENTS.md'), 'PROJECT-RULE\n');
    await h.call('app:setSettings', { instructions: '  Answer in French.  ' });
    expect((await h.call('app:getSettings', {})).settings.instructions).toBe('  Answer in French.  ');
    const sessionId = await h.newSession();
    await h.sendAndSettle(sessionId, 'hello');
    const system = systemOf(h.llm.requests[0]!);
    expect(system).toContain('<person-instructions>\nAnswer in French.\n</person-instructions>');
    expect(system.indexOf('<person-instructions>')).toBeLessThan(system.indexOf('<project-instructions>'));
    await h.call('app:setSettings', { instructions: '' });
    await h.sendAndSettle(sessionId, 'again');
    expect(systemOf(h.llm.requests[1]!)).not.toContain('person-instructions');
    await expect(h.call('app:setSettings', { instructions: 'x'.repeat(MAX_INSTRUCTIONS_CHARS + 1) })).rejects.toThrow(
      /\[bad_request\]/,
    );
  });

  it('a sub-agent works from its brief, without them', async () => {
    h = await startHarness({
      turns: [
        {
          match: 'delegate',
          toolCalls: [
            {
              name: 'execute_task',
              arguments: { mode: 'sync', agent_id: 'code-explorer', prompt: 'TOKEN-CHILD look', title: 'look' },
            },
          ],
        },
        { match: 'TOKEN-CHILD', text: 'looked' },
        { match: 'delegate', text: 'done' },
      ],
    });
    await h.call('app:setSettings', { instructions: 'PERSON-PREFERENCE' });
    const sessionId = await h.newSession();
    await h.sendAndSettle(sessionId, 'delegate');
    const child = h.llm.requests.find(
      (r) =>
        JSON.stringify(r.body.messages).includes('TOKEN-CHILD') &&
        !JSON.stringify(r.body.messages).includes('delegate'),
    )!;
    expect(systemOf(child)).not.toContain('PERSON-PREFERENCE');
    expect(systemOf(h.llm.requests[0]!)).toContain('PERSON-PREFERENCE');
  });
});
