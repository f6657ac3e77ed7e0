/**
 * What the disk policy guards for a caller (disk/protected.ts; docs/guards.md "One disk policy"), on real folders and
 * links: a working directory that is a link is never anchored from a cached moment (a folder flipped into `secrets/`
 * once would anchor every later check there), and the opened path is judged against every anchor of the scope: a
 * `secrets` folder of the default workspace stays guarded for a session working in one of its sub-folders, whatever
 * its own anchor says.
 */
import {
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFile } from './open';
import { canonicalRoot, guardScope, isGuardedPlace } from './protected';
import { SearchReader } from './search-reader';

let base: string;
let ws: string;
let data: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'skald-disk-protected-')));
  ws = join(base, 'ws');
  data = join(base, 'data');
  mkdirSync(join(ws, 'proj', 'docs'), { recursive: true });
  mkdirSync(join(ws, 'proj', 'secrets'));
  mkdirSync(data);
  writeFileSync(join(ws, 'proj', 'docs', 'note.txt'), 'public\n');
  writeFileSync(join(ws, 'proj', 'secrets', 'note.txt'), 'SECRET\n');
  writeFileSync(join(data, 'skald.db'), 'db\n');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('the anchors of the disk policy', () => {
  it('a folder that is a link is canonicalized afresh each time, never from the moment it pointed elsewhere', () => {
    const docs = join(ws, 'proj', 'docs');
    renameSync(docs, `${docs}.away`);
    symlinkSync(join(ws, 'proj', 'secrets'), docs);
    expect(canonicalRoot(docs)).toBe(join(ws, 'proj', 'secrets'));
    unlinkSync(docs);
    renameSync(`${docs}.away`, docs);
    expect(canonicalRoot(docs)).toBe(docs);
  });

  it("judges a path against every anchor: the default workspace's secrets/ and the data folder stay guarded", () => {
    // A session working in proj/docs, whose own anchor was taken while docs pointed into proj/secrets.
    const poisoned = { ...guardScope(join(ws, 'proj', 'secrets'), [data], ws) };
    const secret = join(ws, 'proj', 'secrets', 'note.txt');
    expect(isGuardedPlace(secret, poisoned)).toBe(true);
    expect(() => readFile({ path: secret, shown: 'note.txt', guard: poisoned }, 100)).toThrow(/secrets\/ folder/);
    expect(isGuardedPlace(join(data, 'skald.db'), poisoned)).toBe(true);
    // What is not guarded stays readable: the public file, and a data folder's workspace inside it.
    expect(isGuardedPlace(join(ws, 'proj', 'docs', 'note.txt'), guardScope(join(ws, 'proj', 'docs'), [data], ws))).toBe(
      false,
    );
    expect(isGuardedPlace(join(data, 'workspace', 'x.txt'), guardScope(join(data, 'workspace'), [data]))).toBe(false);
  });
});

describe("the search reader's place check (search-reader.ts), which skips the full one for paths that cannot be guarded", () => {
  it('confirms a read exactly where isGuardedPlace says the place is not guarded, for every kind of place', () => {
    const files = [
      join(ws, 'proj', 'docs', 'note.txt'),
      join(ws, 'proj', 'secrets', 'note.txt'),
      join(ws, 'proj', 'docs', 'Secrets', 'a.txt'), // another case
      join(ws, 'proj', 'docs', 'notsecrets', 'a.txt'), // the word, not the component
      join(ws, 'proj', 'docs', 'SECRETS'), // a file of that name
      join(ws, 'secrets', 'b.txt'), // the default workspace's, outside the session's folder
      join(data, 'skald.db'),
      join(data, 'workspace', 'x.txt'),
      join(base, 'data2', 'y.txt'), // a name that starts like the data folder's
    ];
    for (const file of files) {
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, 'text\n');
    }
    const scopes = [
      guardScope(join(ws, 'proj'), [data], ws),
      guardScope(join(data, 'workspace'), [`${data}/`]), // a root not in canonical form
      guardScope(base, [base]),
    ];
    for (const scope of scopes) {
      const reader = new SearchReader(scope);
      for (const file of files) {
        expect(reader.read(file, 100), file).not.toBeNull();
        expect(reader.confirm(), `${file} in ${JSON.stringify(scope)}`).toBe(!isGuardedPlace(file, scope));
      }
    }
  });
});
