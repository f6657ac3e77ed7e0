/**
 * The LaTeX compiler against the real latexmk/XeLaTeX: a document that compiles (and is then a cache hit), one
 * that fails with its error line, a change to an \input file that recompiles, an endless loop killed at the
 * limit, and a missing TeX installation.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { distillError, LatexCompiler, TEX_MISSING, userInputs, type InputPolicy } from './latex';

let dir: string;
let cache: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'skald-tex-')));
  cache = realpathSync(mkdtempSync(join(tmpdir(), 'skald-tex-cache-')));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
});

const doc = (body: string) => `\\documentclass{article}\n\\begin{document}\n${body}\n\\end{document}\n`;

describe('LaTeX compiler', () => {
  it('compiles, answers the second time from the cache, recompiles when an \\input file changes', async () => {
    writeFileSync(join(dir, 'main.tex'), doc('Hello \\input{part}'));
    writeFileSync(join(dir, 'part.tex'), 'first part');
    const tex = new LatexCompiler(cache);
    const first = await tex.compile(join(dir, 'main.tex'));
    expect(first).toMatchObject({ status: 'ok', isCached: false });
    const second = await tex.compile(join(dir, 'main.tex'));
    expect(second).toMatchObject({ status: 'ok', isCached: true });
    writeFileSync(join(dir, 'part.tex'), 'second part');
    const third = await tex.compile(join(dir, 'main.tex'));
    expect(third).toMatchObject({ status: 'ok', isCached: false });
    expect((third as { pdf: string }).pdf).not.toBe((first as { pdf: string }).pdf);
    // The build and cache stay outside the document's folder.
    expect(execFileSync('ls', [dir]).toString().trim().split('\n').sort()).toEqual(['main.tex', 'part.tex']);
  });

  it('a failing document gives its first error with file and line, and the full log', async () => {
    writeFileSync(join(dir, 'bad.tex'), doc('line two\n\\undefinedmacro here'));
    const out = await new LatexCompiler(cache).compile(join(dir, 'bad.tex'));
    expect(out).toMatchObject({
      status: 'failed',
      error: { file: 'bad.tex', line: 4, message: expect.stringContaining('Undefined control sequence') },
    });
    expect((out as { log: string }).log).toContain('Undefined control sequence');
  });

  it('an input the viewer refuses shows neither the PDF nor, when the build fails, the log that quotes it', async () => {
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets', 'key.tex'), 'SECRET-TOKEN \\undefinedmacro');
    writeFileSync(join(dir, 'fails.tex'), doc('\\input{secrets/key}'));
    writeFileSync(join(dir, 'builds.tex'), doc('\\input{part}'));
    writeFileSync(join(dir, 'part.tex'), 'SECRET-TOKEN');
    const policy: InputPolicy = {
      guard: { root: dir, protectedRoots: [] },
      refuse: (path) => (path.includes('/secrets/') || path.endsWith('part.tex') ? `${path} is refused.` : null),
    };
    const tex = new LatexCompiler(cache);
    for (const name of ['fails.tex', 'builds.tex']) {
      const out = await tex.compile(join(dir, name), policy);
      expect(out).toMatchObject({
        status: 'failed',
        error: { message: expect.stringMatching(/is refused\.$/) },
        log: '',
      });
      expect(JSON.stringify(out)).not.toContain('SECRET-TOKEN');
    }
    // Without the policy (the compiler alone), the same build is shown: the refusal is the viewer's.
    expect(await tex.compile(join(dir, 'builds.tex'))).toMatchObject({ status: 'ok' });
  });

  it('shell escape stays off', async () => {
    writeFileSync(join(dir, 'esc.tex'), doc('\\immediate\\write18{touch pwned}done'));
    await new LatexCompiler(cache).compile(join(dir, 'esc.tex'));
    expect(() => execFileSync('ls', [join(dir, 'pwned')], { stdio: 'ignore' })).toThrow();
  });

  it("a latexmkrc beside the document is not run (latexmk's rc files are Perl: opening a .tex ran its code)", async () => {
    writeFileSync(join(dir, 'doc.tex'), doc('Hello'));
    for (const rc of ['latexmkrc', '.latexmkrc'])
      writeFileSync(join(dir, rc), `system("touch ${join(dir, `pwned-by-${rc}`)}"); 1;\n`);
    const out = await new LatexCompiler(cache).compile(join(dir, 'doc.tex'));
    expect(out).toMatchObject({ status: 'ok' });
    expect(execFileSync('ls', ['-A', dir]).toString().trim().split('\n').sort()).toEqual([
      '.latexmkrc',
      'doc.tex',
      'latexmkrc',
    ]);
  });

  it('a document writes its files into the build folder, never beside itself', async () => {
    writeFileSync(
      join(dir, 'writer.tex'),
      doc(
        '\\newwrite\\f\\immediate\\openout\\f=Makefile\\immediate\\write\\f{all: ; curl evil}\\immediate\\closeout\\f done',
      ),
    );
    expect(await new LatexCompiler(cache).compile(join(dir, 'writer.tex'))).toMatchObject({ status: 'ok' });
    expect(execFileSync('ls', ['-A', dir]).toString().trim()).toBe('writer.tex');
  });

  it('an endless loop is killed at the limit, with its whole process group', async () => {
    writeFileSync(join(dir, 'loop.tex'), doc('\\def\\x{\\x}\\x'));
    const started = Date.now();
    const out = await new LatexCompiler(cache, 'latexmk', 2_000).compile(join(dir, 'loop.tex'));
    expect(out.status).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(execFileSync('ps', ['-eo', 'args']).toString()).not.toContain('loop.tex');
  });

  it('TeX runs without provider keys, credentials or our own settings in its environment', async () => {
    const fake = join(dir, 'fake-latexmk.sh');
    writeFileSync(fake, `#!/bin/sh\nenv > '${join(dir, 'env.txt')}'\nexit 1\n`, { mode: 0o755 });
    writeFileSync(join(dir, 'main.tex'), doc('x'));
    const saved = { ...process.env };
    Object.assign(process.env, {
      OPENAI_API_KEY: 'sk-from-env',
      MY_SERVICE_TOKEN: 'tok-123',
      SKALD_DATA_DIR: '/data',
      HARMLESS: 'kept',
    });
    try {
      await new LatexCompiler(cache, fake).compile(join(dir, 'main.tex'));
    } finally {
      for (const k of ['OPENAI_API_KEY', 'MY_SERVICE_TOKEN', 'SKALD_DATA_DIR', 'HARMLESS'])
        if (!(k in saved)) delete process.env[k];
    }
    const env = readFileSync(join(dir, 'env.txt'), 'utf8');
    expect(env).toContain('HARMLESS=kept');
    expect(env).toContain('max_print_line=1000');
    for (const leaked of ['sk-from-env', 'tok-123', 'SKALD_DATA_DIR']) expect(env).not.toContain(leaked);
  });

  it('without TeX installed it says how to install it', async () => {
    writeFileSync(join(dir, 'main.tex'), doc('x'));
    expect(await new LatexCompiler(cache, 'latexmk-not-installed-here').compile(join(dir, 'main.tex'))).toEqual({
      status: 'unavailable',
      message: TEX_MISSING,
    });
  });
});

describe('recorder and log parsing', () => {
  it('keeps the user inputs of an .fls and drops TeX files and the build folder', () => {
    const fls = [
      'PWD /doc',
      'INPUT /usr/share/texlive/texmf-dist/tex/latex/base/article.cls',
      'INPUT /etc/texmf/web2c/texmf.cnf',
      'INPUT main.tex',
      'INPUT ./fig/a.png',
      'INPUT /build/main.aux',
      'INPUT refs.bib',
    ].join('\n');
    expect(userInputs(fls, '/build')).toEqual(['/doc/fig/a.png', '/doc/main.tex', '/doc/refs.bib']);
  });

  it('distills the classic "! … l.N" form too', () => {
    expect(distillError('stuff\n! Missing $ inserted.\n<inserted text>\nl.12 a_b\n')).toEqual({
      file: null,
      line: 12,
      message: 'Missing $ inserted.',
    });
  });
});
