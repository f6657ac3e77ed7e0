#!/usr/bin/env node
/**
 * `npm start`: builds, then opens the desktop app. Where the Electron binary cannot be had (no download, as on
 * CI machines) it says so in ONE line and starts the web shape instead, printing its URL (docs/architecture.md "Shapes
 * and processes"). Arguments after `--` go to the app (`npm start -- --data-dir /tmp/skald`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronSqliteBinding } from './electron-native.mjs';
import { planLaunch } from './launch-plan.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

const build = spawnSync(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
  cwd: root,
  encoding: 'utf8',
});
if (build.status !== 0) {
  console.error(build.stdout, build.stderr);
  console.error('Build failed; see the errors above.');
  process.exit(1);
}

function findElectron() {
  // Electron ≥ 45 downloads its binary lazily on first use: asking for the path triggers (and may fail) that.
  const probe = spawnSync(process.execPath, ['-e', "process.stdout.write(require('electron'))"], {
    cwd: root,
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (probe.status === 0 && probe.stdout && existsSync(probe.stdout)) return { path: probe.stdout };
  const lines = (probe.stderr || probe.error?.message || '').split('\n').map((l) => l.trim());
  const reason =
    lines.find((l) => /ENOTFOUND|ECONN|EAI_AGAIN|timed? ?out/i.test(l)) ?? lines.find((l) => /error/i.test(l));
  return { reason: `the binary could not be downloaded: ${(reason ?? 'no binary').slice(0, 140)}` };
}

function run(command, commandArgs, env = process.env) {
  const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit', env });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code) => process.exit(code ?? 0));
}

const plan = planLaunch({
  forceWeb: Boolean(process.env.SKALD_FORCE_WEB),
  findElectron,
  buildBinding: () => electronSqliteBinding(root),
});
if (plan.shape === 'desktop') {
  run(plan.electronPath, [join(root, 'out/main/index.js'), ...args], {
    ...process.env,
    SKALD_SQLITE_BINDING: plan.binding,
  });
} else {
  console.log(`Electron is not available here (${plan.reason}); starting the web shape instead.`);
  run(process.execPath, [join(root, 'out/main/web.js'), ...args]);
}
