/**
 * Rewind (docs/rewind.md): restoring 100 files of 100 KB that the agent edited after a message, and the preview of
 * what would change, against what a shadow git repository (Cline's checkpoints) does for the same files in the same
 * run: `git checkout -- .` and `git diff --stat`. Targets from issue 46: the restore under 1 s, the preview under
 * 200 ms. Ours writes each file atomically and durably (temp file, fsync, rename) and commits the journal and the
 * end of the run with an fsync each; git does not fsync the files it checks out (its default `core.fsync`).
 * The files are put back as the agent left them before each run (not timed), in both worlds.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildWorld, editedFiles, serviceOf } from '../test/helpers/rewind-world';
import { median, ms, type BenchOptions, type BenchRow } from './table';

const FILES = 100;
const SIZE = 100 * 1024;

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });

/** `--quick`: 3 runs a side instead of 15. */
export async function run({ quick }: BenchOptions): Promise<BenchRow[]> {
  const runs = quick ? 3 : 15;
  const changes = editedFiles(FILES, SIZE);
  const world = buildWorld(realpathSync(mkdtempSync(join(tmpdir(), 'skald-bench-rewind-'))), changes);
  const rewind = serviceOf(world);
  const repo = realpathSync(mkdtempSync(join(tmpdir(), 'skald-bench-rewind-git-')));
  git(repo, 'init', '-q');
  for (const c of changes) writeFileSync(join(repo, c.name), c.before!);
  git(repo, 'add', '-A');
  git(repo, '-c', 'user.email=b@b', '-c', 'user.name=b', 'commit', '-q', '-m', 'checkpoint');
  const agentLeftIt = (dir: string) => {
    for (const c of changes) writeFileSync(join(dir, c.name), c.after!);
  };

  const times = {
    restore: [] as number[],
    gitRestore: [] as number[],
    preview: [] as number[],
    gitPreview: [] as number[],
  };
  let wrong: string | undefined;
  const timed = (into: number[], work: () => unknown) => {
    const started = performance.now();
    work();
    into.push(performance.now() - started);
  };
  for (let i = -1; i < runs; i++) {
    agentLeftIt(world.workspace);
    agentLeftIt(repo);
    const sides = [
      () => {
        const scratch: number[] = [];
        timed(i < 0 ? scratch : times.preview, () => rewind.preview(world.sessionId, world.messageId));
        const preview = rewind.preview(world.sessionId, world.messageId);
        if (preview.files.filter((f) => f.state === 'restore').length !== FILES) wrong = 'the preview missed files';
        const seen = preview.files.map((f) => ({ path: f.path, hash: f.currentHash }));
        timed(i < 0 ? scratch : times.restore, () => {
          const result = rewind.apply({ sessionId: world.sessionId, messageId: world.messageId, mode: 'files', seen });
          if (result.status !== 'done' || result.files.some((f) => f.outcome !== 'restored')) wrong = 'not restored';
        });
      },
      () => {
        const scratch: number[] = [];
        timed(i < 0 ? scratch : times.gitPreview, () => git(repo, 'diff', '--stat'));
        timed(i < 0 ? scratch : times.gitRestore, () => git(repo, 'checkout', '-q', '--', '.'));
      },
    ];
    for (const side of i % 2 === 0 ? sides : sides.reverse()) side();
  }
  world.db.close();
  const row = (name: string, ours: number[], peer: number[], bound: number, peerName: string): BenchRow => {
    const m = median(ours);
    return {
      name,
      ours: `${ms(m)} median (max ${ms(Math.max(...ours))})`,
      peer: `${ms(median(peer))} ${peerName}`,
      ratio: m / median(peer),
      target: `< ${bound} ms`,
      pass: m < bound,
      ...(wrong ? { wrong } : {}),
    };
  };
  return [
    row(`rewind: restore ${FILES} files of 100 KB`, times.restore, times.gitRestore, 1000, 'git checkout -- .'),
    row(`rewind: preview of ${FILES} files of 100 KB`, times.preview, times.gitPreview, 200, 'git diff --stat'),
  ];
}
