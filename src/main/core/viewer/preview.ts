/**
 * The HTML preview's own origin (docs/viewer.md "HTML"). The renderer shows an HTML file in an iframe with
 * `sandbox="allow-scripts"` (never `allow-same-origin`) whose document comes from a second origin: in the web
 * shape a second loopback port, on the desktop the `skald-preview:` scheme. That document gets its own CSP:
 * inline scripts and styles run, nothing connects anywhere (`connect-src 'none'`), no form submits, and images
 * come only from the file's own folder (or data:/blob:). The response also carries `sandbox allow-scripts`, so
 * even a preview URL opened as a top-level page has an opaque origin.
 * A preview URL is `<base>/<preview token>/<file name>`; the token is random and separate from the file handle.
 * An image of the page is served only when it lies under the page's folder and passes the read policy.
 * Limits: scripts may still run busy loops in the frame (the frame's own process on desktop, a tab's in Chromium).
 */
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { pathUnder } from '../disk/paths';
import type { GuardScope } from '../disk/protected';
import { kindOfPath } from './file-kinds';
import { readForViewer } from './file-read';
import type { HandleRecord } from './handles';
import { ViewerRefusal } from './read-policy';
import { refusalReply, type HttpReply } from './http-reply';

const MAX_PAGE_BYTES = 8 * 1024 * 1024;
const MAX_IMAGE_BYTES = 32 * 1024 * 1024;

/**
 * Injected first into the page: link clicks become one message to the parent (`{type:'skald-link', href}`), which
 * accepts nothing else and only from this frame (docs/viewer.md). Navigation inside the frame stays blocked by
 * the parent's frame-src.
 */
const LINK_BRIDGE =
  "<script>document.addEventListener('click',function(e){var a=e.target&&e.target.closest&&e.target.closest('a[href]');" +
  "if(!a)return;e.preventDefault();parent.postMessage({type:'skald-link',href:a.getAttribute('href')},'*');},true);</script>";

export function previewCsp(folderUrl: string): string {
  return [
    "default-src 'none'",
    "script-src 'unsafe-inline'",
    "style-src 'unsafe-inline'",
    `img-src data: blob: ${folderUrl}`,
    'font-src data:',
    "connect-src 'none'",
    "form-action 'none'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    'sandbox allow-scripts',
  ].join('; ');
}

interface PreviewEntry {
  record: HandleRecord;
  previewToken: string;
}

export class PreviewServer {
  private base: string | null = null;
  private readonly byPreviewToken = new Map<string, PreviewEntry>();
  private readonly byHandle = new Map<string, PreviewEntry>();

  /**
   * `recheck` re-applies the read policy to a handle (the viewer service's rule), throwing a refusal; `guardOf` says
   * whose guarded files a hard link must not reach for that handle's reads.
   */
  constructor(
    private readonly recheck: (record: HandleRecord) => HandleRecord,
    private readonly guardOf: (record: HandleRecord) => GuardScope,
  ) {}

  /** The shell says where the preview origin lives (`http://127.0.0.1:PORT` or `skald-preview://v`). */
  setBase(base: string): void {
    this.base = base.replace(/\/+$/, '');
  }

  origin(): string | null {
    return this.base === null ? null : new URL(this.base).origin === 'null' ? this.base : new URL(this.base).origin;
  }

  urlFor(record: HandleRecord): string {
    if (this.base === null)
      throw new ViewerRefusal('unreadable', 'This window has no HTML preview origin; view the source instead.');
    let entry = this.byHandle.get(record.token);
    if (!entry) {
      entry = { record, previewToken: randomBytes(24).toString('base64url') };
      this.byHandle.set(record.token, entry);
      this.byPreviewToken.set(entry.previewToken, entry);
    }
    return `${this.base}/${entry.previewToken}/${encodeURIComponent(record.real.split(/[\\/]/).pop()!)}`;
  }

  forget(handle: string): void {
    const entry = this.byHandle.get(handle);
    if (!entry) return;
    this.byHandle.delete(handle);
    this.byPreviewToken.delete(entry.previewToken);
  }

  /** A request on the preview origin: `/<preview token>/<path inside the page's folder>`. */
  serve(urlPath: string): HttpReply {
    const match = /^\/([A-Za-z0-9_-]{20,64})\/(.+)$/.exec(urlPath);
    const entry = match ? this.byPreviewToken.get(match[1]!) : undefined;
    if (!match || !entry || this.base === null) return refusalReply(new ViewerRefusal('missing', 'No such preview.'));
    let rest: string;
    try {
      rest = decodeURIComponent(match[2]!);
    } catch {
      return refusalReply(new ViewerRefusal('missing', 'Bad preview path.'));
    }
    try {
      const record = this.recheck(entry.record);
      const folder = dirname(record.real);
      const folderUrl = `${this.base}/${entry.previewToken}/`;
      const csp = previewCsp(folderUrl);
      const common = {
        'content-security-policy': csp,
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      };
      if (rest === record.real.split(/[\\/]/).pop()) {
        const page = readForViewer(record.real, record.display, MAX_PAGE_BYTES, this.guardOf(record));
        return {
          status: 200,
          headers: { ...common, 'content-type': 'text/html; charset=utf-8' },
          body: withLinkBridge(page.bytes),
        };
      }
      if (rest.includes('\0')) throw new ViewerRefusal('refused', 'Bad path.');
      const target = join(folder, rest);
      if (!pathUnder(target, folder))
        throw new ViewerRefusal('refused', 'A preview loads only files from its own folder.');
      // The asset goes through the same policy as any viewer file (secrets, data folder, symlinks out of the folder).
      const asset = this.recheck({
        ...record,
        absolute: target,
        real: target,
        display: rest,
        isOutsideConfirmed: record.isOutsideConfirmed,
      });
      const kind = kindOfPath(asset.real);
      if (kind.kind !== 'image' && kind.kind !== 'svg')
        throw new ViewerRefusal('refused', 'A preview loads only images from its folder.');
      const image = readForViewer(asset.real, rest, MAX_IMAGE_BYTES, this.guardOf(record));
      return { status: 200, headers: { ...common, 'content-type': kind.mime }, body: image.bytes };
    } catch (error) {
      return refusalReply(error);
    }
  }
}

/** The bridge goes after a leading doctype (before it, the page would fall into quirks mode). */
function withLinkBridge(page: Buffer): Buffer {
  const head = page.subarray(0, 512).toString('latin1');
  const doctype = /^(\uFEFF|\xEF\xBB\xBF)?\s*<!doctype[^>]*>/i.exec(head);
  const at = doctype ? doctype[0].length : 0;
  return Buffer.concat([page.subarray(0, at), Buffer.from(LINK_BRIDGE), page.subarray(at)]);
}
