/**
 * Crash tests (docs/rewind.md "Crash and resume"): a real child process applies a rewind and is SIGKILLed at every
 * step of it (before and after the journal's commit, after each file, after the end's commit), and at moments the
 * parent picks during a 100-file rewind. After each kill the data folder is opened again: every file is either as
 * before the message or as the agent left it, the journal says which (it reads the disk), and finishing the rewind
 * completes it: every file restored, the chat forked once, the decision log with one entry.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleChild } from '../../../../test/helpers/bundle-child';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { listDecisions } from '../approval/decision-log';
import { buildWorld, editedFiles, openWorld, serviceOf, type FileChange } from '../../../../test/helpers/rewind-world';

afterAll(() => {
  cleanupTempDirs();
  rmSync(child, { force: true });
});

const root = join(__dirname, '../../../..');
let child = '';
// One bundle of the child: a fresh process starts in a fraction of tsx's time (test/helpers/bundle-child.ts).
beforeAll(async () => {
  child = await bundleChild('rewind-crash-child');
});

/** Runs the child; resolves with how it ended. `killAfterMs`: SIGKILL it that long after it starts applying. */
function runChild(args: string[], killAfterMs?: number): Promise<{ signal: NodeJS.Signals | null; out: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, ...args], { cwd: root });
    let out = '';
    proc.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (killAfterMs !== undefined && out.includes('applying')) setTimeout(() => proc.kill('SIGKILL'), killAfterMs);
    });
    proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
    proc.on('error', reject);
    proc.on('exit', (_code, signal) => resolve({ signal, out }));
  });
}

/**
 * The world is built once (its writes are fsynced: slow on a loaded disk) and kept aside; each kill starts from a copy
 * put back at the same path, since the images name their files by absolute path.
 */
function builder(changes: readonly FileChange[]) {
  const dir = tempDir('skald-rewind-crash-');
  const w = buildWorld(join(dir, 'data'), changes);
  const ids = { dataDir: w.dataDir, sessionId: w.sessionId, messageId: w.messageId };
  w.db.close();
  cpSync(w.dataDir, join(dir, 'kept'), { recursive: true });
  return () => {
    rmSync(ids.dataDir, { recursive: true, force: true });
    cpSync(join(dir, 'kept'), ids.dataDir, { recursive: true });
    return ids;
  };
}

const contentOf = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : null);

/** After a kill: each file before or after, and the journal's word for each matches the disk. */
function checkHalfway(dataDir: string, changes: readonly FileChange[]): 'none' | 'running' | 'done' {
  const w = openWorld(dataDir);
  try {
    const states = new Map<string, string>();
    for (const c of changes) {
      const now = contentOf(join(w.workspace, c.name));
      expect([c.before, c.after], c.name).toContain(now);
      states.set(c.name, now === c.before ? 'restored' : 'pending');
    }
    const runs = serviceOf(w).unfinished();
    const done = w.db.prepare("SELECT count(*) AS n FROM rewind_runs WHERE state = 'done'").get() as { n: number };
    if (runs.length === 0) return done.n ? 'done' : 'none';
    expect(runs).toHaveLength(1);
    for (const f of runs[0]!.files) expect(f.state, f.shown).toBe(states.get(f.shown));
    return 'running';
  } finally {
    w.db.close();
  }
}

function finishAndCheck(ids: ReturnType<ReturnType<typeof builder>>, changes: readonly FileChange[], phase: string) {
  const w = openWorld(ids.dataDir);
  try {
    // Finishing, in a fresh open of the data folder: resume the interrupted run, or (killed before the journal's
    // commit, when nothing had changed) rewind again from the start.
    const rewind = serviceOf(w);
    if (phase === 'none') {
      const seen = rewind
        .preview(ids.sessionId, ids.messageId)
        .files.map((f) => ({ path: f.path, hash: f.currentHash }));
      rewind.apply({ sessionId: ids.sessionId, messageId: ids.messageId, mode: 'files_and_chat', seen });
    } else for (const run of rewind.unfinished()) rewind.resume(run.runId);
    for (const c of changes) expect(contentOf(join(w.workspace, c.name)), c.name).toBe(c.before);
    expect(serviceOf(w).unfinished()).toEqual([]);
    const notes = w.db.prepare("SELECT count(*) AS n FROM chat_history WHERE role = 'agent'").get() as { n: number };
    expect(notes.n).toBe(1);
    expect(listDecisions(w.db).filter((d) => d.tool_call_id.startsWith('rewind-'))).toHaveLength(1);
    const replaced = w.db
      .prepare("SELECT count(*) AS n FROM chat_history WHERE id >= ? AND json_extract(metadata, '$.replaced') = 1")
      .get(ids.messageId) as { n: number };
    expect(replaced.n).toBe(2);
  } finally {
    w.db.close();
  }
}

const SMALL: FileChange[] = [
  ...editedFiles(8, 2_000),
  { name: 'made-a.txt', before: null, after: 'created\n' },
  { name: 'made-b.txt', before: null, after: 'created\n' },
  { name: 'gone-a.txt', before: 'was here\n', after: null },
  { name: 'gone-b.txt', before: 'was here too\n', after: null },
];

describe('rewind killed with SIGKILL', () => {
  it('at every step of a 12-file rewind: before or after, the journal says which, resume completes it', async () => {
    const points = Array.from({ length: SMALL.length + 3 }, (_, i) => i - 2); // -2 … files count
    const fresh = builder(SMALL);
    for (const point of points) {
      const ids = fresh();
      const killed = await runChild([ids.dataDir, String(ids.sessionId), String(ids.messageId), String(point)]);
      expect(killed.signal, `${point}: ${killed.out}`).toBe('SIGKILL');
      const phase = checkHalfway(ids.dataDir, SMALL);
      expect(phase, `kill point ${point}`).toBe(point === -2 ? 'none' : point === SMALL.length ? 'done' : 'running');
      if (phase !== 'done') finishAndCheck(ids, SMALL, phase);
    }
  }, 240_000);

  it('during a 100-file rewind of 100 KB files, at fixed steps and at moments the parent picks', async () => {
    const changes = editedFiles(100, 100 * 1024);
    const fresh = builder(changes);
    for (const kill of [{ at: 0 }, { at: 57 }, { at: 99 }, { ms: 5 }, { ms: 40 }, { ms: 120 }]) {
      const ids = fresh();
      const args = [ids.dataDir, String(ids.sessionId), String(ids.messageId)];
      const killed =
        'at' in kill ? await runChild([...args, String(kill.at)]) : await runChild([...args, 'timed'], kill.ms);
      const phase = checkHalfway(ids.dataDir, changes);
      if (killed.signal !== 'SIGKILL') expect(phase).toBe('done'); // a timed kill that came after the end
      if (phase !== 'done') finishAndCheck(ids, changes, phase);
    }
  }, 240_000);
});
