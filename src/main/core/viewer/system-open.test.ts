/**
 * "Open with the system app" (docs/viewer.md "Open with the system app"): the refusal rules on their own, then the
 * whole way through the real core and its bridge boundary with a fake port that records what it was handed — only
 * a confirmed call for a binary handle's file, under the read policy checked again, never a program or launcher.
 */
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatchCall } from '../bridge/dispatch';
import { createCore, type Core } from '../index';
import { LAUNCHER_TYPES, systemOpenRefusal, type OpenWithSystemPort } from './system-open';

const BINARY = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x01, 0x02]);

describe('systemOpenRefusal', () => {
  it('lets a plain data file through', () => {
    for (const name of ['archive.zip', 'report.docx', 'data.sqlite', 'noext', 'model.bin'])
      expect(systemOpenRefusal(`/w/${name}`, 0o100644, BINARY)).toBeNull();
  });

  it('refuses any executable bit, whatever the name', () => {
    for (const mode of [0o100755, 0o100744, 0o100654, 0o100645])
      expect(systemOpenRefusal('/w/archive.zip', mode, BINARY)).toMatch(/marked executable/);
  });

  it('refuses programs, installers, scripts and launchers by extension, in any letter case', () => {
    const named = [
      '.exe',
      '.bat',
      '.cmd',
      '.com',
      '.msi',
      '.app',
      '.desktop',
      '.sh',
      '.command',
      '.lnk',
      '.url',
      '.jar',
      '.ps1',
      '.vbs',
      '.scr',
      '.appimage',
      '.hta',
      '.reg',
      '.deb',
      '.pkg',
      '.webloc',
    ];
    for (const ext of named) {
      expect(LAUNCHER_TYPES.has(ext)).toBe(true);
      expect(systemOpenRefusal(`/w/thing${ext}`, 0o100644, BINARY)).toMatch(
        /program|script|launcher|shortcut|installer/,
      );
      expect(systemOpenRefusal(`/w/THING${ext.toUpperCase()}`, 0o100644, BINARY)).not.toBeNull();
    }
  });

  it('refuses executable content under a harmless name', () => {
    const heads: [string, Buffer][] = [
      ['ELF', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0])],
      ['Mach-O', Buffer.from([0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1])],
      ['MZ', Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1')],
      ['#!', Buffer.from('#!/bin/sh\nrm -rf ~\n\0')],
      ['shortcut', Buffer.from([0x4c, 0, 0, 0, 0x01, 0x14, 0x02, 0, 0, 0])],
      ['launcher', Buffer.from('\uFEFF[Desktop Entry]\nExec=sh -c evil\n\0')],
    ];
    for (const [what, head] of heads)
      expect(systemOpenRefusal('/w/photo.dat', 0o100644, head), what).toMatch(/whatever its name says/);
  });
});

describe('through the core, with a fake port', () => {
  let root: string;
  let ws: string;
  let core: Core;
  let handed: string[];
  let failWith = '';
  const port: OpenWithSystemPort = async (path) => {
    handed.push(path);
    return failWith;
  };
  const call = (channel: string, request: unknown) =>
    dispatchCall(core.handlers, channel, request) as Promise<{
      ok: boolean;
      result?: any;
      error?: { code: string; message: string };
    }>;
  const open = async (path: string) => {
    const r = await call('viewer:resolve', { path });
    expect(r).toMatchObject({ ok: true, result: { status: 'ok' } });
    return r.result.file as { handle: string; kind: string; absolute: string; systemOpen: unknown };
  };

  async function start(withPort: boolean) {
    core = await createCore(
      {
        dataDir: join(root, 'data'),
        workspaceDir: ws,
        shape: withPort ? 'desktop' : 'web',
        version: 'test',
        agentsDir: join(__dirname, '../../../../agents'),
      },
      withPort ? { openWithSystem: port } : {},
    );
  }

  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'skald-sysopen-')));
    ws = join(root, 'data', 'workspace');
    mkdirSync(join(ws, 'secrets'), { recursive: true });
    writeFileSync(join(ws, 'secrets', 'vault.bin'), BINARY);
    handed = [];
    failWith = '';
  });
  afterEach(async () => {
    await core.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  it('offers it for a data file and hands the port its real path only once confirmed', async () => {
    await start(true);
    writeFileSync(join(ws, 'archive.zip'), BINARY);
    const file = await open('archive.zip');
    expect(file).toMatchObject({ kind: 'binary', systemOpen: { status: 'offered' } });
    // Without the confirmation the call never passes the boundary.
    expect(await call('viewer:openWithSystem', { handle: file.handle })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(await call('viewer:openWithSystem', { handle: file.handle, confirmed: false })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    // A path from the page is no argument the call accepts.
    expect(
      await call('viewer:openWithSystem', { handle: file.handle, confirmed: true, path: '/etc/passwd' }),
    ).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(handed).toEqual([]);
    expect(await call('viewer:openWithSystem', { handle: file.handle, confirmed: true })).toEqual({
      ok: true,
      result: { status: 'opened', path: join(ws, 'archive.zip') },
    });
    expect(handed).toEqual([join(ws, 'archive.zip')]);
  });

  it('refuses a program, a file made executable after it was shown, a text file, and a swapped symlink', async () => {
    await start(true);
    writeFileSync(join(ws, 'setup.exe'), BINARY);
    const exe = await open('setup.exe');
    expect(exe.systemOpen).toMatchObject({ status: 'refused', message: expect.stringMatching(/program or installer/) });
    expect((await call('viewer:openWithSystem', { handle: exe.handle, confirmed: true })).result).toMatchObject({
      status: 'not_opened',
      reason: 'refused',
    });

    writeFileSync(join(ws, 'blob.dat'), BINARY);
    const later = await open('blob.dat');
    expect(later.systemOpen).toEqual({ status: 'offered' });
    chmodSync(join(ws, 'blob.dat'), 0o755);
    expect((await call('viewer:openWithSystem', { handle: later.handle, confirmed: true })).result).toMatchObject({
      reason: 'refused',
      message: expect.stringMatching(/executable/),
    });

    writeFileSync(join(ws, 'notes.txt'), 'hello');
    const text = await open('notes.txt');
    expect(text.systemOpen).toBeNull();
    expect((await call('viewer:openWithSystem', { handle: text.handle, confirmed: true })).result).toMatchObject({
      reason: 'refused',
      message: expect.stringMatching(/shows .* itself/),
    });

    writeFileSync(join(ws, 'swap.bin'), BINARY);
    const swapped = await open('swap.bin');
    unlinkSync(join(ws, 'swap.bin'));
    symlinkSync(join(ws, 'secrets', 'vault.bin'), join(ws, 'swap.bin'));
    expect((await call('viewer:openWithSystem', { handle: swapped.handle, confirmed: true })).result).toMatchObject({
      reason: 'refused',
    });

    expect(await call('viewer:openWithSystem', { handle: 'A'.repeat(32), confirmed: true })).toMatchObject({
      ok: false,
      error: { code: 'missing' },
    });
    expect(handed).toEqual([]);
  });

  it('says what the system answered when it could not open the file', async () => {
    await start(true);
    writeFileSync(join(ws, 'odd.xyz'), BINARY);
    failWith = 'No application is associated with the specified file';
    const file = await open('odd.xyz');
    expect((await call('viewer:openWithSystem', { handle: file.handle, confirmed: true })).result).toEqual({
      status: 'not_opened',
      reason: 'failed',
      message: 'The system could not open odd.xyz: No application is associated with the specified file',
    });
  });

  it('the web shape has no port: not offered, and a call opens nothing', async () => {
    await start(false);
    writeFileSync(join(ws, 'archive.zip'), BINARY);
    const file = await open('archive.zip');
    expect(file.systemOpen).toMatchObject({ status: 'unavailable' });
    expect((await call('viewer:openWithSystem', { handle: file.handle, confirmed: true })).result).toMatchObject({
      status: 'not_opened',
      reason: 'unavailable',
    });
    expect(handed).toEqual([]);
  });
});
