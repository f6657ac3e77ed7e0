/**
 * App settings through the real core and its bridge boundary: defaults, refusals that write nothing (a missing
 * directory, the data folder, an unknown group), and new sessions starting with the chosen directory and group.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatchCall } from '../bridge/dispatch';
import { createCore, type Core } from '../index';
import { BlobStore } from '../viewer/blob-store';

let root: string;
let core: Core;
const call = (channel: string, request: unknown) =>
  dispatchCall(core.handlers, channel, request) as Promise<{
    ok: boolean;
    result?: any;
    error?: { code: string; message: string };
  }>;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'skald-settings-'));
  core = await createCore({
    dataDir: join(root, 'data'),
    workspaceDir: join(root, 'data', 'workspace'),
    shape: 'web',
    version: 'test',
    agentsDir: join(__dirname, '../../../../agents'),
  });
});
afterEach(async () => {
  await core.dispose();
  rmSync(root, { recursive: true, force: true });
});

describe('app settings', () => {
  it('starts with the defaults', async () => {
    expect(await call('app:getSettings', {})).toEqual({
      ok: true,
      result: {
        settings: {
          defaultWorkingDirectory: null,
          newSessionGroup: 'default',
          theme: 'system',
          diffHistory: { maxMb: 512, keepDays: 30 },
          instructions: '',
          sandboxUnconfinedWhenUnavailable: false,
        },
      },
    });
  });

  it('refuses a missing directory, the data folder and an unknown group, writing nothing of the call', async () => {
    expect(await call('app:setSettings', { defaultWorkingDirectory: join(root, 'nope'), theme: 'dark' })).toMatchObject(
      { ok: false, error: { message: expect.stringMatching(/Not a directory/) } },
    );
    expect(await call('app:setSettings', { defaultWorkingDirectory: join(root, 'data') })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/data folder/) },
    });
    expect(await call('app:setSettings', { newSessionGroup: 'ghost', theme: 'dark' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect((await call('app:getSettings', {})).result.settings).toEqual({
      defaultWorkingDirectory: null,
      newSessionGroup: 'default',
      theme: 'system',
      diffHistory: { maxMb: 512, keepDays: 30 },
      instructions: '',
      sandboxUnconfinedWhenUnavailable: false,
    });
  });

  it("keeps the diff history limits where the viewer's blob store reads them, and refuses nonsense", async () => {
    expect(await call('app:setSettings', { diffHistory: { maxMb: 64, keepDays: 7 } })).toMatchObject({
      ok: true,
      result: { settings: { diffHistory: { maxMb: 64, keepDays: 7 } } },
    });
    expect(
      new BlobStore(core.db, join(root, 'data'), () => ({
        workingDir: root,
        dataDir: join(root, 'data'),
        workspaceDir: root,
      })).limits(),
    ).toEqual({ maxMb: 64, keepDays: 7 });
    expect(await call('app:setSettings', { diffHistory: { maxMb: 0, keepDays: 7 } })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(await call('app:setSettings', { diffHistory: { maxMb: 64, keepDays: 1.5 } })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect((await call('app:getSettings', {})).result.settings.diffHistory).toEqual({ maxMb: 64, keepDays: 7 });
  });

  it('new sessions start in the default directory and group', async () => {
    const project = join(root, 'project');
    mkdirSync(project);
    await call('approval:createGroup', { id: 'careful', name: 'Careful' });
    expect(
      await call('app:setSettings', { defaultWorkingDirectory: project, newSessionGroup: 'careful', theme: 'light' }),
    ).toMatchObject({
      ok: true,
      result: { settings: { defaultWorkingDirectory: project, newSessionGroup: 'careful', theme: 'light' } },
    });
    const { id } = (await call('chat:createSession', {})).result;
    const sessions = (await call('chat:listSessions', {})).result.sessions;
    expect(sessions.find((s: { id: number }) => s.id === id)).toMatchObject({ working_directory: project });
    expect(await call('approval:sessionGroup', { sessionId: id })).toEqual({
      ok: true,
      result: { groupId: 'careful' },
    });
    // A deleted default group is skipped, never left pointing nowhere (which would make every call ask).
    await call('approval:deleteGroup', { id: 'careful' });
    const second = (await call('chat:createSession', {})).result.id;
    expect(await call('approval:sessionGroup', { sessionId: second })).toEqual({
      ok: true,
      result: { groupId: 'default' },
    });
  });
});
