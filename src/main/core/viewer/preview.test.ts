/**
 * The HTML preview's origin: its CSP, what it serves (the page, images of its own folder) and what it refuses
 * (other files, other folders, secrets, unknown tokens), against a real temp workspace.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCsp } from '../security/csp';
import { ViewerService } from './viewer-service';

let root: string;
let ws: string;
let viewer: ViewerService;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'skald-preview-')));
  ws = join(root, 'ws');
  mkdirSync(join(ws, 'site', 'secrets'), { recursive: true });
  writeFileSync(join(ws, 'site', 'index.html'), '<!doctype html><h1>Hi</h1>');
  writeFileSync(join(ws, 'site', 'pic.png'), 'PNG');
  writeFileSync(join(ws, 'site', 'data.json'), '{}');
  writeFileSync(join(ws, 'site', 'secrets', 'pic.png'), 'SECRET');
  writeFileSync(join(ws, 'other.png'), 'OTHER');
  symlinkSync(join(ws, 'other.png'), join(ws, 'site', 'link.png'));
  viewer = new ViewerService({ dataDir: join(root, 'data'), workspaceDir: ws, workingDirOf: () => ws });
  viewer.preview.setBase('http://127.0.0.1:9999');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

function previewPath(): { base: string; page: string } {
  const r = viewer.resolve({ path: 'site/index.html' });
  if (r.status !== 'ok') throw new Error(JSON.stringify(r));
  const url = new URL(viewer.previewUrl(r.file.handle));
  const base = url.pathname.slice(0, url.pathname.lastIndexOf('/') + 1);
  return { base, page: url.pathname };
}

describe('HTML preview origin', () => {
  it('serves the page as a document with its own CSP: no network, no forms, images only from its folder', () => {
    const { base, page } = previewPath();
    const reply = viewer.preview.serve(page);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^text\/html/);
    const csp = parseCsp(reply.headers['content-security-policy']!);
    expect(csp.get('connect-src')).toEqual(["'none'"]);
    expect(csp.get('form-action')).toEqual(["'none'"]);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('img-src')).toEqual(['data:', 'blob:', `http://127.0.0.1:9999${base}`]);
    expect(csp.get('sandbox')).toEqual(['allow-scripts']);
    // The link bridge goes after the doctype, so the page keeps standards mode.
    expect(String(reply.body)).toMatch(/^<!doctype html><script>/);
  });

  it('serves images of its own folder only', () => {
    const { base } = previewPath();
    expect(viewer.preview.serve(`${base}pic.png`).status).toBe(200);
    expect(viewer.preview.serve(`${base}data.json`).status).toBe(403);
    expect(viewer.preview.serve(`${base}..%2Fother.png`).status).toBe(403);
    expect(viewer.preview.serve(`${base}secrets/pic.png`).status).toBe(403);
    expect(viewer.preview.serve(`${base}link.png`).status).toBe(403); // a symlink out of the folder
  });

  it('unknown tokens and released handles serve nothing', () => {
    const { page } = previewPath();
    expect(viewer.preview.serve(`/${'A'.repeat(32)}/index.html`).status).toBe(404);
    const r = viewer.resolve({ path: 'site/index.html' });
    if (r.status !== 'ok') throw new Error('resolve');
    const own = new URL(viewer.previewUrl(r.file.handle)).pathname;
    viewer.release(r.file.handle);
    expect(viewer.preview.serve(own).status).toBe(404);
    expect(viewer.preview.serve(page).status).toBe(200);
  });
});
