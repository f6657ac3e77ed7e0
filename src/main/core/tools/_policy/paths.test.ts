/**
 * `canonicalBelow` gives the answer `canonicalizeForPolicy` gives, or none (docs/guards.md "Canonical paths"):
 * on a real temp tree with symlinks inside and out, dangling and looping links, a file used as a folder and names
 * that do not exist, every path is compared with the realpath loop's answer; the plain ones must be answered by
 * the walk itself (else the gate's fast path would silently be gone). Checks F1, X4 in docs/security-checks.md.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, normalize, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Guards } from '../../approval/guards';
import { canonicalBelow, canonicalizeForPolicy } from './paths';

const linux = process.platform === 'linux';
let root: string;
let ws: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'skald-paths-')));
  ws = join(root, 'data', 'workspace');
  mkdirSync(join(ws, 'src', 'deep'), { recursive: true });
  mkdirSync(join(root, 'outside'));
  writeFileSync(join(ws, 'src', 'a.ts'), 'a');
  writeFileSync(join(root, 'outside', 'o.txt'), 'o');
  symlinkSync(join(ws, 'src'), join(ws, 'link-in'));
  symlinkSync(join(root, 'outside'), join(ws, 'link-out'));
  symlinkSync('../outside/o.txt', join(ws, 'src', 'rel-out'));
  symlinkSync(join(ws, 'nowhere'), join(ws, 'dangling'));
  symlinkSync(join(ws, 'loop-b'), join(ws, 'loop-a'));
  symlinkSync(join(ws, 'loop-a'), join(ws, 'loop-b'));
  symlinkSync(ws, join(root, 'ws-link'));
  symlinkSync(join(root, 'data'), join(root, 'data-link'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** What the gate now computes for a path under the workspace as written `dir`. */
const viaWalk = (absolute: string, dir = ws) =>
  canonicalBelow(absolute, dir, canonicalizeForPolicy(dir, '/')) ?? canonicalizeForPolicy(absolute, '/');

describe('canonicalBelow', () => {
  const plain = ['src/a.ts', 'src/new.ts', 'src/deep', 'src/deep/x/y/z.ts', 'new/dir/file.txt', 'src', 'a b/c'];
  const tricky = [
    'link-in/a.ts',
    'link-in/new/x.ts',
    'link-out/o.txt',
    'link-out/new.txt',
    'src/rel-out',
    'dangling',
    'dangling/x',
    'loop-a',
    'loop-a/x',
    'src/a.ts/x',
    'src/a.ts/x/y',
  ];

  it.each([...plain, ...tricky])('gives the realpath loop’s answer for %s', (rel) => {
    const absolute = join(ws, rel);
    expect(viaWalk(absolute)).toBe(canonicalizeForPolicy(absolute, '/'));
  });

  it.runIf(linux).each(plain)('answers %s by itself, with no realpath', (rel) => {
    expect(canonicalBelow(join(ws, rel), ws, ws)).toBe(canonicalizeForPolicy(join(ws, rel), '/'));
  });

  it.each(['link-in/a.ts', 'link-out/new.txt', 'dangling', 'loop-a/x', 'src/a.ts/x', `src/deep/`, 'src/./a.ts'])(
    'leaves %s to realpath',
    (rel) => {
      expect(canonicalBelow(`${ws}/${rel}`, ws, ws)).toBeNull();
    },
  );

  it('gives the folder itself, and nothing for a path outside it or a sibling sharing its prefix', () => {
    expect(canonicalBelow(ws, ws, '/real/ws')).toBe(linux ? '/real/ws' : null);
    expect(canonicalBelow(`${ws}-evil/x`, ws, ws)).toBeNull();
    expect(canonicalBelow(join(root, 'outside', 'o.txt'), ws, ws)).toBeNull();
  });

  it('walks a workspace reached through a symlink from its real path', () => {
    const viaLink = join(root, 'ws-link');
    for (const rel of [...plain, ...tricky])
      expect(viaWalk(join(viaLink, rel), viaLink)).toBe(canonicalizeForPolicy(join(viaLink, rel), '/'));
    if (linux) expect(canonicalBelow(join(viaLink, 'src/a.ts'), viaLink, ws)).toBe(join(ws, 'src/a.ts'));
  });

  it('random paths over links, files and missing names agree with the realpath loop', () => {
    const parts = ['src', 'deep', 'a.ts', 'link-in', 'link-out', 'dangling', 'loop-a', 'new', 'o.txt', 'rel-out'];
    let seed = 7;
    const next = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed);
    for (let i = 0; i < 400; i++) {
      const rel = Array.from({ length: 1 + (next() % 5) }, () => parts[next() % parts.length]).join('/');
      expect(viaWalk(join(ws, rel)), rel).toBe(canonicalizeForPolicy(join(ws, rel), '/'));
    }
  });
});

/** The walk up `canonicalizeForPolicy` replaced: each ancestor tried in turn, from the path up (the oracle). */
function walkUp(path: string, base: string): string {
  const absolute = isAbsolute(path) ? normalize(path) : resolve(base, path);
  const tail: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = realpathSync.native(current);
      return tail.length === 0 ? real : join(real, ...tail.reverse());
    } catch {
      const parent = resolve(current, '..');
      if (parent === current) return absolute;
      tail.push(current.slice(parent.length).replace(/^[\\/]+/, ''));
      current = parent;
    }
  }
}

describe('canonicalizeForPolicy', () => {
  it('gives the walk up’s answer over links, files used as folders, missing names and trailing separators', () => {
    const parts = [
      'src',
      'deep',
      'a.ts',
      'link-in',
      'link-out',
      'dangling',
      'loop-a',
      'new',
      'o.txt',
      'rel-out',
      '..',
      '.',
    ];
    let seed = 11;
    const next = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed);
    const paths = ['/', '/nonexistent', '/nonexistent/', ws, `${ws}/`, 'src/a.ts/', 'link-out/', 'relative/new/'];
    for (let i = 0; i < 400; i++)
      paths.push(
        Array.from({ length: 1 + (next() % 6) }, () => parts[next() % parts.length]).join('/') +
          (next() % 4 === 0 ? '/' : ''),
      );
    for (const p of paths) expect(canonicalizeForPolicy(p, ws), p).toBe(walkUp(p, ws));
  });

  it('answers a path of thousands of names, inside and outside the workspace, as the walk up does, in few tries', () => {
    const names = 'a/'.repeat(3_000);
    for (const p of [`/nonexistent/${names}x`, `${ws}/link-out/${names}`, `${ws}/src/${names}`]) {
      const expected = walkUp(p, ws);
      const tries = vi.spyOn(realpathSync, 'native');
      expect(canonicalizeForPolicy(p, ws)).toBe(expected);
      // The walk up tries about 3,000 ancestors (each a copy of up to 6 KB): a path of 16,000 names held the gate 3.8 s.
      expect(tries.mock.calls.length).toBeLessThan(20);
      tries.mockRestore();
    }
  });
});

describe('Guards: the roots and the paths of one decision', () => {
  const guards = (workspaceDir: string, dataDir: string) =>
    new Guards({ workspaceDir, dataDir, dbFile: join(dataDir, 'skald.db') });

  it('derives the data folder above a workspace whose path has no symlink, and resolves it otherwise', () => {
    expect(guards(ws, join(root, 'data')).roots()).toEqual({
      wsRaw: ws,
      wsCanon: ws,
      dataRaw: join(root, 'data'),
      dataCanon: join(root, 'data'),
    });
    // Through a symlinked data folder the workspace's real path differs from its path: both are resolved.
    const viaLink = guards(join(root, 'data-link', 'workspace'), join(root, 'data-link')).roots();
    expect(viaLink).toMatchObject({ wsCanon: ws, dataCanon: join(root, 'data') });
  });

  it('canonical() agrees with the realpath loop under, beside and outside the workspace', () => {
    for (const g of [
      guards(ws, join(root, 'data')),
      guards(join(root, 'data-link', 'workspace'), join(root, 'data-link')),
    ]) {
      const r = g.roots();
      for (const p of [
        join(ws, 'src/a.ts'),
        join(ws, 'link-out/new.txt'),
        join(r.wsRaw, 'src/new/x.ts'),
        join(r.wsRaw, 'link-in/a.ts'),
        join(root, 'outside/o.txt'),
        join(root, 'data/skald.db'),
        '/',
      ]) {
        expect(g.canonical(r, p), p).toBe(canonicalizeForPolicy(p, '/'));
      }
    }
  });
});
