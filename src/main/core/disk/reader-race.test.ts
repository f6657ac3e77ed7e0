/**
 * The race every check-then-open loses (docs/guards.md "One disk policy"): a child process flips a folder between a
 * real folder and a symlink into `secrets/` as fast as it can, while a reader fetches a file under it again and again.
 * A check before the open and another after it pass whenever the folder is real at both moments and a link in
 * between: only the identity checked on the opened descriptor closes it. No fetch may return the secret: 1,500 of the
 * viewer's file route (as the attack made them), and several hundred of the other readers that read quickly.
 * Real core, real links, a real child process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { DISK_READERS, PUBLIC, SECRET, type Answer } from '../../../../test/helpers/disk-readers';
import { cleanupTempDirs } from '../../../../test/helpers/temp';

let h: Harness;
let cases = 0;
let flipper: ChildProcess | null = null;
/** Most spin turns a state is held (some tens of microseconds). */
const HOLD = 20_000;

beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterEach(() => {
  flipper?.kill('SIGKILL');
  flipper = null;
});
afterAll(async () => {
  await h.close();
  cleanupTempDirs();
});

/**
 * Flips `dir` between the real folder and a symlink to `secrets` in a loop: rename it away, put the link in its place,
 * take the link away, rename the folder back. Resolves once the child is running.
 */
async function startFlipping(dir: string, secrets: string): Promise<void> {
  // Each state is held for a random moment (a spin of up to HOLD turns): flips at a steady pace fall between the
  // checks and the open as often as not, instead of always meeting a folder that is missing for a moment.
  const script = `
    const fs = require('fs');
    const [dir, away, secrets] = process.argv.slice(1);
    const hold = () => { for (let i = Math.random() * ${HOLD}; i > 0; i--); };
    process.send('ready');
    for (;;) {
      try { fs.renameSync(dir, away); fs.symlinkSync(secrets, dir); } catch {}
      hold();
      try { fs.unlinkSync(dir); fs.renameSync(away, dir); } catch {}
      hold();
    }`;
  flipper = spawn(process.execPath, ['-e', script, dir, `${dir}.away`, secrets], {
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  await new Promise<void>((ready) => flipper!.once('message', () => ready()));
}

/** The readers raced, with how many fetches each makes (the viewer's route: the 1,500). */
const RACED: [string, number][] = [
  ["the viewer's file route", 1_500],
  ["the viewer's preview origin (the page)", 400],
  ['read_file', 300],
  ['search_file', 300],
  ['grep_files', 300],
  ['the before-image a write call keeps (blob store)', 400],
  ['revert (the file as it is now, in the conflict it shows)', 300],
];

describe('a folder flipped between a real folder and a link into secrets/ while the file is read', () => {
  it.each(RACED)(
    '%s never returns the secret (%i fetches)',
    async (name, fetches) => {
      const reader = DISK_READERS.find((r) => r.name === name)!;
      const base = join(h.workspace, 'cases', String(++cases));
      const dir = join(base, 'docs');
      const secrets = join(base, 'secrets');
      mkdirSync(dir, { recursive: true });
      mkdirSync(secrets);
      writeFileSync(join(dir, reader.file), reader.content(PUBLIC));
      writeFileSync(join(secrets, reader.file), reader.content(SECRET));
      const read = await reader.open({ h, dir, path: join(dir, reader.file) });
      await startFlipping(dir, secrets);
      const answers: Answer[] = [];
      for (let i = 0; i < fetches; i++) answers.push(await read());
      flipper!.kill('SIGKILL');
      const leaked = answers.filter((a) => ('text' in a ? a.text : a.refusal).includes(SECRET));
      expect(leaked).toEqual([]);
      // The flips really met the reads: some did not give the file (the folder was a link, or gone, at that moment).
      expect(answers.filter((a) => !('text' in a ? a.text : a.refusal).includes(PUBLIC)).length).toBeGreaterThan(0);
    },
    120_000,
  );
});
