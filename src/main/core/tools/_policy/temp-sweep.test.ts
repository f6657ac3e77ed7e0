/**
 * The start-up sweep of write_file's leftover temp files, on a real workspace: a write killed after its temp file
 * was written (a real child process, SIGKILLed) leaves `.name.skald-*.tmp`; starting the core removes it, and
 * nothing else: look-alike names, symlinks with the pattern's name, files in skipped folders, and a temp file
 * newer than the start all stay.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore } from '../../index';
import { makeWorkspace, type TestWorkspace } from '../_testing/workspace';
import { TEMP_FILE_PATTERN, tempFileName } from './fs';
import { sweepStaleTempFiles } from '../../disk/temp-sweep';

let ws: TestWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const past = (path: string) => utimesSync(path, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));

describe('stale temp files of interrupted writes', () => {
  it('the name atomicWrite uses matches the sweep pattern; look-alikes do not', () => {
    for (let i = 0; i < 20; i++) expect(TEMP_FILE_PATTERN.test(tempFileName(`f${i}.txt`))).toBe(true);
    for (const name of [
      '.a.skald-abc.tmp',
      'a.skald-0123456789ab.tmp',
      '.a.skald-0123456789AB.tmp',
      '.a.skald-0123456789ab.tmp.bak',
      '.a.txt',
      'notes.tmp',
    ]) {
      expect(TEMP_FILE_PATTERN.test(name)).toBe(false);
    }
  });

  it('removes only old regular files with the exact pattern, never following links or entering skipped folders', async () => {
    const stale = [
      ws.write('.a.txt.skald-0123456789ab.tmp', 'half'),
      ws.write('deep/er/.b.md.skald-abcdefabcdef.tmp', 'half'),
    ];
    const keep = [
      ws.write('.a.txt', 'keep'),
      ws.write('a.skald-0123456789ab.tmp', 'keep'),
      ws.write('node_modules/.c.skald-0123456789ab.tmp', 'keep'),
      ws.write('secrets/.d.skald-0123456789ab.tmp', 'keep'),
    ];
    const outsideFile = join(ws.outside, 'target.txt');
    writeFileSync(outsideFile, 'outside');
    symlinkSync(outsideFile, join(ws.root, '.e.skald-0123456789ab.tmp'));
    mkdirSync(join(ws.outside, 'dir'));
    writeFileSync(join(ws.outside, 'dir', '.f.skald-0123456789ab.tmp'), 'outside');
    symlinkSync(join(ws.outside, 'dir'), join(ws.root, 'linked'));
    for (const p of [...stale, ...keep, join(ws.outside, 'dir', '.f.skald-0123456789ab.tmp')]) past(p);
    const fresh = ws.write('.g.txt.skald-fedcba987654.tmp', 'in progress');

    const r = await sweepStaleTempFiles(ws.root, { olderThanMs: Date.now() - 1000 });
    expect(r.removed.sort()).toEqual([...stale].sort());
    for (const p of stale) expect(existsSync(p)).toBe(false);
    for (const p of [...keep, fresh, join(ws.outside, 'dir', '.f.skald-0123456789ab.tmp'), outsideFile])
      expect(existsSync(p)).toBe(true);
    expect(readFileSync(outsideFile, 'utf8')).toBe('outside');
  });

  it('stops at maxEntries and says so', async () => {
    for (let i = 0; i < 30; i++) ws.write(`f${i}.txt`, 'x');
    const r = await sweepStaleTempFiles(ws.root, { olderThanMs: Date.now(), maxEntries: 10 });
    expect(r.isCut).toBe(true);
  });

  it('a write_file killed mid-write leaves a temp file; the next core start removes it', async () => {
    const workspaceDir = join(ws.base, 'data', 'workspace');
    mkdirSync(workspaceDir, { recursive: true });
    writeFileSync(join(workspaceDir, 'doc.txt'), 'old');
    // A child that does what atomicWrite does up to the rename, then dies by SIGKILL.
    const script = `
      const fs = require('node:fs');
      const p = ${JSON.stringify(join(workspaceDir, tempFileName('doc.txt')))};
      const fd = fs.openSync(p, 'wx'); fs.writeSync(fd, 'new, half written'); fs.fsyncSync(fd);
      process.kill(process.pid, 'SIGKILL');`;
    await new Promise<void>((resolve) =>
      spawn(process.execPath, ['-e', script], { stdio: 'ignore' }).on('exit', () => resolve()),
    );
    const leftovers = readdirSync(workspaceDir).filter((n) => TEMP_FILE_PATTERN.test(n));
    expect(leftovers).toHaveLength(1);
    past(join(workspaceDir, leftovers[0]!));

    const core = await createCore({ dataDir: join(ws.base, 'data'), workspaceDir, shape: 'web', version: 'test' });
    try {
      core.start();
      for (let i = 0; i < 100 && readdirSync(workspaceDir).some((n) => TEMP_FILE_PATTERN.test(n)); i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(readdirSync(workspaceDir).filter((n) => TEMP_FILE_PATTERN.test(n))).toEqual([]);
      expect(readFileSync(join(workspaceDir, 'doc.txt'), 'utf8')).toBe('old');
    } finally {
      await core.dispose();
    }
  });
});
