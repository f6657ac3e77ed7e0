/**
 * LaTeX to PDF for the viewer (docs/viewer.md "LaTeX"): `latexmk -norc -xelatex` with `-no-shell-escape`, in a build
 * folder outside the workspace (`<tmp>/skald-latex-<uid>/<sha256 of the .tex path>/`), killed as a whole process
 * group after 30 s. The cache is keyed on a hash of every input file the document read — latexmk's recorder
 * (`.fls`) lists them (`\input`, `\include`, images, bib files); TeX's own files and the build folder's are left
 * out — so a change to any of them recompiles, and an unchanged document is answered from the cache at once.
 * On failure: the first error distilled to file, line and message, and the whole log.
 * The inputs are read (to hash them) through the disk module (docs/guards.md "One disk policy"): never a blocking read
 * of a FIFO or device a document named, never through a swapped link, and, with an `InputPolicy`, an input the
 * viewer would refuse (a `secrets/` file, the data folder, a hard link to a guarded file) refuses the PDF: TeX read
 * it, so the PDF may show it. The cache's own files are written by the atomic writer inside the cache folder.
 * Limits: TeX may read any file the user can (`openin_any` stays TeX Live's default); what it read is judged after.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { DiskError } from '../disk/disk-error';
import { statAt } from '../disk/kinds';
import { digestFile, readFile, readText } from '../disk/open';
import { canonicalizeForPolicy, pathUnder, realPathOrNull } from '../disk/paths';
import type { GuardScope } from '../disk/protected';
import { atomicWrite, mkdirInside } from '../disk/write';
import { scrubEnv } from '../tools/shell/env-scrub';

export const LATEX_TIMEOUT_MS = 30_000;
const MAX_LOG_CHARS = 400_000;

export type LatexOutcome =
  | { status: 'ok'; pdf: string; isCached: boolean; ms: number }
  | { status: 'failed'; error: { file: string | null; line: number | null; message: string }; log: string }
  | { status: 'unavailable'; message: string }
  | { status: 'timeout'; message: string };

export const TEX_MISSING =
  'LaTeX is not installed, so this .tex file cannot be compiled. Install TeX Live with latexmk and XeLaTeX ' +
  '(Debian/Ubuntu: sudo apt install latexmk texlive-xetex; macOS: MacTeX; Windows: MiKTeX or TeX Live), then reopen the file.';

const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/**
 * How the viewer judges what a document read: `refuse` gives the sentence for an input it would never show (null when
 * it may), `guard` whose guarded files a hard link must not reach.
 */
export interface InputPolicy {
  refuse: (path: string) => string | null;
  guard: GuardScope;
}

/** An input the policy refuses, or one that is no longer a readable regular file. */
class InputRefused extends Error {}

const MAX_LOG_BYTES = 4 * 1024 * 1024;
const MAX_PDF_BYTES = 256 * 1024 * 1024;
const MAX_DEPS_BYTES = 4 * 1024 * 1024;

export function defaultLatexCacheDir(): string {
  return join(tmpdir(), `skald-latex-${typeof process.getuid === 'function' ? process.getuid() : 'user'}`);
}

/** Input files of a finished run, from latexmk's recorder: absolute, without TeX's own files or the build's. */
export function userInputs(fls: string, buildDir: string): string[] {
  let pwd = '';
  const out = new Set<string>();
  for (const line of fls.split('\n')) {
    if (line.startsWith('PWD ')) pwd = line.slice(4).trim();
    if (!line.startsWith('INPUT ')) continue;
    const raw = line.slice(6).trim();
    const path = isAbsolute(raw) ? raw : resolve(pwd, raw);
    if (pathUnder(path, buildDir)) continue;
    if (/^\/(usr|etc|var\/lib\/texmf|opt\/texlive|Library\/TeX)\//.test(path) || /[\\/]texmf[^\\/]*[\\/]/i.test(path))
      continue;
    out.add(path);
  }
  return [...out].sort();
}

/** The first error of a TeX log: `file:line: message` (with -file-line-error), else `! message` and `l.N`. */
export function distillError(log: string): { file: string | null; line: number | null; message: string } {
  const lines = log.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\.?\/?[^:\s][^:]*\.(?:tex|sty|cls|bib|ltx|dtx)):(\d+): (.+)$/.exec(lines[i]!);
    if (m) return { file: m[1]!.replace(/^\.\//, ''), line: Number(m[2]), message: m[3]!.trim() };
  }
  const bang = lines.findIndex((l) => l.startsWith('! '));
  if (bang >= 0) {
    const at = lines.slice(bang, bang + 30).find((l) => /^l\.\d+/.test(l));
    return { file: null, line: at ? Number(/^l\.(\d+)/.exec(at)![1]) : null, message: lines[bang]!.slice(2).trim() };
  }
  return { file: null, line: null, message: 'The LaTeX run failed; see the full log.' };
}

export class LatexCompiler {
  private readonly running = new Map<string, Promise<LatexOutcome>>();

  constructor(
    readonly cacheDir: string = defaultLatexCacheDir(),
    private readonly command = 'latexmk',
    private readonly timeoutMs = LATEX_TIMEOUT_MS,
  ) {}

  /** The cache folder by its real path, made (without following a link) when missing. */
  private cacheRoot(): string {
    let base = dirname(this.cacheDir);
    while (!statAt(base, true) && dirname(base) !== base) base = dirname(base);
    const real = canonicalizeForPolicy(base, base);
    const root = join(real, relative(base, this.cacheDir));
    mkdirInside(real, root, 'the LaTeX cache', 0o700);
    return root;
  }

  private depsFile(texReal: string): string {
    return join(this.cacheRoot(), `${sha(texReal)}.deps.json`);
  }

  /** The inputs the last build of this document read (the document alone before its first build). */
  inputsOf(texReal: string): string[] {
    try {
      return JSON.parse(
        readText({ path: this.depsFile(texReal), shown: 'the LaTeX cache' }, MAX_DEPS_BYTES),
      ) as string[];
    } catch {
      return [texReal];
    }
  }

  /** Cached PDF for these exact inputs, or null (an input refused by the policy throws InputRefused). */
  private cached(texReal: string, policy: InputPolicy | undefined): string | null {
    const depsFile = this.depsFile(texReal);
    if (!statAt(depsFile, false)?.isFile()) return null;
    let deps: string[];
    try {
      deps = JSON.parse(readText({ path: depsFile, shown: 'the LaTeX cache' }, MAX_DEPS_BYTES)) as string[];
    } catch {
      return null;
    }
    const key = this.inputsKey(deps, policy);
    if (key === null) return null; // a file of the list is gone: compile again
    const pdf = join(this.cacheRoot(), `${key}.pdf`);
    return statAt(pdf, false)?.isFile() ? pdf : null;
  }

  /**
   * A hash of every input's path and bytes, or null when one is gone. Each is read through the disk module: a FIFO
   * or device is never read, and an input the policy refuses throws InputRefused with its sentence.
   */
  private inputsKey(deps: string[], policy: InputPolicy | undefined): string | null {
    const h = createHash('sha256');
    for (const dep of deps) {
      const why = policy?.refuse(dep);
      if (why) throw new InputRefused(why);
      const real = realPathOrNull(dep);
      if (real === null) return null;
      try {
        h.update(`${dep}\0${digestFile({ path: real, shown: dep, guard: policy?.guard })}\0`);
      } catch (error) {
        if (error instanceof DiskError && error.code === 'missing') return null;
        throw new InputRefused(`The document read a file the viewer does not show: ${(error as Error).message}`);
      }
    }
    return h.digest('hex');
  }

  compile(texReal: string, policy?: InputPolicy): Promise<LatexOutcome> {
    const started = Date.now();
    let hit: string | null;
    try {
      hit = this.cached(texReal, policy);
    } catch (error) {
      return Promise.resolve(refusedOutcome(error));
    }
    if (hit) return Promise.resolve({ status: 'ok', pdf: hit, isCached: true, ms: Date.now() - started });
    let job = this.running.get(texReal);
    if (!job) {
      job = this.run(texReal, started, policy).finally(() => this.running.delete(texReal));
      this.running.set(texReal, job);
    }
    return job;
  }

  private run(texReal: string, started: number, policy: InputPolicy | undefined): Promise<LatexOutcome> {
    const cacheRoot = this.cacheRoot();
    const buildDir = join(cacheRoot, sha(texReal));
    try {
      mkdirInside(cacheRoot, buildDir, 'the LaTeX build folder', 0o700);
    } catch (error) {
      return Promise.resolve(refusedOutcome(error));
    }
    const stem = basename(texReal, extname(texReal));
    // The environment without provider keys or credentials, as every program we start on a workspace's content gets
    // it (docs/security-checks.md X9, M5, V11): TeX expands `$NAME` in the file names a document asks for.
    // -norc: latexmk runs its rc files (`latexmkrc`, `.latexmkrc` beside the document, the user's own) as Perl; one
    // in a cloned repository ran its code the moment the person opened a .tex file in the viewer.
    const args = [
      '-norc',
      '-xelatex',
      '-no-shell-escape',
      '-interaction=nonstopmode',
      '-halt-on-error',
      '-file-line-error',
      '-recorder',
      `-outdir=${buildDir}`,
      basename(texReal),
    ];
    return new Promise<LatexOutcome>((done) => {
      let output = '';
      let timedOut = false;
      const child = spawn(this.command, args, {
        cwd: dirname(texReal),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...scrubEnv(process.env), max_print_line: '1000' },
      });
      const killGroup = () => {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      };
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup();
      }, this.timeoutMs);
      child.stdout.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-MAX_LOG_CHARS)));
      child.stderr.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-MAX_LOG_CHARS)));
      child.on('error', (error) => {
        clearTimeout(timer);
        const code = (error as NodeJS.ErrnoException).code;
        done(
          code === 'ENOENT'
            ? { status: 'unavailable', message: TEX_MISSING }
            : {
                status: 'failed',
                error: { file: null, line: null, message: `latexmk could not start (${code ?? error.message}).` },
                log: output,
              },
        );
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        killGroup(); // a TeX child left behind by latexmk ends with it
        if (timedOut) {
          done({
            status: 'timeout',
            message: `LaTeX took longer than ${this.timeoutMs / 1000} s and was stopped. Check the document for an endless loop or a very large figure.`,
          });
          return;
        }
        const built = (name: string) => ({ path: join(buildDir, name), shown: name });
        let log = output;
        try {
          log = readFile(built(`${stem}.log`), MAX_LOG_BYTES)
            .bytes.toString('utf8')
            .slice(-MAX_LOG_CHARS);
        } catch {
          /* no log: the program's own output */
        }
        // What the document read is judged first, failed build or not: an error's log quotes the lines it read.
        let deps: string[] | null = null;
        let key: string | null = null;
        try {
          deps = userInputs(readText(built(`${stem}.fls`), MAX_DEPS_BYTES), buildDir);
          key = this.inputsKey(deps, policy);
        } catch (error) {
          if (error instanceof InputRefused) {
            done(refusedOutcome(error));
            return;
          }
        }
        const pdf = join(buildDir, `${stem}.pdf`);
        const pdfInfo = statAt(pdf, false);
        if (code !== 0 || !pdfInfo?.isFile() || pdfInfo.mtimeMs < started - 1000) {
          done({ status: 'failed', error: distillError(log), log: log || output });
          return;
        }
        if (key === null || deps === null) {
          done({ status: 'ok', pdf, isCached: false, ms: Date.now() - started }); // shown, just not cached
          return;
        }
        try {
          const cachedPdf = join(cacheRoot, `${key}.pdf`);
          const bytes = readFile(built(`${stem}.pdf`), MAX_PDF_BYTES).bytes;
          atomicWrite({ path: cachedPdf, shown: 'the cached PDF', root: cacheRoot, mode: 0o600 }, bytes);
          atomicWrite(
            { path: this.depsFile(texReal), shown: 'the LaTeX cache', root: cacheRoot, mode: 0o600 },
            JSON.stringify(deps),
          );
          done({ status: 'ok', pdf: cachedPdf, isCached: false, ms: Date.now() - started });
        } catch {
          done({ status: 'ok', pdf, isCached: false, ms: Date.now() - started }); // shown, just not cached
        }
      });
    });
  }
}

/** The outcome for a document whose inputs the viewer refuses (or whose cache cannot be made): a sentence, no PDF. */
function refusedOutcome(error: unknown): LatexOutcome {
  const message = error instanceof Error ? error.message : String(error);
  return { status: 'failed', error: { file: null, line: null, message }, log: '' };
}
