/**
 * The built web shape as a separate process, for the benches that must measure the app itself, not the bench's
 * process: `node out/main/web.js` spawned on a data folder, its start timings (SKALD_START_TIMINGS=1: the CLI's
 * own marks, src/main/web/cli.ts), its resident memory read from /proc, and calls over its real WebSocket bridge.
 * The build must be current: a bundle older than the sources would measure other code, so that is an error.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';

const ROOT = join(import.meta.dirname, '..');
export const WEB_ENTRY = join(ROOT, 'out', 'main', 'web.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    newest = Math.max(
      newest,
      entry.isDirectory()
        ? newestSource(full)
        : /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts')
          ? statSync(full).mtimeMs
          : 0,
    );
  }
  return newest;
}

/** `out/main/web.js`, checked to be newer than every source of the main process. */
export function builtWebEntry(): string {
  let built: number;
  try {
    built = statSync(WEB_ENTRY).mtimeMs;
  } catch {
    throw new Error(`${WEB_ENTRY} is missing: run \`npx electron-vite build\` before this bench.`);
  }
  const sources = Math.max(newestSource(join(ROOT, 'src', 'main')), newestSource(join(ROOT, 'src', 'shared')));
  if (sources > built)
    throw new Error(`${WEB_ENTRY} is older than the sources: run \`npx electron-vite build\` before this bench.`);
  return WEB_ENTRY;
}

export interface StartTimings {
  /** From process start, ms: Node's own bootstrap done, every module evaluated (main runs), core built, listening. */
  bootstrap: number;
  modules: number;
  core: number;
  listening: number;
}

export interface WebProcess {
  url: string;
  port: number;
  token: string;
  pid: number;
  /** ms from the spawn call to the URL line, seen from the parent. */
  spawnToListening: number;
  /** Date.now() at the spawn call: the start a page's own clock can be compared with (bench/web-start.ts). */
  startedAt: number;
  timings: StartTimings | null;
  /** Resident set size of the process now, from /proc/<pid>/status (MB). */
  rssMb(): number;
  call(channel: string, request: unknown): Promise<unknown>;
  stop(): Promise<void>;
}

export async function startWebProcess(dataDir: string): Promise<WebProcess> {
  const entry = builtWebEntry();
  const started = performance.now();
  const startedAt = Date.now();
  const child: ChildProcess = spawn(process.execPath, [entry, '--data-dir', dataDir, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SKALD_START_TIMINGS: '1' },
  });
  let out = '';
  const { url, spawnToListening } = await new Promise<{ url: string; spawnToListening: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`web shape did not start:\n${out}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Skald web: (\S+)/.exec(out);
      if (match) clearTimeout(timer), resolve({ url: match[1]!, spawnToListening: performance.now() - started });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`web shape exited (${code}):\n${out}`)));
  });
  // The timings line follows the URL line on stderr: wait for it (not a fixed pause, so a page can load at once).
  const timingsLine = /\[web\] start timings: (\{.*\})/;
  for (let waited = 0; !timingsLine.test(out) && waited < 500; waited += 5)
    await new Promise((resolve) => setTimeout(resolve, 5));
  const t = timingsLine.exec(out);
  const timings = t ? (JSON.parse(t[1]!) as StartTimings) : null;
  const parsed = new URL(url);
  const token = parsed.searchParams.get('token')!;
  const port = Number(parsed.port);

  let socket: WebSocket | null = null;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const connect = () =>
    new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${encodeURIComponent(token)}`, {
        maxPayload: 256 * 1024 * 1024,
      });
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
      ws.on('message', (data) => {
        const frame = JSON.parse(data.toString()) as {
          type: string;
          id: number | null;
          ok?: boolean;
          result?: unknown;
          error?: { message: string };
        };
        if (frame.type !== 'result' || frame.id === null) return;
        const w = waiting.get(frame.id);
        waiting.delete(frame.id);
        if (frame.ok) w?.resolve(frame.result);
        else w?.reject(new Error(frame.error?.message ?? 'call failed'));
      });
    });

  return {
    url,
    port,
    token,
    pid: child.pid!,
    spawnToListening,
    startedAt,
    timings,
    rssMb() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
      return kb / 1024;
    },
    async call(channel, request) {
      socket ??= await connect();
      const id = nextId++;
      const result = new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
      socket.send(JSON.stringify({ type: 'call', id, channel, request }));
      return result;
    },
    async stop() {
      socket?.close();
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
