/**
 * The plan of what a sandboxed command may see and change (plan.ts), on a real disk, and its cache (sandbox.ts):
 * credential stores in any letter case and through symlinks, the order of the mounts, a hooks folder a repository's
 * config names, a plan built once for a session's calls and again when the disk no longer matches it.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_DEPTH } from './find';
import { buildPlan } from './plan';
import { makeSandboxKit, SECRET_CONTENTS, type SandboxKit } from './test-kit';

let k: SandboxKit;
beforeEach(() => {
  k = makeSandboxKit();
});
afterEach(() => k.cleanup());

const STORES = { home: ['.ssh', '.config/bravesoftware', '.netrc', '.kube'], system: ['/etc/shadow'] };
const scope = () => ({ workingDir: k.ws, workspaceDir: k.ws, dataDirs: [k.data] });

describe('the plan', () => {
  it('hides the data folder, every secrets folder found and the credential stores, in any case and through symlinks', async () => {
    mkdirSync(join(k.base, 'vault'));
    rmSync(join(k.home, '.netrc'));
    symlinkSync(join(k.base, 'vault'), join(k.home, '.kube'));
    const plan = await buildPlan(scope(), STORES, [k.home]);
    const hidden = plan.mounts.filter((m) => m.kind === 'hidden').map((m) => [m.path, m.why, m.isDir]);
    expect(hidden).toEqual(
      expect.arrayContaining([
        [k.data, 'data-folder', true],
        [join(k.ws, 'secrets'), 'secrets', true],
        [join(k.ws, 'docs/secrets'), 'secrets', true],
        [join(k.ws, 'lib/Secrets'), 'secrets', true],
        [join(k.home, '.ssh'), 'credentials', true],
        [join(k.home, '.config/BraveSoftware'), 'credentials', true],
        [join(k.base, 'vault'), 'credentials', true], // ~/.kube is a symlink: its target is hidden
        ['/etc/shadow', 'credentials', false],
      ]),
    );
    // A store that does not exist is not mounted over (bubblewrap would make it).
    expect(plan.mounts.some((m) => m.path.endsWith('.netrc'))).toBe(false);
  });

  it('orders the mounts so that the deeper decides: the workspace inside the hidden data folder, its secrets and git', async () => {
    const plan = await buildPlan(scope(), STORES, [k.home]);
    const order = (path: string, kind: string) => plan.mounts.findIndex((m) => m.path === path && m.kind === kind);
    expect(order('/tmp', 'private-tmp')).toBe(0);
    expect(order(k.data, 'hidden')).toBeLessThan(order(k.ws, 'writable'));
    expect(order(k.ws, 'writable')).toBeLessThan(order(join(k.ws, 'secrets'), 'hidden'));
    expect(order(join(k.ws, '.git'), 'writable')).toBeLessThan(order(join(k.ws, '.git/hooks'), 'read-only'));
    expect(order(join(k.ws, '.git/config'), 'read-only')).toBeGreaterThan(0);
    expect(plan.walkCut).toBeNull();
  });

  it('says where the walk for secrets/ stopped', async () => {
    mkdirSync(join(k.ws, ...Array.from({ length: MAX_DEPTH + 1 }, (_, i) => `d${i}`)), { recursive: true });
    expect((await buildPlan(scope(), STORES, [k.home])).walkCut).toBe(`the walk went ${MAX_DEPTH} folders deep`);
  });

  it("a hooks folder the repository's config names stays read-only in the sandbox (.husky)", async () => {
    writeFileSync(join(k.ws, '.git/config'), '[core]\n\thooksPath = .husky\n');
    mkdirSync(join(k.ws, '.husky'));
    expect(await k.text('echo evil > .husky/pre-commit')).toContain(
      "git's hooks and configuration stay read-only in the sandbox",
    );
    expect(await k.text('echo fine > .huskyish && cat .huskyish')).toBe('fine\n[exit code 0]');
  });
});

describe('the plan is built once per session, and again when the disk changed', () => {
  it('calls of one session share one plan; a new secrets folder, or a hidden one removed, builds it again', async () => {
    for (let i = 0; i < 5; i++) await k.text('true');
    expect(k.sandbox.plansBuilt).toBe(1);
    await k.text('true', { decision: { mode: 'sandboxed', network: true } });
    expect(k.sandbox.plansBuilt).toBe(1); // network is the call's, not the plan's

    mkdirSync(join(k.ws, 'SECRETS'));
    writeFileSync(join(k.ws, 'SECRETS/new.txt'), SECRET_CONTENTS.secret);
    expect(await k.text('cat SECRETS/new.txt')).toContain('it is in a secrets/ folder]');
    expect(k.sandbox.plansBuilt).toBe(2);

    // Gone from the disk: a stale plan would have bubblewrap fail (or make the folder again as its mount point).
    rmSync(join(k.ws, 'lib/Secrets'), { recursive: true });
    expect(await k.text('echo ok')).toBe('ok\n[exit code 0]');
    expect(k.sandbox.plansBuilt).toBe(3);
    expect(await k.text('ls lib')).toBe('(no output)\n[exit code 0]');
  });
});
