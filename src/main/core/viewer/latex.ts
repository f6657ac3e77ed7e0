/**
 * LaTeX to PDF for the viewer (docs/viewer.md "LaTeX"): `latexmk -norc -xelatex` with `-no-shell-escape`, in a build
 * folder outside the workspace (`<tmp>/skald-latex-<uid>/<sha256 of the .tex path>/`), killed as a whole process
 * group after 30 s. The cache is keyed on a hash of every input file the document read — latexmk's recorder
 * (`.fls`) lists them (`\input`, `\include`, images, bib files); TeX's own files and the build folder's are left
 * out — so a change to any of them recompiles, and an unchanged document is answered from the cache at once.
 * On failure: the first error distilled to file, line and message, and the whole log.
 * Limits: TeX may read any file the user can (`openin_any` stays TeX Live's default); the PDF is only shown.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { pathUnder } from '../tools/_policy/paths';
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

  /** The inputs the last build of this document read (empty before its first build). */
  inputsOf(texReal: string): string[] {
    try {
      return JSON.parse(readFileSync(join(this.cacheDir, `${sha(texReal)}.deps.json`), 'utf8')) as string[];
    } catch {
      return [texReal];
    }
  }

  /** Cached PDF for these exact inputs, or null. */
  private cached(texReal: string): string | null {
    const depsFile = join(this.cacheDir, `${sha(texReal)}.deps.json`);
    if (!existsSync(depsFile)) return null;
    try {
      const deps = JSON.parse(readFileSync(depsFile, 'utf8')) as string[];
      const pdf = join(this.cacheDir, `${this.inputsKey(deps)}.pdf`);
      return existsSync(pdf) ? pdf : null;
    } catch {
      return null; // a file of the list is gone: compile again
    }
  }

  private inputsKey(deps: string[]): string {
    const h = createHash('sha256');
    for (const dep of deps) h.update(`${dep}\0${sha(readFileSync(dep))}\0`);
    return h.digest('hex');
  }

  compile(texReal: string): Promise<LatexOutcome> {
    const started = Date.now();
    const hit = this.cached(texReal);
    if (hit) return Promise.resolve({ status: 'ok', pdf: hit, isCached: true, ms: Date.now() - started });
    let job = this.running.get(texReal);
    if (!job) {
      job = this.run(texReal, started).finally(() => this.running.delete(texReal));
      this.running.set(texReal, job);
    }
    return job;
  }

  private run(texReal: string, started: number): Promise<LatexOutcome> {
    const buildDir = join(this.cacheDir, sha(texReal));
    mkdirSync(buildDir, { recursive: true, mode: 0o700 });
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
        const logFile = join(buildDir, `${stem}.log`);
        const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-MAX_LOG_CHARS) : output;
        const pdf = join(buildDir, `${stem}.pdf`);
        if (code !== 0 || !existsSync(pdf) || statSync(pdf).mtimeMs < started - 1000) {
          done({ status: 'failed', error: distillError(log), log: log || output });
          return;
        }
        try {
          const deps = userInputs(readFileSync(join(buildDir, `${stem}.fls`), 'utf8'), buildDir);
          const key = this.inputsKey(deps);
          copyFileSync(pdf, join(this.cacheDir, `${key}.pdf`));
          writeFileSync(join(this.cacheDir, `${sha(texReal)}.deps.json`), JSON.stringify(deps));
          done({ status: 'ok', pdf: join(this.cacheDir, `${key}.pdf`), isCached: false, ms: Date.now() - started });
        } catch (error) {
          done({ status: 'ok', pdf, isCached: false, ms: Date.now() - started }); // shown, just not cached
          void error;
        }
      });
    });
  }
}
