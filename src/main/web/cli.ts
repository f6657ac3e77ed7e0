/**
 * `npm run web`: starts the core in plain Node and serves the renderer on 127.0.0.1 (docs/architecture.md).
 * Flags: `--port N` (default random), `--data-dir DIR` (or SKALD_HOME), `--workspace DIR`, `--rotate-token` (a new
 * access token; the old one stops working). The token is kept per data folder (token.ts), so a restart on the same
 * folder and port lets an open tab reconnect. Prints one line with the URL (token included) to open; with
 * SKALD_START_TIMINGS set, also where the start's time went (stderr).
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pkg from '../../../package.json';
import { argValue, resolveDataDir, warmUpDelayFromEnv } from '../core/config';
import { createCore } from '../core/index';
import { startWebServer } from './server';
import { webAccessToken } from './token';

async function main(): Promise<void> {
  // Every module is evaluated by now (main runs after the static imports): the marks below are from the process's start.
  const modulesDone = performance.now();
  const argv = process.argv.slice(2);
  const dataDir = resolveDataDir(argv, process.env);
  const workspaceDir = resolve(argValue(argv, '--workspace') ?? join(dataDir, 'workspace'));
  const port = Number(argValue(argv, '--port') ?? process.env.SKALD_PORT ?? 0);
  let restart = () => {};
  const core = await createCore(
    {
      dataDir,
      workspaceDir,
      shape: 'web',
      version: pkg.version,
      agentsDir: fileURLToPath(new URL('../../agents', import.meta.url)),
    },
    { requestRestart: () => restart(), ...warmUpDelayFromEnv(process.env) },
  );
  const coreDone = performance.now();
  const rendererDir = fileURLToPath(new URL('../renderer', import.meta.url));
  const token = webAccessToken(core.secrets, { rotate: argv.includes('--rotate-token') });
  const server = await startWebServer({ core, rendererDir, port, token });
  console.log(`Skald web: ${server.url}`);
  if (process.env.SKALD_START_TIMINGS) {
    // For the start bench (bench/core-start.ts): where the start's time went, in ms from the process's start.
    const marks = {
      bootstrap: performance.nodeTiming.bootstrapComplete,
      modules: modulesDone,
      core: coreDone,
      listening: performance.now(),
    };
    console.error(`[web] start timings: ${JSON.stringify(marks)}`);
  }

  let closing = false;
  const shutdown = async (then?: () => void) => {
    if (closing) return;
    closing = true;
    await server.close();
    await core.dispose();
    then?.();
    process.exit(0);
  };
  // `restart`: the web shape re-executes itself on the same port; the kept token lets the open page reconnect
  // (never with --rotate-token again, which would lock that page out).
  restart = () =>
    void shutdown(() => {
      const kept = argv.filter(
        (a, i) => a !== '--port' && !a.startsWith('--port=') && argv[i - 1] !== '--port' && a !== '--rotate-token',
      );
      spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...kept, '--port', String(server.port)], {
        detached: true,
        stdio: 'inherit',
      }).unref();
    });
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  core.start();
}

main().catch((error) => {
  console.error(`Skald web failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
