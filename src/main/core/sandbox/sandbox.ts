/**
 * The sandbox service (docs/sandbox.md): turns a call's decision, its session's folders and the folder it starts in
 * into how to start it, or a sentence saying why it cannot.
 * - The plan (plan.ts: the walk for `secrets` and `.git`, the credential stores, the mounts) is built once per
 *   session's folders and kept, keyed by what it depends on (working directory, workspace, data folders, homes);
 *   a call only checks that it is still fresh (a stat per mount) and adds its own few arguments (network, the folder
 *   it starts in). `invalidate()` drops every plan (settings changed).
 * - Whether the sandbox can start at all is probed once (status.ts). When it cannot, a sandboxed call is refused
 *   with the reason and the fix: it never runs unconfined instead. Running unconfined is only ever the decision's.
 * - Windows has no sandbox here: a call runs unconfined with a note saying so.
 */
import { closeSync, mkdtempSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { bwrapArgs, mountsForCall } from './bwrap';
import type { CommandSandbox, Launch, SandboxDecision } from '../tools/sandbox-port';
import { hiddenReason, sandboxRefusals } from './explain';
import { buildPlan, type CredentialStores, type SandboxPlan, type SandboxScope } from './plan';
import { seatbeltProfile } from './seatbelt';
import { openUnixSocketFilter } from './seccomp';
import { probeSandbox, type SandboxStatus } from './status';
import type { SandboxLine } from '../../../shared/contract/sandbox';

export type { Launch };

export interface SandboxOptions {
  /** The credential stores to hide: approval/guards.ts's lists, passed in by the composition root. */
  credentialStores: CredentialStores;
  /** Home folders whose credential stores are hidden (default: the app's). */
  homes?: () => readonly string[];
  platform?: NodeJS.Platform;
  /** The bubblewrap binary (default `bwrap` on the PATH). */
  bwrap?: string;
  /**
   * The person's choice in Settings → Sandbox: while the sandbox cannot start, run commands outside it (each result
   * and card says so) instead of refusing them. Default: refuse. Never a silent fallback.
   */
  unconfinedWhenUnavailable?: () => boolean;
}

/** Plans kept at most (one per session's folders; an app has a handful of sessions open). */
const MAX_PLANS = 32;

interface Entry {
  plan: SandboxPlan;
  /** macOS: the folder that stands for `/tmp`. */
  privateTmp?: string;
  profiles?: Map<boolean, string>;
}

/** What a card's line says of the sandbox when its probe has not answered yet (the first ms after start). */
const CHECKING = ' (if it can start: still checking)';

export class Sandbox implements CommandSandbox {
  private probe: Promise<SandboxStatus> | null = null;
  private probed: SandboxStatus | null = null;
  private readonly plans = new Map<string, Entry>();
  /** Plans being built: two calls of one session at once share the walk. */
  private readonly building = new Map<string, Promise<Entry>>();
  private builtPlans = 0;
  private readonly platform: NodeJS.Platform;

  constructor(private readonly options: SandboxOptions) {
    this.platform = options.platform ?? process.platform;
  }

  /** Whether the sandbox can start here; probed once, on first use. */
  status(): Promise<SandboxStatus> {
    this.probe ??= probeSandbox(this.platform, this.options.bwrap).then((status) => (this.probed = status));
    return this.probe;
  }

  /** The probe's answer once it came (a card's line is drawn without waiting); starts the probe if need be. */
  statusNow(): SandboxStatus | null {
    void this.status();
    return this.probed;
  }

  /** Whether the person chose to run commands outside the sandbox while it cannot start (Settings → Sandbox). */
  get runsUnconfinedWhenUnavailable(): boolean {
    return this.options.unconfinedWhenUnavailable?.() ?? false;
  }

  /**
   * What an approval card says of where a command of a session working in `workingDir` runs (docs/approval.md "The
   * sandbox on the card"): in the sandbox, writing inside the folder, no network; or why it cannot, and the fix.
   */
  cardLine(workingDir: string): SandboxLine {
    const status = this.statusNow();
    if (status === null || status.state === 'ready')
      return {
        state: 'sandboxed',
        text: `runs in the sandbox${status ? '' : CHECKING}: writes inside ${workingDir}, no network`,
        fix: null,
      };
    if (status.state === 'unsupported')
      return { state: 'unsupported', text: `runs outside the sandbox: ${status.reason}`, fix: null };
    if (this.runsUnconfinedWhenUnavailable)
      return {
        state: 'unconfined',
        text: `runs outside the sandbox, with your full rights, as you chose in Settings → Sandbox: ${status.reason}`,
        fix: status.fix,
      };
    return { state: 'unavailable', text: `cannot run in the sandbox: ${status.reason}`, fix: status.fix };
  }

  /** How many plans were built (the bench checks that calls of one session share one). */
  get plansBuilt(): number {
    return this.builtPlans;
  }

  invalidate(): void {
    this.plans.clear();
  }

  /** The plan for a session's folders: kept, rebuilt only when stale. */
  private plan(scope: SandboxScope): Promise<Entry> {
    const homes = this.options.homes?.() ?? [homedir()];
    const key = JSON.stringify([scope.workingDir, scope.workspaceDir, scope.dataDirs, homes]);
    const hit = this.plans.get(key);
    if (hit?.plan.isFresh()) return Promise.resolve(hit);
    const pending = this.building.get(key);
    if (pending) return pending;
    this.plans.delete(key);
    const build = buildPlan(scope, this.options.credentialStores, homes)
      .then((plan) => {
        this.builtPlans++;
        if (this.plans.size >= MAX_PLANS) this.plans.delete(this.plans.keys().next().value!);
        const entry: Entry = { plan };
        this.plans.set(key, entry);
        return entry;
      })
      .finally(() => this.building.delete(key));
    this.building.set(key, build);
    return build;
  }

  /** How to start `argv` (program first) in `cwd` for a call of the session `scope` under `decision`. */
  async launch(decision: SandboxDecision, scope: SandboxScope, cwd: string, argv: readonly string[]): Promise<Launch> {
    if (decision.mode === 'unconfined') return { kind: 'unconfined', note: null };
    const status = await this.status();
    if (status.state === 'unsupported') return { kind: 'unconfined', note: status.reason };
    if (status.state === 'unavailable' && this.runsUnconfinedWhenUnavailable)
      return {
        kind: 'unconfined',
        note: `the sandbox cannot start (${status.reason}); you chose in Settings → Sandbox to run commands outside it.`,
      };
    if (status.state === 'unavailable')
      return {
        kind: 'refused',
        reason: `The sandbox cannot start, so the command did not run: ${status.reason} ${status.fix}`,
      };
    let entry: Entry;
    try {
      entry = await this.plan(scope);
    } catch (error) {
      return { kind: 'refused', reason: `The sandbox could not be prepared: ${(error as Error).message}.` };
    }
    const mounts = mountsForCall(entry.plan, cwd);
    if (!Array.isArray(mounts))
      return {
        kind: 'refused',
        reason: `The sandbox hides the folder this command would run in (${cwd}): ${hiddenReason(mounts.hiddenBy.why)}. Run it in the working folder.`,
      };
    const explain = (output: string) =>
      sandboxRefusals(output, { mounts, workingDir: entry.plan.workingDir, cwd, network: decision.network });
    if (status.engine === 'seatbelt') {
      entry.privateTmp ??= mkdtempSync(join(tmpdir(), 'skald-sandbox-'));
      entry.profiles ??= new Map();
      let profile = entry.profiles.get(decision.network);
      if (!profile) {
        profile = seatbeltProfile(mounts, entry.privateTmp, decision.network);
        if (mounts.length === entry.plan.mounts.length) entry.profiles.set(decision.network, profile);
      }
      return {
        kind: 'confined',
        file: '/usr/bin/sandbox-exec',
        args: ['-p', profile, ...argv],
        fds: [],
        release: () => undefined,
        env: { TMPDIR: entry.privateTmp },
        explain,
      };
    }
    let filter: number | null;
    try {
      filter = status.seccomp ? openUnixSocketFilter() : null;
    } catch (error) {
      return {
        kind: 'refused',
        reason: `The sandbox's Unix-socket filter could not be read: ${(error as Error).message}.`,
      };
    }
    const fds = filter === null ? [] : [filter];
    const args = bwrapArgs(mounts, {
      network: decision.network,
      cwd,
      disableUserns: status.disableUserns,
      tmpfsPerms: status.tmpfsPerms,
      seccomp: filter !== null,
    });
    return {
      kind: 'confined',
      file: this.options.bwrap ?? 'bwrap',
      args: [...args, ...argv],
      fds,
      release: () => fds.splice(0).forEach((fd) => closeSync(fd)),
      env: {},
      explain,
    };
  }
}
