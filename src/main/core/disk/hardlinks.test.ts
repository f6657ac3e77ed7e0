/**
 * How long the walk for the guarded files' identities is kept (hardlinks.ts): past CHECK_MS it is kept only while every
 * folder it read is as it read it (a `stat` each), and any change that can make or move a guarded file is seen at the
 * next check: a file made in `secrets/`, a folder renamed to `secrets`, a `secrets` folder made deeper down, a file of
 * the data folder replaced, a folder that could not be read becoming readable. Real folders and links. A folder
 * changed just before the walk is not trusted (file times move in ticks), and no answer outlives MAX_KEEP_MS.
 * The walk's "now" is passed a minute ahead where a test needs the tree it just made to count as settled.
 */
import {
  chmodSync,
  linkSync,
  mkdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { CHECK_MS, forgetGuardedIdentities, guardedIdentities, hardLinkVerdictAt, MAX_KEEP_MS } from './hardlinks';

let ws: string;
let data: string;
/** Outside the folders the walk reads: a link made here changes none of them. */
let elsewhere: string;
/** A moment far enough after the tree was made that its folders' times count as settled. */
let later: number;

beforeEach(() => {
  const base = realpathSync(tempDir('skald-hardlinks-'));
  ws = join(base, 'ws');
  data = join(base, 'data');
  elsewhere = join(base, 'elsewhere');
  mkdirSync(elsewhere);
  mkdirSync(join(ws, 'src', 'deep'), { recursive: true });
  mkdirSync(join(ws, 'secrets'));
  mkdirSync(data);
  writeFileSync(join(ws, 'secrets', 'key.txt'), 'k\n');
  writeFileSync(join(data, 'settings.json'), '{}\n');
  writeFileSync(join(ws, 'src', 'a.ts'), 'a\n');
  forgetGuardedIdentities();
  later = Date.now() + 60_000;
});
afterAll(cleanupTempDirs);

const ROUND_TIME = 1_700_000_000;
const idOf = (path: string) => `${statSync(path).dev}:${statSync(path).ino}`;
const ask = (now: number) => guardedIdentities(ws, [data], now);
/** The first check after the walk at `later`. */
const atCheck = () => later + CHECK_MS + 1;

/** Each change that can make a guarded file appear: what it does, and the file it makes guarded. */
const CHANGES: [string, () => string][] = [
  [
    "a file made in secrets/, the folder's modification time set back (its change time cannot be)",
    () => {
      const dir = join(ws, 'secrets');
      writeFileSync(join(dir, 'hidden.key'), 'h\n');
      utimesSync(dir, ROUND_TIME, ROUND_TIME); // as it was set before the walk (below)
      return join(dir, 'hidden.key');
    },
  ],
  [
    'a file made in secrets/',
    () => (writeFileSync(join(ws, 'secrets', 'new.key'), 'n\n'), join(ws, 'secrets', 'new.key')),
  ],
  [
    'a file moved into secrets/',
    () => (renameSync(join(ws, 'src', 'a.ts'), join(ws, 'secrets', 'a.ts')), join(ws, 'secrets', 'a.ts')),
  ],
  [
    'a folder renamed to Secrets',
    () => (
      renameSync(join(ws, 'src', 'deep'), join(ws, 'src', 'Secrets')),
      writeFileSync(join(ws, 'src', 'Secrets', 'x'), 'x'),
      join(ws, 'src', 'Secrets', 'x')
    ),
  ],
  [
    'a secrets/ folder made deep down',
    () => (
      mkdirSync(join(ws, 'src', 'deep', 'secrets')),
      writeFileSync(join(ws, 'src', 'deep', 'secrets', 'y'), 'y'),
      join(ws, 'src', 'deep', 'secrets', 'y')
    ),
  ],
  [
    "a data folder's file replaced",
    () => {
      writeFileSync(join(data, 'settings.tmp'), '{"new":1}\n');
      renameSync(join(data, 'settings.tmp'), join(data, 'settings.json'));
      return join(data, 'settings.json');
    },
  ],
];

describe('the walk for the guarded files', () => {
  it('is kept past CHECK_MS while its folders are as it read them, and walked again after MAX_KEEP_MS', () => {
    const first = ask(later);
    expect(first.ids).toEqual(new Set([idOf(join(ws, 'secrets', 'key.txt')), idOf(join(data, 'settings.json'))]));
    expect(ask(later + 1)).toBe(first);
    expect(ask(atCheck())).toBe(first); // checked by stat: nothing changed
    expect(ask(atCheck() + CHECK_MS)).toBe(first);
    // A file written in place (no entry added or removed) changes nothing the walk rests on.
    writeFileSync(join(ws, 'src', 'a.ts'), 'changed\n');
    expect(ask(atCheck() + 2 * CHECK_MS)).toBe(first);
    const anew = ask(later + MAX_KEEP_MS);
    expect(anew).not.toBe(first);
    expect(anew.ids).toEqual(first.ids);
  });

  for (const [what, change] of CHANGES) {
    it(`sees ${what} at the next check, and a hard link to it is guarded`, () => {
      // A modification time a program can put back exactly (whole seconds): only the change time then shows a change.
      utimesSync(join(ws, 'secrets'), ROUND_TIME, ROUND_TIME);
      const first = ask(later);
      const made = change();
      const link = join(elsewhere, 'innocent.txt');
      linkSync(made, link);
      expect(ask(later + 1)).toBe(first); // within CHECK_MS the answer is the walk's (docs/guards.md "Hard links")
      const checked = ask(atCheck());
      expect(checked).not.toBe(first);
      expect(checked.ids.has(idOf(made))).toBe(true);
      // Through the verdict the readers ask (it asks at the real time, which is before `later`: the clock went back,
      // and that is a reason to walk again too).
      expect(hardLinkVerdictAt(link, ws, [data])).toBe('guarded');
    });
  }

  it('a hard link made to a guarded file the walk saw is guarded at once, without a new walk', () => {
    const first = ask(later);
    const link = join(ws, 'src', 'key-again.txt');
    linkSync(join(ws, 'secrets', 'key.txt'), link);
    expect(ask(later + 1)).toBe(first);
    expect(first.ids.has(idOf(link))).toBe(true);
  });

  it('a folder that could not be read and now can is read at the next check', () => {
    if (process.getuid?.() === 0) return; // root reads every folder whatever its mode: nothing to show here
    chmodSync(join(ws, 'secrets'), 0o000);
    try {
      const first = ask(later);
      expect(first.ids.size).toBe(1); // the data folder's file only
      chmodSync(join(ws, 'secrets'), 0o755);
      expect(ask(atCheck()).ids.has(idOf(join(ws, 'secrets', 'key.txt')))).toBe(true);
    } finally {
      chmodSync(join(ws, 'secrets'), 0o755);
    }
  });

  it('a folder changed just before the walk is not trusted: the next check walks again', () => {
    const now = Date.now(); // the tree was made a moment ago
    const first = ask(now);
    expect(ask(now + CHECK_MS + 1)).not.toBe(first);
  });

  it('a clock set back walks again', () => {
    const first = ask(later);
    expect(ask(later - 1)).not.toBe(first);
  });

  it('a folder removed or swapped for another is a change', () => {
    const first = ask(later);
    rmSync(join(ws, 'src', 'deep'), { recursive: true });
    expect(ask(atCheck())).not.toBe(first);
    const second = ask(later + 3 * CHECK_MS);
    // Swapped for a folder of the same name: another identity.
    renameSync(join(ws, 'src'), join(ws, 'src-old'));
    mkdirSync(join(ws, 'src'));
    expect(ask(later + 5 * CHECK_MS)).not.toBe(second);
  });
});
