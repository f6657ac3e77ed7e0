/**
 * Test fixtures for the sandbox (not shipped code paths): the app's default layout on a real disk, under /var/tmp so
 * that what the sandbox refuses is refused by its mounts, not hidden by its private /tmp:
 *   base/data/                 the data folder (skald.db, settings.json)
 *   base/data/workspace/       the workspace and working folder: secrets/ (also nested and in other letter cases),
 *                              a git repository, a symlink to secrets/ and one to the sibling folder
 *   base/sibling/              a folder beside it
 *   base/home/                 a fake home folder with credential stores (~/.ssh, ~/.aws, a browser profile, .netrc)
 * and `execute_cmd` with a sandbox that hides the guards' credential stores below that home, HOME pointing there.
 * `snapshot()` records every file outside the working folder (and git's protected files inside it) with its content,
 * so a test can prove that nothing there changed.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { HOME_CREDENTIALS, SYSTEM_CREDENTIALS } from '../approval/guards';
import { runTool } from '../tools/_testing/workspace';
import type { ExecutionOutcome, ToolRunContext } from '../tools/tool';
import { createExecuteCmdTool } from '../tools/shell/execute-cmd';
import type { SandboxDecision } from './decision';
import { Sandbox } from './sandbox';

/**
 * The sandbox of execute_cmd's own tests: it hides the data folder and the `secrets` folders but no credential store
 * (the composition root's hides the guards' stores too).
 */
export const bareSandbox = (): Sandbox => new Sandbox({ credentialStores: { home: [], system: [] } });

/** Contents that must never reach a command's output. */
export const SECRET_CONTENTS = {
  db: 'DB-CONTENT-7f3a',
  settings: 'SETTINGS-CONTENT-91c2',
  secret: 'TOPSECRET-4be1',
  deepSecret: 'DEEPSECRET-08d4',
  caseSecret: 'CASESECRET-5a77',
  ssh: 'SSH-PRIVATE-KEY-c0de',
  aws: 'AWS-SECRET-KEY-e11a',
  browser: 'BROWSER-COOKIE-2d2d',
  netrc: 'NETRC-PASSWORD-6b6b',
} as const;

export interface SandboxKit {
  base: string;
  data: string;
  ws: string;
  sibling: string;
  home: string;
  sandbox: Sandbox;
  ctx: ToolRunContext;
  run(command: string, options?: { decision?: SandboxDecision; workdir?: string }): Promise<ExecutionOutcome>;
  /** The result or error text of a run. */
  text(command: string, options?: { decision?: SandboxDecision; workdir?: string }): Promise<string>;
  snapshot(): Map<string, string>;
  cleanup(): void;
}

/** The real Python binary (a pyenv shim would look for its root under the fake HOME). */
export const PYTHON = (() => {
  try {
    return execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
})();

function put(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

export function makeSandboxKit(): SandboxKit {
  const parent = existsSync('/var/tmp') ? '/var/tmp' : tmpdir();
  const base = realpathSync(mkdtempSync(join(parent, 'skald-sandbox-')));
  const data = join(base, 'data');
  const ws = join(data, 'workspace');
  const sibling = join(base, 'sibling');
  const home = join(base, 'home');
  put(join(data, 'skald.db'), SECRET_CONTENTS.db);
  put(join(data, 'settings.json'), SECRET_CONTENTS.settings);
  put(join(ws, 'secrets/key.txt'), SECRET_CONTENTS.secret);
  put(join(ws, 'docs/secrets/deep.txt'), SECRET_CONTENTS.deepSecret);
  put(join(ws, 'lib/Secrets/x.txt'), SECRET_CONTENTS.caseSecret);
  put(join(ws, 'docs/readme.md'), 'hello\n');
  put(join(ws, '.git/HEAD'), 'ref: refs/heads/main\n');
  put(join(ws, '.git/config'), '[core]\n\tbare = false\n');
  put(join(ws, '.git/hooks/pre-commit'), '#!/bin/sh\nexit 0\n');
  mkdirSync(join(ws, '.git/objects'), { recursive: true });
  symlinkSync(join(ws, 'secrets'), join(ws, 'notes'));
  symlinkSync(sibling, join(ws, 'up'));
  put(join(sibling, 'file.txt'), 'SIBLING\n');
  put(join(home, '.ssh/id_rsa'), SECRET_CONTENTS.ssh);
  put(join(home, '.aws/credentials'), SECRET_CONTENTS.aws);
  put(join(home, '.config/BraveSoftware/Default/Cookies'), SECRET_CONTENTS.browser);
  put(join(home, '.netrc'), SECRET_CONTENTS.netrc);
  put(join(home, '.bashrc'), '# an ordinary file\n');
  const sandbox = new Sandbox({
    credentialStores: { home: HOME_CREDENTIALS, system: SYSTEM_CREDENTIALS },
    homes: () => [home],
  });
  const tool = createExecuteCmdTool({
    sandbox,
    baseEnv: () => ({ PATH: process.env.PATH, HOME: home, LANG: 'C' }),
  });
  const ctx: ToolRunContext = {
    workingDir: ws,
    workspaceDir: ws,
    signal: new AbortController().signal,
    log: () => {},
    protectedRoots: [data],
  };
  const run: SandboxKit['run'] = (command, options = {}) =>
    runTool(
      tool,
      { command, timeout: 20, ...(options.workdir ? { workdir: options.workdir } : {}) },
      {
        ...ctx,
        ...(options.decision ? { sandbox: options.decision } : {}),
      },
    );
  return {
    base,
    data,
    ws,
    sibling,
    home,
    sandbox,
    ctx,
    run,
    async text(command, options) {
      const outcome = await run(command, options);
      return outcome.kind === 'completed' ? outcome.result : outcome.kind === 'failed' ? outcome.error : 'cancelled';
    },
    snapshot: () => snapshot(base, ws),
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** Every entry under `base` outside `ws`, and git's protected places inside it: path → kind and content hash. */
function snapshot(base: string, ws: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (path: string) => {
    const info = lstatSync(path);
    if (info.isSymbolicLink()) out.set(path, `link ${readlinkSync(path)}`);
    else if (info.isDirectory()) {
      out.set(path, `dir ${info.mode.toString(8)}`);
      for (const name of readdirSync(path)) visit(join(path, name));
    } else
      out.set(path, `file ${info.mode.toString(8)} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`);
  };
  for (const name of readdirSync(base)) visit(join(base, name));
  // Inside the working folder only git's protected places and the secrets count: the rest may change.
  return new Map(
    [...out].filter(
      ([path]) =>
        !path.startsWith(`${ws}/`) || /\/\.git(\/(hooks|config)|$)|\/secrets(\/|$)/i.test(path.slice(ws.length)),
    ),
  );
}
