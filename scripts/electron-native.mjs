/**
 * better-sqlite3 for Electron's ABI, kept apart from the Node build in node_modules (docs/desktop.md "Native modules
 * for two runtimes"): a copy of the package is built for one Electron version, platform and architecture under
 * `.skald-native/electron-<version>-<platform>-<arch>/`, and the desktop core loads it through better-sqlite3's
 * `nativeBinding` option. `npm test` (Node) never sees it; `npm start` and `npm run dist` never break the tests.
 * Two ways to get it, both need the internet: the prebuilt binary from better-sqlite3's releases (prebuild-install,
 * any platform and arch, no compiler), else a compile against Electron's headers (node-gyp; this platform only).
 * A failure leaves no half-built folder and says why in one line.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';

export function electronVersion(root) {
  return JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')).version;
}

export function nativeDir(root, { version, platform, arch }) {
  return join(root, '.skald-native', `electron-${version}-${platform}-${arch}`, 'better-sqlite3');
}

export function bindingIn(dir) {
  return join(dir, 'build', 'Release', 'better_sqlite3.node');
}

/** The line of a failed tool's output that says why (a network error, an npm ERR!), cut to one short line. */
export function oneLineReason(error) {
  const text = `${error?.stderr ?? ''}\n${error?.stdout ?? ''}\n${error?.message ?? error ?? ''}`;
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const download = lines.map((l) => /http GET (\S+)/.exec(l)?.[1]).find(Boolean);
  const network = lines.find((l) =>
    /ENOTFOUND|EAI_AGAIN|ECONN|ETIMEDOUT|getaddrinfo|socket hang up|network connectivity/i.test(l),
  );
  const line =
    (network && download ? `no network: could not download ${download}` : network) ??
    lines.find((l) => /ERR!|error/i.test(l)) ??
    lines[0] ??
    'unknown error';
  return line.replace(/\s+/g, ' ').slice(0, 160);
}

function nodeGyp(root) {
  const candidates = [
    join(root, 'node_modules/node-gyp/bin/node-gyp.js'),
    // The copy that ships inside npm, where node_modules has none.
    join(dirname(process.execPath), '../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js'),
    join(dirname(process.execPath), 'node_modules/npm/node_modules/node-gyp/bin/node-gyp.js'),
  ];
  return candidates.find((path) => existsSync(path));
}

/** better-sqlite3 is built against V8's ABI, so a binary this Node can load was not built for Electron's. */
export function loadsInThisNode(binding) {
  const probe = spawnSync(process.execPath, ['-e', 'process.dlopen({ exports: {} }, process.argv[1])', binding], {
    stdio: 'pipe',
    timeout: 30_000,
  });
  return probe.status === 0;
}

/**
 * Returns the path of better_sqlite3.node built for Electron (`target` defaults to this machine), building it once.
 * Throws an Error whose message is one line when neither way works.
 */
export function electronSqliteBinding(root, target = {}, run = execFileSync) {
  const version = target.version ?? electronVersion(root);
  const platform = target.platform ?? process.platform;
  const arch = target.arch ?? process.arch;
  const dir = nativeDir(root, { version, platform, arch });
  const binding = bindingIn(dir);
  if (existsSync(binding)) return binding;
  rmSync(dirname(dir), { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const source = join(root, 'node_modules/better-sqlite3');
  // Everything but the Node build (`build/`), which must not be mistaken for Electron's.
  cpSync(source, dir, { recursive: true, filter: (src) => relative(source, src).split(sep)[0] !== 'build' });
  const failures = [];
  // Electron's headers, never this Node's: an npm config `nodedir` (set on machines that build offline against the
  // local Node) would make node-gyp build for Node's ABI under Electron's name.
  const { npm_config_nodedir: _nodedir, NPM_CONFIG_NODEDIR: _NODEDIR, ...env } = process.env;
  const attempt = (name, args, timeout) => {
    try {
      run(process.execPath, args, {
        cwd: dir,
        stdio: 'pipe',
        timeout,
        env: { ...env, npm_config_runtime: 'electron', npm_config_target: version },
      });
    } catch (error) {
      failures.push(`${name}: ${oneLineReason(error)}`);
    }
  };
  attempt(
    'prebuild-install',
    [
      join(root, 'node_modules/prebuild-install/bin.js'),
      '--runtime=electron',
      `--target=${version}`,
      `--arch=${arch}`,
      `--platform=${platform}`,
    ],
    180_000,
  );
  if (!existsSync(binding)) {
    const gyp = nodeGyp(root);
    if (platform !== process.platform) failures.push(`node-gyp: cannot compile for ${platform} on ${process.platform}`);
    else if (!gyp) failures.push('node-gyp: not found');
    else
      attempt(
        'node-gyp',
        [
          gyp,
          'rebuild',
          '--release',
          `--target=${version}`,
          `--arch=${arch}`,
          '--runtime=electron',
          '--dist-url=https://electronjs.org/headers',
        ],
        900_000,
      );
  }
  if (existsSync(binding) && platform === process.platform && arch === process.arch && loadsInThisNode(binding)) {
    failures.push(`the binary was built for this Node (ABI ${process.versions.modules}), not for Electron ${version}`);
  } else if (existsSync(binding)) return binding;
  rmSync(dirname(dir), { recursive: true, force: true });
  throw new Error(failures.join('; '));
}
