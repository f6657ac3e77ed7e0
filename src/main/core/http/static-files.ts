/** Serves the built renderer from one folder: no traversal, MIME by extension, index.html for the root. */
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

export async function readStatic(root: string, urlPath: string): Promise<{ body: Buffer; type: string } | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const full = normalize(join(root, relative));
  if (full !== root && !full.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  try {
    const info = await stat(full);
    if (!info.isFile()) return null;
    return { body: await readFile(full), type: MIME[extname(full).toLowerCase()] ?? 'application/octet-stream' };
  } catch {
    return null;
  }
}
