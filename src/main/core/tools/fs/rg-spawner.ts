/**
 * Starts rg processes, through a small long-lived bash process where there is one (docs/performance.md "rg's process
 * starts"). Node starts a child by forking itself (libuv on Linux), which copies the page tables of the whole app:
 * 3-4 ms at 50 MB of memory, 30-40 ms at 240 MB and more at 700 MB, on the main thread; and a page of grep_files may
 * start several rg processes. bash forks in a fraction of that whatever the app's size, so it is started once, at the
 * first rg run, and starts each rg for us:
 * - A job's arguments (the folder to run in, then rg's path and arguments) are written by us, NUL-separated, to a
 *   file in a private temp folder (0700); bash reads them with `mapfile -d ''` into an array and runs
 *   `exec "${a[@]}"`: no argument is ever shell text (a pattern `$(rm -rf ~)` is one literal argument to rg).
 * - Only the job's number goes down bash's stdin. rg writes into a FIFO named by that number, which we read as a
 *   pipe; its stderr goes to a file. bash reports `F id` (the FIFO exists), `S id pid` (rg's pid, so a stop kills rg
 *   itself) and `E id status` (rg has exited) on its stdout, one short line each (one write, so lines from jobs
 *   running side by side never mix).
 * - Only on Linux (libuv forks there; elsewhere it spawns without copying the app). Where bash is absent or older
 *   than 4.4, could not start, or died, rg is started by Node as before.
 * bash exits, and removes its folder, when our end of its stdin closes (the app ended).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { constants, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BASH = '/bin/bash';
/** After this many starts of the spawner (it died each time), rg is started by Node for the rest of the process. */
const MAX_STARTS = 3;
/** bash's status when the job's folder cannot be entered (200) or rg cannot be run (126, 127): 'unusable'. */
const CANNOT_RUN = new Set([126, 127, 200]);

/** The spawner's exit status when its bash is older than 4.4 (no `mapfile -d`): it is not started again. */
const UNSUPPORTED = 3;

/**
 * The spawner's loop; `$1` is its private folder. A job's number is checked to be digits before it names a file; the
 * arguments never leave the array. The inner subshell opens the FIFO (waiting for our reader), enters the folder and
 * becomes rg (`exec`), so `$!` is rg's pid; the outer one waits for it and reports its status.
 */
const SCRIPT = `
(( BASH_VERSINFO[0] > 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] >= 4) )) || exit ${UNSUPPORTED}
dir=$1
trap 'rm -rf -- "$dir"' EXIT
while IFS= read -r id; do
  [[ $id =~ ^[0-9]+$ ]] || continue
  [[ -p $dir/$id.out ]] || mkfifo -m 600 -- "$dir/$id.out" || { echo "E $id 200"; continue; }
  echo "F $id"
  mapfile -d '' -t a < "$dir/$id.args" || { echo "E $id 200"; continue; }
  (
    ( cd -- "\${a[0]}" 2>/dev/null || exit 200; exec "\${a[@]:1}" ) >"$dir/$id.out" 2>"$dir/$id.err" </dev/null &
    echo "S $id $!"
    wait "$!"
    echo "E $id $?"
  ) &
done
`;

export type RgExit = { code: number | null; stderr: string } | 'unusable';

/** What a caller hears of one rg run: its stdout as it comes, then its end (after the last of its output). */
export interface RgHandlers {
  onData: (chunk: Buffer) => void;
  /** rg has exited and its output is read: its code (null: killed) and stderr; 'unusable': it could not start. */
  onExit: (exit: RgExit) => void;
}

export interface RgRun {
  /** Kills rg (SIGKILL); its end is still reported. */
  kill: () => void;
}

/** rg started by Node itself: the fallback, and the way where no bash exists. */
function spawnDirect(rgPath: string, args: readonly string[], cwd: string | undefined, on: RgHandlers): RgRun {
  const child = spawn(rgPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: {} });
  let stderr = '';
  child.stdout.on('data', on.onData);
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString('utf8');
  });
  let ended = false;
  child.on('error', () => {
    if (!ended) on.onExit('unusable');
    ended = true;
  });
  child.on('close', (code) => {
    if (!ended) on.onExit({ code, stderr });
    ended = true;
  });
  return { kill: () => child.kill('SIGKILL') };
}

/** Opens a FIFO for reading without waiting for its writer, as a pipe the event loop reads. */
function openReader(path: string): Socket | null {
  try {
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    return new Socket({ fd, readable: true, writable: false });
  } catch {
    return null;
  }
}

function killPid(pid: number) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {} // already gone
}

interface Job {
  start: () => void;
  started: (pid: number) => void;
  exited: (status: number) => void;
  /** The spawner died before rg started: Node runs it instead. */
  lost: () => void;
}

class Spawner {
  readonly child: ChildProcess;
  readonly dir: string;
  dead = false;
  private readonly jobs = new Map<number, Job>();
  private readonly free: number[] = [];
  private readonly fifos = new Set<number>();
  private nextId = 0;

  constructor() {
    // In memory where the system has it (each job writes its arguments there).
    this.dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'skald-rg-'));
    this.child = spawn(BASH, ['-c', SCRIPT, 'skald-rg-spawner', this.dir], {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: {},
    });
    this.child.unref();
    this.setBusy(false);
    let rest = '';
    this.child.stdout!.setEncoding('latin1');
    this.child.stdout!.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      for (const line of lines) this.onLine(line);
    });
    this.child.stdin!.on('error', () => this.die());
    this.child.on('error', () => this.die());
    this.child.on('exit', (code) => {
      if (code === UNSUPPORTED) starts = MAX_STARTS;
      this.die();
    });
  }

  /** bash and its pipes keep the app alive only while an rg it started runs. */
  private setBusy(busy: boolean) {
    for (const end of [this.child.stdin, this.child.stdout] as unknown as Socket[]) {
      if (busy) end.ref();
      else end.unref();
    }
  }

  private onLine(line: string) {
    const [kind, idText, value] = line.split(' ');
    const id = Number(idText);
    const job = this.jobs.get(id);
    if (!job) return;
    if (kind === 'F') {
      this.fifos.add(id);
      job.start();
    } else if (kind === 'S') job.started(Number(value));
    else if (kind === 'E') {
      this.jobs.delete(id);
      if (this.jobs.size === 0 && !this.dead) this.setBusy(false);
      job.exited(Number(value));
    }
  }

  private die() {
    if (this.dead) return;
    this.dead = true;
    if (spawner === this) spawner = null;
    // bash's trap did not run when it was killed; a started rg keeps its FIFO open, so the folder can go.
    try {
      rmSync(this.dir, { recursive: true, force: true });
    } catch {}
    const lost = [...this.jobs.values()];
    this.jobs.clear();
    for (const job of lost) job.lost();
  }

  /** Starts rg through bash; null when bash is gone (the caller starts rg itself). */
  run(rgPath: string, args: readonly string[], cwd: string | undefined, on: RgHandlers): RgRun | null {
    if (this.dead) return null;
    const id = this.free.pop() ?? this.nextId++;
    const fifo = join(this.dir, `${id}.out`);
    try {
      const argv = [cwd ?? process.cwd(), rgPath, ...args];
      writeFileSync(join(this.dir, `${id}.args`), `${argv.join('\0')}\0`, { mode: 0o600 });
    } catch {
      this.free.push(id);
      return null;
    }
    let reader: Socket | null = null;
    let pid: number | null = null;
    let killed = false;
    let status: number | null = null;
    let outputEnded = false;
    let ended = false;
    let direct: RgRun | null = null;
    const end = (exit: RgExit) => {
      if (!ended) on.onExit(exit);
      ended = true;
    };
    let released = false;
    const finish = () => {
      if (status === null || !outputEnded) return;
      // The number (and its FIFO) is used again only now: rg has exited and our reader is closed, so what a stopped rg
      // left unread in the pipe went with it and never reaches the next job's reader.
      if (!released) this.free.push(id);
      released = true;
      if (CANNOT_RUN.has(status)) return end('unusable');
      let stderr = '';
      if (status === 2)
        try {
          stderr = readFileSync(join(this.dir, `${id}.err`), 'utf8').slice(0, 4096);
        } catch {}
      end({ code: status >= 128 ? null : status, stderr });
    };
    const job: Job = {
      start: () => {
        if (reader || killed || ended) return;
        reader = openReader(fifo);
        if (!reader) {
          // rg's output cannot be read: it is killed (its side waits for a reader) and the JS engine answers.
          killed = true;
          if (pid !== null) killPid(pid);
          return end('unusable');
        }
        reader.on('data', (chunk: Buffer) => {
          if (!ended) on.onData(chunk);
        });
        reader.on('error', () => undefined);
        reader.on('close', () => {
          outputEnded = true;
          finish();
        });
      },
      started: (p) => {
        pid = p;
        if (killed) killPid(p);
      },
      exited: (s) => {
        status = s;
        if (!reader) outputEnded = true; // no output to wait for (a stopped job's reader ends as it closes)
        finish();
      },
      lost: () => {
        if (pid !== null) {
          // rg runs on; its subshell may still report it, else its output's end ends the job.
          status ??= killed ? 137 : 0;
          if (!reader) outputEnded = true;
          return finish();
        }
        reader?.destroy();
        if (killed) return end({ code: null, stderr: '' });
        direct = spawnDirect(rgPath, args, cwd, on);
      },
    };
    this.jobs.set(id, job);
    this.setBusy(true);
    // A FIFO made for an earlier job is opened now (rg's side waits for it); a new one once bash reports it.
    if (this.fifos.has(id)) job.start();
    this.child.stdin!.write(`${id}\n`);
    return {
      kill: () => {
        if (direct) return direct.kill();
        killed = true;
        if (pid !== null) killPid(pid);
        reader?.destroy();
      },
    };
  }
}

let spawner: Spawner | null = null;
let starts = 0;
let enabled = true;

/** Whether rg is started through the spawner (tests and the bench compare both ways). */
export function useRgSpawner(on: boolean): void {
  enabled = on;
}

/** The spawner's bash pid (tests kill it), or null when none runs. */
export function rgSpawnerPid(): number | null {
  return spawner && !spawner.dead ? (spawner.child.pid ?? null) : null;
}

/** Starts rg with `args` in `cwd` (its stdin empty, its environment empty), through the spawner when there is one. */
export function startRg(rgPath: string, args: readonly string[], cwd: string | undefined, on: RgHandlers): RgRun {
  if (enabled && process.platform === 'linux') {
    if (!spawner && starts < MAX_STARTS && existsSync(BASH)) {
      starts++;
      try {
        spawner = new Spawner();
      } catch {
        spawner = null;
      }
    }
    const run = spawner?.run(rgPath, args, cwd, on);
    if (run) return run;
  }
  return spawnDirect(rgPath, args, cwd, on);
}
