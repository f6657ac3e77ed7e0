/**
 * The viewer's handle route against a real temp workspace with real symlinks, a FIFO, a sparse 2 GB file and a
 * data folder: what is served, what is refused, and that the policy runs again on every request.
 */
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  ftruncateSync,
  realpathSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IDLE_MS } from './handles';
import { ViewerService } from './viewer-service';

let root: string;
let data: string;
let ws: string;
let outside: string;
let now: number;
let viewer: ViewerService;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'skald-viewer-')));
  data = join(root, 'data');
  ws = join(data, 'workspace');
  outside = join(root, 'home');
  mkdirSync(ws, { recursive: true });
  mkdirSync(join(outside, '.ssh'), { recursive: true });
  writeFileSync(join(outside, '.ssh', 'id_ed25519'), 'PRIVATE KEY');
  writeFileSync(join(data, 'skald.db'), 'sqlite');
  writeFileSync(join(data, 'secret.key'), 'key');
  now = 1_000_000;
  viewer = new ViewerService({ dataDir: data, workspaceDir: ws, workingDirOf: () => ws, now: () => now });
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

function ok(path: string, extra: { allowOutside?: boolean; relativeTo?: string } = {}) {
  const r = viewer.resolve({ path, ...extra });
  if (r.status !== 'ok') throw new Error(`expected ok for ${path}, got ${JSON.stringify(r)}`);
  return r.file;
}

describe('resolve', () => {
  it('issues an opaque handle that serves the file, with the kind and language by extension', () => {
    writeFileSync(join(ws, 'notes.md'), '# Hi\n');
    const file = ok('notes.md');
    expect(file.kind).toBe('markdown');
    expect(file.handle).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(file.url).toBe(`/viewer/file/${file.handle}`);
    expect(file.url).not.toContain('notes');
    const reply = viewer.serveFile(file.url);
    expect(reply.status).toBe(200);
    expect(String(reply.body)).toBe('# Hi\n');
    expect(reply.headers['content-security-policy']).toContain('sandbox');
  });

  it('never serves HTML as a page of the app origin', () => {
    writeFileSync(join(ws, 'page.html'), '<script>alert(1)</script>');
    const file = ok('page.html');
    expect(file.kind).toBe('html');
    expect(viewer.serveFile(file.url).headers['content-type']).toMatch(/^text\/plain/);
  });

  it('refuses secrets/ folders in any letter case, also through a symlink', () => {
    mkdirSync(join(ws, 'Secrets'));
    writeFileSync(join(ws, 'Secrets', 'token.txt'), 't');
    symlinkSync(join(ws, 'Secrets', 'token.txt'), join(ws, 'innocent.txt'));
    for (const p of ['Secrets/token.txt', 'innocent.txt', join(ws, 'Secrets', 'token.txt')]) {
      const r = viewer.resolve({ path: p });
      expect(r).toMatchObject({ status: 'error', code: 'refused' });
    }
  });

  it("refuses the data folder's database and key file, even when confirmed", () => {
    for (const p of [join(data, 'skald.db'), join(ws, '..', 'secret.key')]) {
      expect(viewer.resolve({ path: p, allowOutside: true })).toMatchObject({ status: 'error', code: 'refused' });
    }
  });

  it('asks before a file outside the working directory, and serves it once confirmed', () => {
    writeFileSync(join(outside, 'readme.txt'), 'outside');
    const first = viewer.resolve({ path: join(outside, 'readme.txt') });
    expect(first).toMatchObject({ status: 'confirm', absolute: join(outside, 'readme.txt') });
    const file = ok(join(outside, 'readme.txt'), { allowOutside: true });
    expect(file.isOutside).toBe(true);
    expect(String(viewer.serveFile(file.url).body)).toBe('outside');
  });

  it('a symlink inside the workspace that leads outside counts as outside', () => {
    symlinkSync(join(outside, '.ssh', 'id_ed25519'), join(ws, 'key'));
    expect(viewer.resolve({ path: 'key' }).status).toBe('confirm');
  });

  it('says what is wrong: missing, a folder, a FIFO (without blocking), a 2 GB file shows its first part', () => {
    expect(viewer.resolve({ path: 'nope.txt' })).toMatchObject({ status: 'error', code: 'missing' });
    mkdirSync(join(ws, 'dir'));
    expect(viewer.resolve({ path: 'dir' })).toMatchObject({ status: 'error', code: 'not_file' });
    execFileSync('mkfifo', [join(ws, 'pipe')]);
    expect(viewer.resolve({ path: 'pipe' })).toMatchObject({
      status: 'error',
      code: 'not_file',
      message: expect.stringContaining('FIFO'),
    });
    const fd = openSync(join(ws, 'huge.log'), 'w');
    ftruncateSync(fd, 2 * 1024 ** 3);
    closeSync(fd);
    const huge = ok('huge.log');
    expect(huge.size).toBe(2 * 1024 ** 3);
    const reply = viewer.serveFile(huge.url);
    expect(reply.status).toBe(200);
    expect((reply.body as Buffer).length).toBe(huge.limit);
    expect(reply.headers['x-skald-truncated']).toBe('1');
  });

  it('a 2 GB PDF is too large, with a message instead of a partial document', () => {
    const fd = openSync(join(ws, 'huge.pdf'), 'w');
    ftruncateSync(fd, 2 * 1024 ** 3);
    closeSync(fd);
    expect(viewer.resolve({ path: 'huge.pdf' })).toMatchObject({ status: 'error', code: 'too_large' });
  });

  it('relative links resolve against the linking file, not the working directory', () => {
    mkdirSync(join(ws, 'docs'));
    writeFileSync(join(ws, 'docs', 'a.md'), '[b](b.md)');
    writeFileSync(join(ws, 'docs', 'b.md'), 'B');
    const a = ok('docs/a.md');
    const b = ok('b.md', { relativeTo: a.handle });
    expect(b.absolute).toBe(join(ws, 'docs', 'b.md'));
    expect(viewer.resolve({ path: 'b.md', relativeTo: 'x'.repeat(32) })).toMatchObject({
      status: 'error',
      code: 'missing',
    });
  });
});

describe('serving a handle re-applies the policy on every request', () => {
  it('refuses once the file is swapped for a symlink to ~/.ssh', () => {
    writeFileSync(join(ws, 'report.txt'), 'report');
    const file = ok('report.txt');
    expect(viewer.serveFile(file.url).status).toBe(200);
    unlinkSync(join(ws, 'report.txt'));
    symlinkSync(join(outside, '.ssh', 'id_ed25519'), join(ws, 'report.txt'));
    const reply = viewer.serveFile(file.url);
    expect(reply.status).toBe(403);
    expect(String(reply.body)).not.toContain('PRIVATE');
  });

  it('refuses once a parent folder is swapped for a symlink out', () => {
    mkdirSync(join(ws, 'sub'));
    writeFileSync(join(ws, 'sub', 'id_ed25519'), 'harmless');
    const file = ok('sub/id_ed25519');
    rmSync(join(ws, 'sub'), { recursive: true });
    symlinkSync(join(outside, '.ssh'), join(ws, 'sub'));
    expect(viewer.serveFile(file.url).status).toBe(403);
  });

  it('a file deleted after its handle was issued is a clear 404', () => {
    writeFileSync(join(ws, 'gone.txt'), 'x');
    const file = ok('gone.txt');
    unlinkSync(join(ws, 'gone.txt'));
    const reply = viewer.serveFile(file.url);
    expect(reply.status).toBe(404);
    expect(String(reply.body)).toContain('does not exist');
  });

  it('unknown, malformed, released and expired handles serve nothing', () => {
    writeFileSync(join(ws, 'a.txt'), 'a');
    expect(viewer.serveFile('/viewer/file/../../a.txt').status).toBe(404);
    expect(viewer.serveFile(`/viewer/file/${'A'.repeat(32)}`).status).toBe(404);
    const released = ok('a.txt');
    viewer.release(released.handle);
    expect(viewer.serveFile(released.url).status).toBe(404);
    const idle = ok('a.txt');
    now += IDLE_MS + 1;
    expect(viewer.serveFile(idle.url).status).toBe(404);
  });

  it('each handle is bound to its one file', () => {
    writeFileSync(join(ws, 'a.txt'), 'A');
    writeFileSync(join(ws, 'b.txt'), 'B');
    const a = ok('a.txt');
    const b = ok('b.txt');
    expect(a.handle).not.toBe(b.handle);
    expect(String(viewer.serveFile(a.url).body)).toBe('A');
    expect(String(viewer.serveFile(b.url).body)).toBe('B');
  });
});

describe('live reload from disk', () => {
  it('reports one debounced change per handle, and none after release', async () => {
    const { appendFileSync } = await import('node:fs');
    const changes: string[] = [];
    const watched = new ViewerService({
      dataDir: data,
      workspaceDir: ws,
      workingDirOf: () => ws,
      onFileChanged: (handle) => changes.push(handle),
    });
    writeFileSync(join(ws, 'live.md'), 'v1');
    const r = watched.resolve({ path: 'live.md' });
    if (r.status !== 'ok') throw new Error('resolve');
    await new Promise((resolve) => setTimeout(resolve, 300)); // the watcher is ready
    for (let i = 0; i < 5; i++) appendFileSync(join(ws, 'live.md'), ` v${i}`);
    await expect.poll(() => changes.length, { timeout: 5_000 }).toBe(1);
    expect(changes[0]).toBe(r.file.handle);
    watched.release(r.file.handle);
    writeFileSync(join(ws, 'live.md'), 'v9');
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(changes).toHaveLength(1);
    await watched.disposeWatcher();
  });
});
