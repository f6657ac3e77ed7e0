/**
 * The viewer's core (docs/viewer.md): resolves a path to a handle under the read policy and serves the bytes of
 * a handle. Both shapes call `serveFile` for `/viewer/file/<handle>` (the web server's route, the desktop's
 * `app://` handler) and `servePreview` for the HTML preview's own origin; neither ever passes a path. Plain Node:
 * never imports electron.
 */
import { dirname } from 'node:path';
import { pathUnder } from '../disk/paths';
import type { GuardScope } from '../disk/protected';
import type {
  LatexResult,
  ResolveResult,
  SystemOpen,
  SystemOpenResult,
  ViewerFile,
} from '../../../shared/contract/viewer';
import { byteLimitOf, kindOfPath, showsFirstPart } from './file-kinds';
import { readForViewer } from './file-read';
import { HandleRegistry, type HandleRecord } from './handles';
import { refusalReply, type HttpReply } from './http-reply';
import { FileWatcher } from './file-watcher';
import { LatexCompiler, type InputPolicy } from './latex';
import { PreviewServer } from './preview';
import { applyReadPolicy, guardScopeOf, ViewerRefusal, type ReadPolicyContext } from './read-policy';
import { SYSTEM_OPEN_WEB, systemOpenRefusal, type OpenWithSystemPort } from './system-open';

export const FILE_ROUTE = '/viewer/file/';

export interface ViewerServiceDeps {
  dataDir: string;
  workspaceDir: string;
  /** The session's working directory (the workspace when no session is named or it is unknown). */
  workingDirOf: (sessionId: number | undefined) => string;
  now?: () => number;
  /** LaTeX compiler (its cache folder lives outside the workspace). */
  latex?: LatexCompiler;
  /** A watched handle's file changed on disk (debounced); absent = no watching. */
  onFileChanged?: (handle: string, path: string) => void;
  /** The desktop shell's way to open a file with the system's app for it; absent (web shape) = not offered. */
  openWithSystem?: OpenWithSystemPort;
}

export interface ResolveRequest {
  path: string;
  sessionId?: number;
  relativeTo?: string;
  allowOutside?: boolean;
}

/** A file response must never become a page of the app's origin: no scripts, no subresources, sandboxed. */
const FILE_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox";

export class ViewerService {
  readonly handles: HandleRegistry;
  readonly preview: PreviewServer;
  readonly latex: LatexCompiler;
  private readonly watcher: FileWatcher | null;

  constructor(private readonly deps: ViewerServiceDeps) {
    this.handles = new HandleRegistry(deps.now);
    this.latex = deps.latex ?? new LatexCompiler();
    const onChange = deps.onFileChanged;
    this.watcher = onChange ? new FileWatcher(onChange, (token) => this.handles.peek(token)) : null;
    this.preview = new PreviewServer(
      (record) => this.recheck(record),
      (record) => this.guardOf(record.workingDir),
    );
  }

  private policy(workingDir: string): ReadPolicyContext {
    return { workingDir, dataDir: this.deps.dataDir, workspaceDir: this.deps.workspaceDir };
  }

  /** Whose guarded files a hard link must not reach, for a read in this working directory. */
  private guardOf(workingDir: string): GuardScope {
    return guardScopeOf(this.policy(workingDir));
  }

  resolve(request: ResolveRequest): ResolveResult {
    const parent = request.relativeTo ? this.handles.use(request.relativeTo) : null;
    if (request.relativeTo && !parent)
      return {
        status: 'error',
        code: 'missing',
        message: 'The file this link belongs to is no longer open; open it again.',
      };
    const workingDir = parent?.workingDir ?? this.deps.workingDirOf(request.sessionId);
    const base = parent ? dirname(parent.absolute) : workingDir;
    try {
      const path = applyReadPolicy(request.path, base, this.policy(workingDir));
      // A link from a confirmed outside file into its own folder needs no second question.
      const isConfirmed =
        request.allowOutside === true ||
        (parent?.isOutsideConfirmed === true && pathUnder(path.real, dirname(parent.real)));
      if (path.isOutside && !isConfirmed) {
        return {
          status: 'confirm',
          absolute: path.real,
          message: `${path.real} is outside this session's working directory (${workingDir}). Show it anyway?`,
        };
      }
      const info = readForViewer(path.real, path.display, 8192, this.guardOf(workingDir));
      const head = info.bytes;
      const kind = kindOfPath(path.real, head);
      const limit = byteLimitOf(kind.kind);
      if (info.size > limit && !showsFirstPart(kind.kind)) {
        return {
          status: 'error',
          code: 'too_large',
          message: `${path.display} is ${formatBytes(info.size)}, over the viewer's ${formatBytes(limit)} limit for this kind of file.`,
        };
      }
      const record = this.handles.issue({
        absolute: path.absolute,
        real: path.real,
        display: path.display,
        workingDir,
        isOutside: path.isOutside,
        isOutsideConfirmed: path.isOutside,
        kind,
      });
      this.watcher?.add(record.token, [record.real]);
      const systemOpen = kind.kind === 'binary' ? this.systemOpenOf(record.real, info.mode, head) : null;
      return { status: 'ok', file: this.describe(record, info.size, info.mtimeMs, systemOpen) };
    } catch (error) {
      if (error instanceof ViewerRefusal && error.code !== 'changed')
        return { status: 'error', code: error.code, message: error.message };
      return { status: 'error', code: 'unreadable', message: error instanceof Error ? error.message : String(error) };
    }
  }

  private systemOpenOf(real: string, mode: number, head: Buffer): SystemOpen {
    if (!this.deps.openWithSystem) return { status: 'unavailable', message: SYSTEM_OPEN_WEB };
    const why = systemOpenRefusal(real, mode, head);
    return why ? { status: 'refused', message: why } : { status: 'offered' };
  }

  private describe(record: HandleRecord, size: number, mtimeMs: number, systemOpen: SystemOpen | null): ViewerFile {
    return {
      handle: record.token,
      url: `${FILE_ROUTE}${record.token}`,
      name: record.real.split(/[\\/]/).pop() ?? record.real,
      display: record.display,
      absolute: record.real,
      kind: record.kind.kind,
      language: record.kind.language,
      size,
      mtimeMs,
      limit: byteLimitOf(record.kind.kind),
      isOutside: record.isOutside,
      systemOpen,
    };
  }

  /** The handle's record after the policy ran again; throws a refusal when it no longer holds. */
  recheck(record: HandleRecord): HandleRecord {
    const now = applyReadPolicy(record.absolute, dirname(record.absolute), this.policy(record.workingDir));
    if (now.real !== record.real)
      throw new ViewerRefusal(
        'refused',
        `${record.display} now points somewhere else (${now.real}); reopen it to view the new target.`,
      );
    if (now.isOutside && !record.isOutsideConfirmed)
      throw new ViewerRefusal('refused', `${record.display} is outside the working directory and was not confirmed.`);
    return record;
  }

  /** Bytes for `/viewer/file/<handle>`: the policy and the real path are checked again on every request. */
  serveFile(urlPath: string): HttpReply {
    const token = urlPath.startsWith(FILE_ROUTE) ? urlPath.slice(FILE_ROUTE.length) : '';
    const record = /^[A-Za-z0-9_-]{20,64}$/.test(token) ? this.handles.use(token) : null;
    if (!record)
      return refusalReply(new ViewerRefusal('missing', 'This view has expired or never existed; open the file again.'));
    try {
      this.recheck(record);
      // The disk module opens the real path with no symlink on it and checks the descriptor's identity and links: a
      // folder on the way swapped (and swapped back) around the open, or a hard link to a guarded file, is refused.
      const read = readForViewer(
        record.real,
        record.display,
        byteLimitOf(record.kind.kind),
        this.guardOf(record.workingDir),
      );
      this.recheck(record);
      return {
        status: 200,
        headers: {
          'content-type': record.kind.mime,
          'content-security-policy': FILE_CSP,
          'x-content-type-options': 'nosniff',
          'cross-origin-resource-policy': 'same-origin',
          'cache-control': 'no-store',
          'x-skald-size': String(read.size),
          'x-skald-truncated': read.isTruncated ? '1' : '0',
        },
        body: read.bytes,
      };
    } catch (error) {
      return refusalReply(error);
    }
  }

  async disposeWatcher(): Promise<void> {
    await this.watcher?.dispose();
  }

  /** The HTML preview's URL on its own origin, for an `html` handle. */
  previewUrl(token: string): string {
    const record = this.handles.use(token);
    if (!record || record.kind.kind !== 'html')
      throw new ViewerRefusal('missing', 'This view has expired or is not an HTML file; open it again.');
    return this.preview.urlFor(record);
  }

  /** Compiles a `.tex` handle; the PDF is served through a handle of its own, bound to the cached file. */
  async compileLatex(token: string): Promise<LatexResult> {
    const record = this.handles.use(token);
    if (!record || record.kind.kind !== 'latex')
      throw new ViewerRefusal('missing', 'This view has expired or is not a LaTeX file; open it again.');
    this.recheck(record);
    const outcome = await this.latex.compile(record.real, this.latexInputPolicy(record.workingDir));
    // A LaTeX source reloads (and recompiles) when any input of its last build changes.
    this.watcher?.add(token, this.latex.inputsOf(record.real));
    if (outcome.status !== 'ok') return outcome;
    const pdf = this.handles.issue({
      absolute: outcome.pdf,
      real: outcome.pdf,
      display: `${record.display} (PDF)`,
      workingDir: record.workingDir,
      // Made by the app itself from a file the person already sees: no question for the build folder.
      isOutside: true,
      isOutsideConfirmed: true,
      kind: kindOfPath(outcome.pdf),
    });
    return { status: 'ok', pdfUrl: `${FILE_ROUTE}${pdf.token}`, isCached: outcome.isCached, ms: outcome.ms };
  }

  /**
   * What a document may have read for its PDF to be shown: what the read policy serves (no `secrets/`, no data
   * folder), no hard link to a guarded file (docs/viewer.md "LaTeX").
   */
  private latexInputPolicy(workingDir: string): InputPolicy {
    const policy = this.policy(workingDir);
    return {
      guard: guardScopeOf(policy),
      refuse: (path) => {
        try {
          applyReadPolicy(path, dirname(path), policy);
          return null;
        } catch (error) {
          return `The document read a file the viewer never shows, so its PDF is not shown either: ${(error as Error).message}`;
        }
      },
    };
  }

  /**
   * Hands a handle's file to the system's app for it (docs/viewer.md "Open with the system app"): only after the
   * person confirmed, only for a file the viewer has no view for, under the read policy checked again now, and
   * never a program, script or launcher. The port gets the checked real path.
   */
  async openWithSystem(token: string, isConfirmed: boolean): Promise<SystemOpenResult> {
    const port = this.deps.openWithSystem;
    if (!port) return { status: 'not_opened', reason: 'unavailable', message: SYSTEM_OPEN_WEB };
    const record = this.handles.use(token);
    if (!record) throw new ViewerRefusal('missing', 'This view has expired or never existed; open the file again.');
    const refused = (message: string): SystemOpenResult => ({ status: 'not_opened', reason: 'refused', message });
    if (!isConfirmed) return refused('Opening a file with the system app needs your confirmation in the viewer.');
    if (record.kind.kind !== 'binary')
      return refused(
        `Skald shows ${record.display} itself; only files it has no view for are opened with the system app.`,
      );
    try {
      this.recheck(record);
      const info = readForViewer(record.real, record.display, 512, this.guardOf(record.workingDir));
      const head = info.bytes;
      const why = systemOpenRefusal(record.real, info.mode, head);
      if (why) return refused(why);
      this.recheck(record); // a folder on the way swapped while reading
    } catch (error) {
      if (error instanceof ViewerRefusal) return refused(error.message);
      throw error;
    }
    const failure = await port(record.real);
    if (failure)
      return {
        status: 'not_opened',
        reason: 'failed',
        message: `The system could not open ${record.display}: ${failure}`,
      };
    return { status: 'opened', path: record.real };
  }

  release(token: string): void {
    this.watcher?.remove(token);
    this.handles.release(token);
    this.preview.forget(token);
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}
