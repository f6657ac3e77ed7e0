/**
 * `npm run web`: starts the core in plain Node and serves the renderer on 127.0.0.1 (SPEC.md §1).
 * Flags: `--port N` (default random), `--data-dir DIR` (or SKALD_HOME), `--workspace DIR`.
 * Prints one line with the URL (token included) for a person or a test to open.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pkg from '../../../package.json';
import { argValue, resolveDataDir } from '../core/config';
import { createCore } from '../core/index';
import { startWebServer } from './server';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const dataDir = resolveDataDir(argv, process.env);
  const workspaceDir = resolve(argValue(argv, '--workspace') ?? join(dataDir, 'workspace'));
  const port = Number(argValue(argv, '--port') ?? process.env.SKALD_PORT ?? 0);
  let restart = () => {};
  const core = await createCore(
    { dataDir, workspaceDir, shape: 'web', version: pkg.version, agentsDir: fileURLToPath(new URL('../../agents', import.meta.url)) },
    { requestRestart: () => restart() },
  );
  const rendererDir = fileURLToPath(new URL('../renderer', import.meta.url));
  const server = await startWebServer({ core, rendererDir, port, token: process.env.SKALD_TOKEN });
  console.log(`Skald web: ${server.url}`);

  let closing = false;
  const shutdown = async (then?: () => void) => {
    if (closing) return;
    closing = true;
    await server.close();
    await core.dispose();
    then?.();
    process.exit(0);
  };
  // SPEC.md §3.11: the web shape re-executes itself on the same port and token, so the open page reconnects.
  restart = () =>
    void shutdown(() => {
      const args = [...argv.filter((a, i) => a !== '--port' && argv[i - 1] !== '--port'), '--port', String(server.port)];
      spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...args], {
        detached: true,
        stdio: 'inherit',
        env: { ...process.env, SKALD_TOKEN: server.token },
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
