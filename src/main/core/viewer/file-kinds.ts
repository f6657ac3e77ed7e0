/**
 * What kind of renderer a file gets, decided by its extension (docs/viewer.md "Kinds"), and the content type its
 * bytes are served with. HTML is never served as `text/html` from the app's origin: on the file route it is
 * plain text (the preview origin is the only place it is a document); SVG is `image/svg+xml` because it is only
 * ever shown through `<img>`, and the file route adds a `sandbox` CSP in case it is opened as a page.
 */
import { extname } from 'node:path';
import type { ViewerKind } from '../../../shared/contract/viewer';
import { textEncodingOf } from '../../../shared/text-encoding';

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.bmp': 'image/bmp',
  '.ico': 'image/x-icon',
};

/** Monaco language ids by extension; anything textual not listed opens as plain text. */
const LANGUAGES: Record<string, string> = {
  '.ts': 'typescript',
  '.tsx': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.js': 'javascript',
  '.jsx': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.json': 'json',
  '.jsonc': 'json',
  '.py': 'python',
  '.rb': 'ruby',
  '.rs': 'rust',
  '.go': 'go',
  '.java': 'java',
  '.kt': 'kotlin',
  '.swift': 'swift',
  '.c': 'c',
  '.h': 'c',
  '.cc': 'cpp',
  '.cpp': 'cpp',
  '.hpp': 'cpp',
  '.cs': 'csharp',
  '.php': 'php',
  '.lua': 'lua',
  '.sh': 'shell',
  '.bash': 'shell',
  '.zsh': 'shell',
  '.ps1': 'powershell',
  '.sql': 'sql',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.toml': 'ini',
  '.ini': 'ini',
  '.xml': 'xml',
  '.css': 'css',
  '.scss': 'scss',
  '.less': 'less',
  '.html': 'html',
  '.htm': 'html',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.tex': 'latex',
  '.latex': 'latex',
  '.r': 'r',
  '.dart': 'dart',
  '.ex': 'elixir',
  '.exs': 'elixir',
  '.scala': 'scala',
  '.pl': 'perl',
  '.dockerfile': 'dockerfile',
  '.graphql': 'graphql',
  '.vue': 'html',
  '.svelte': 'html',
  '.txt': 'plaintext',
  '.log': 'plaintext',
  '.csv': 'plaintext',
  '.diff': 'plaintext',
  '.patch': 'plaintext',
};

const NAMED_LANGUAGES: Record<string, string> = {
  dockerfile: 'dockerfile',
  makefile: 'plaintext',
  '.gitignore': 'plaintext',
  '.env': 'plaintext',
};

export interface KindInfo {
  kind: ViewerKind;
  /** Content type of the file route's response. */
  mime: string;
  /** Monaco language for source views (also the HTML/LaTeX/Markdown source toggle). */
  language: string;
}

export function kindOfPath(path: string, firstBytes?: Buffer): KindInfo {
  const ext = extname(path).toLowerCase();
  const base = path.split(/[\\/]/).pop()!.toLowerCase();
  const language = LANGUAGES[ext] ?? NAMED_LANGUAGES[base] ?? 'plaintext';
  if (ext === '.md' || ext === '.markdown') return { kind: 'markdown', mime: 'text/plain; charset=utf-8', language };
  if (ext === '.svg') return { kind: 'svg', mime: 'image/svg+xml', language: 'xml' };
  if (IMAGE_TYPES[ext]) return { kind: 'image', mime: IMAGE_TYPES[ext]!, language };
  if (ext === '.pdf') return { kind: 'pdf', mime: 'application/pdf', language };
  if (ext === '.tex' || ext === '.latex')
    return { kind: 'latex', mime: 'text/plain; charset=utf-8', language: 'latex' };
  if (ext === '.html' || ext === '.htm') return { kind: 'html', mime: 'text/plain; charset=utf-8', language: 'html' };
  if (LANGUAGES[ext] || NAMED_LANGUAGES[base]) return { kind: 'text', mime: 'text/plain; charset=utf-8', language };
  // Unknown extension: text when the first bytes look like text (a UTF-16 byte-order mark, or no NUL, as ripgrep decides).
  if (firstBytes && textEncodingOf(firstBytes) !== null)
    return { kind: 'text', mime: 'text/plain; charset=utf-8', language: 'plaintext' };
  return { kind: 'binary', mime: 'application/octet-stream', language: 'plaintext' };
}

/** Most a kind's view loads: text beyond this shows its first part (and says so); binaries show a hex head. */
export function byteLimitOf(kind: ViewerKind): number {
  switch (kind) {
    case 'image':
    case 'svg':
      return 64 * 1024 * 1024;
    case 'pdf':
      return 256 * 1024 * 1024;
    case 'binary':
      return 4 * 1024;
    default:
      return 8 * 1024 * 1024;
  }
}

/** Kinds whose first part is still worth showing when the file is over the limit (a cut image or PDF is not). */
export function showsFirstPart(kind: ViewerKind): boolean {
  return kind !== 'image' && kind !== 'svg' && kind !== 'pdf';
}
