/**
 * "Open with the system app" for a file the viewer has no view for (docs/viewer.md "Open with the system app").
 * The core decides; only the desktop shell can act, through the port it passes (`OpenWithSystemPort`: Electron's
 * `shell.openPath`). The web shape passes none, so the viewer says why it cannot offer it there.
 *
 * What is never handed to the system, whatever the person says: a file that would run as a program instead of
 * being opened by one. The system's handler for a `.desktop`, `.sh`, `.exe`, `.command` or `.lnk` file *is* to run
 * it, so a confirmation that reads "open this file" would be a lie. Refused are:
 * - a file with any executable bit set (what the OS would run on a double-click on Linux and macOS);
 * - launcher, script, installer and shortcut types by extension (`LAUNCHER_TYPES`, Windows decides by extension);
 * - executable content under another name: ELF, Mach-O, PE (`MZ`), a `#!` script, a Windows shortcut, a
 *   freedesktop `[Desktop Entry]` (Linux handlers sniff content as well as names).
 * Limits: the system opens the file by path after this check (another process could swap it in between; the
 * handle's policy check runs just before the port is called); what the opened program then does is outside Skald.
 */
import { basename, extname } from 'node:path';

/**
 * What the desktop shell passes: asks the system to open the file with the app it associates with it. Resolves
 * with the system's error message, or '' when it opened (Electron's `shell.openPath`).
 */
export type OpenWithSystemPort = (realPath: string) => Promise<string>;

const GROUPS: [why: string, extensions: string[]][] = [
  [
    'a program or installer',
    [
      '.exe',
      '.com',
      '.scr',
      '.pif',
      '.cpl',
      '.msi',
      '.msp',
      '.mst',
      '.msix',
      '.msixbundle',
      '.appx',
      '.appxbundle',
      '.appinstaller',
      '.application',
      '.appimage',
      '.run',
      '.app',
      '.pkg',
      '.mpkg',
      '.dmg',
      '.deb',
      '.rpm',
      '.snap',
      '.flatpak',
      '.flatpakref',
      '.flatpakrepo',
      '.jar',
      '.jnlp',
      '.xbap',
      '.gadget',
      '.xpi',
      '.crx',
      '.vsix',
      '.diagcab',
      '.xll',
    ],
  ],
  [
    'a script',
    [
      '.sh',
      '.bash',
      '.zsh',
      '.csh',
      '.tcsh',
      '.ksh',
      '.fish',
      '.command',
      '.tool',
      '.bat',
      '.cmd',
      '.ps1',
      '.psm1',
      '.psd1',
      '.ps1xml',
      '.vbs',
      '.vbe',
      '.vb',
      '.js',
      '.jse',
      '.mjs',
      '.cjs',
      '.wsf',
      '.wsh',
      '.ws',
      '.wsc',
      '.sct',
      '.hta',
      '.msh',
      '.py',
      '.pyw',
      '.pyz',
      '.pyc',
      '.pl',
      '.rb',
      '.php',
      '.lua',
      '.tcl',
      '.scpt',
      '.scptd',
      '.applescript',
      '.workflow',
      '.action',
      '.terminal',
      '.reg',
      '.inf',
      '.ins',
      '.isp',
      '.chm',
      '.hlp',
    ],
  ],
  [
    'a launcher or shortcut',
    [
      '.desktop',
      '.lnk',
      '.url',
      '.website',
      '.webloc',
      '.inetloc',
      '.fileloc',
      '.scf',
      '.shb',
      '.shs',
      '.library-ms',
      '.searchconnector-ms',
      '.settingcontent-ms',
      '.job',
      '.mcl',
    ],
  ],
];

/** Extension → why it is refused. */
export const LAUNCHER_TYPES: ReadonlyMap<string, string> = new Map(
  GROUPS.flatMap(([why, exts]) => exts.map((ext) => [ext, why] as const)),
);

const MAGIC: [why: string, test: (head: Buffer) => boolean][] = [
  ['a Linux program (ELF)', (h) => h.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]))],
  [
    'a macOS program (Mach-O)',
    (h) =>
      h.length >= 4 &&
      [0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe, 0xbebafeca].includes(h.readUInt32BE(0)),
  ],
  ['a Windows program (MZ)', (h) => h.subarray(0, 2).toString('latin1') === 'MZ'],
  ['a script (#!)', (h) => h.subarray(0, 2).toString('latin1') === '#!'],
  ['a Windows shortcut', (h) => h.subarray(0, 8).equals(Buffer.from([0x4c, 0, 0, 0, 0x01, 0x14, 0x02, 0]))],
  ['a desktop launcher', (h) => /^(\uFEFF)?\s*\[Desktop Entry\]/.test(h.subarray(0, 512).toString('utf8'))],
];

/**
 * Why this file must not be handed to the system (a sentence to show), or null when it may be. `mode` is its
 * stat mode, `head` its first bytes.
 */
export function systemOpenRefusal(path: string, mode: number, head: Buffer): string | null {
  const name = basename(path);
  const ending = "Skald never hands programs, scripts or launchers to the system: the system's app for them runs them.";
  if ((mode & 0o111) !== 0) return `${name} is marked executable, so the system would run it. ${ending}`;
  const type = LAUNCHER_TYPES.get(extname(name).toLowerCase());
  if (type) return `${name} is ${type} (${extname(name)}). ${ending}`;
  const magic = MAGIC.find(([, test]) => test(head));
  if (magic) return `${name} is ${magic[0]}, whatever its name says. ${ending}`;
  return null;
}

export const SYSTEM_OPEN_WEB =
  'Opening a file with the system app is only offered in the desktop app: in the web shape the page may be on ' +
  "another machine than the file, and the browser can't start programs.";
