/**
 * The gate every tool call passes (docs/approval.md). Order, fixed:
 *   1. hard guards — a guard deny ends it; a locked guard require may still become deny, never allow;
 *   2. rules — every matching rule of the session's group and of `default` takes part; deny beats require beats
 *      allow whatever the priority; the catch-all `*` decides only when nothing else matches; no match → require;
 *      a rule-load error (or a group that no longer exists) → require that nothing lifts (a deny may be hidden in it);
 *   3. a matching session bypass may lift require → allow (never for a shell command with unsafe constructs);
 *   4. the run context's file fast-path (working dir, its docs/ and skills/, allow_fs_reads, allow_fs_writes) may
 *      lift the fallback require → allow for the fs tools, never an explicit ask rule.
 * A deny is never lifted. Synchronous: rules are compiled and cached by the repository, so a decision is pure CPU
 * plus a few realpath calls. `explain` is the same evaluation with a trace ("what would happen if…").
 * Relative means the call's working directory (docs/approval.md "Relative means the working directory"): rule
 * paths, run-context roots, the shell's "inside the workspace" and the guards all judge below the folder the
 * session works in, wherever the person put it (`Guards.roots(workingDir)`).
 * Limits: rules see `args.path` only; guards also see the other path-like arguments (guards.ts).
 * Check ids (X3) are listed in docs/security-checks.md.
 */
import { ACTION_WORDS, ruleLabel, type Decision } from '../../../shared/contract/approval';
import { parseMcpToolName } from '../../../shared/tool-names';
import type { ToolTraits } from '../../../shared/tool-traits';
import { canonicalizeForPolicy, pathArguments, resolvePath } from '../tools/_policy/paths';
import type { ProtectedPaths } from '../tools/tool';
import type { BypassStore } from './bypass';
import { beatenText, decidingRule, hidingRule, matchRules, type CallFacts, type RuleVerdict } from './evaluate';
import { fastPathAllows } from './fast-path';
import type { GateCall } from './gate-port';
import { checkCommand } from './command-guards';
import { Guards, relIn, type GuardId, type GuardVerdict, type Roots } from './guards';
import { KeptRuleDecisions } from './kept-rule-decisions';
import { DEFAULT_GROUP } from './rule-checks';
import type { CompiledRule, RulesRepository } from './rules-repository';
import { pathFacts, type RuleAction } from './patterns';
import type { ShellAnalysis, ShellAnalyzer } from './shell';
import { slash, walkExclusions } from './walk-policy';

export type { Decision, WhyKind } from '../../../shared/contract/approval';
/** A decision as the evaluation builds it; `done` stamps it as the policy's. */
type Draft = Omit<Decision, 'actor'>;

export interface GateDeps {
  rules: RulesRepository;
  bypass: BypassStore;
  shell: ShellAnalyzer;
  workspaceDir: string;
  dataDir: string;
  dbFile: string;
  /**
   * What a tool says about itself (docs/tools.md "One tool shape"): the gate decides by its kind, category, command
   * and secret arguments, never by its name; null for a tool the core does not know (an MCP tool).
   */
  traitsOf: (toolName: string) => ToolTraits | null;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

/** How a redirect's target is judged: as a file tool's write (secrets, data folder, .git hooks, steering files). */
const REDIRECT_WRITE: Pick<ToolTraits, 'kind' | 'category'> = { kind: 'edit', category: 'filesystem' };

/** The permission group whose rules judge a call: its own, else its run context's, else the default. */
const groupOf = (call: GateCall): string => call.groupId ?? call.runContext.security_group ?? DEFAULT_GROUP;

/** Where `explain` writes a decision's steps; undefined when nothing keeps them. */
type Note = ((line: string) => void) | undefined;

export class ApprovalGate {
  private readonly guards: Guards;
  /** The rules' allow or deny of calls the rules alone decide (kept-rule-decisions.ts). */
  private readonly kept: KeptRuleDecisions;

  constructor(private readonly deps: GateDeps) {
    this.guards = new Guards({ workspaceDir: deps.workspaceDir, dataDir: deps.dataDir, dbFile: deps.dbFile });
    this.kept = new KeptRuleDecisions(() => deps.rules.version);
  }

  check(call: GateCall): Decision {
    if (!this.kept.applies(call, this.deps.traitsOf(call.toolName))) return this.evaluate(call, null);
    const groupId = groupOf(call);
    const known = this.kept.get(call, groupId);
    if (known) return known;
    const decision = this.evaluate(call, null);
    this.kept.keep(call, groupId, decision);
    return decision;
  }

  /**
   * Null when `check` can decide the call now; else a promise that resolves once it can: a shell command the bash
   * grammar must read while the grammar is still loading (docs/shell-analysis.md "Cold start"). Until then `check`
   * would read it as unparsed, which only ever asks; waiting keeps the decision the same whenever it is made.
   */
  whenReadyFor(call: Pick<GateCall, 'toolName' | 'args'>): Promise<void> | null {
    const command = this.commandOf(call.toolName, call.args);
    if (command === null) return null;
    return this.deps.shell.needsGrammar(command) ? this.deps.shell.whenLoaded() : null;
  }

  /**
   * A shell command is on its way (the model has begun writing an `execute_cmd` call): the bash grammar starts
   * loading now, not when the gate is asked, so the command rarely waits for it (docs/shell-analysis.md "Cold start").
   */
  prepareFor(toolName: string): void {
    if (this.deps.traitsOf(toolName)?.commandKey) void this.deps.shell.whenLoaded();
  }

  /** The shell command a call carries (the tool's `commandKey` argument), or null for a tool without one. */
  commandOf(toolName: string, args: Record<string, unknown>): string | null {
    const key = this.deps.traitsOf(toolName)?.commandKey;
    if (!key) return null;
    return typeof args[key] === 'string' ? (args[key] as string) : null;
  }

  /** The same decision with every step written out, for the Security page. Persists nothing. */
  explain(call: GateCall): { decision: Decision; trace: string[] } {
    const trace: string[] = [];
    return { decision: this.evaluate(call, trace), trace };
  }

  workingDirOf(call: Pick<GateCall, 'runContext' | 'workingDir'>): string {
    const ws = this.deps.workspaceDir;
    return (
      call.workingDir ?? (call.runContext.working_directory ? resolvePath(call.runContext.working_directory, ws) : ws)
    );
  }

  private evaluate(call: GateCall, trace: string[] | null): Decision {
    // Only `explain` keeps the trace: a decision made for a call builds none of its lines (`note?.(…)` does not
    // evaluate its argument), a few microseconds of every call's path.
    const note: Note = trace ? (line) => void trace.push(line) : undefined;
    const wd = this.workingDirOf(call);
    note?.(`working directory (what relative paths mean): ${wd}`);
    const { toolName, args } = call;
    const tool = this.deps.traitsOf(toolName);
    // The roots' real paths (one or two realpath calls), resolved once a path or a command needs them: a call
    // without either (most of a turn's bookkeeping tools) never asks the file system.
    let resolvedRoots: Roots | null = null;
    const roots = (): Roots => (resolvedRoots ??= this.guards.roots(wd));
    // One canonicalization per distinct path in a decision, walked down from the roots' real paths where it can be
    // (Guards.canonical): the file system's lookups are the costly part of a decision.
    const canonCache = new Map<string, string>();
    const canon = (p: string, base: string) => {
      const key = `${base}\0${p}`;
      let c = canonCache.get(key);
      if (c === undefined) canonCache.set(key, (c = this.guards.canonical(roots(), resolvePath(p, base))));
      return c;
    };

    // 1. Hard guards.
    let locked: GuardVerdict | null = null;
    for (const p of pathArguments(args)) {
      const v = this.guards.checkPath(roots(), tool, resolvePath(p, wd), canon(p, wd));
      if (v?.action === 'deny')
        return this.done({ action: 'deny', why: { kind: 'guard', guard: v.guard, text: v.text } }, note);
      locked ??= v;
    }
    const isShell = !!tool?.commandKey;
    const command = isShell && typeof args[tool.commandKey!] === 'string' ? (args[tool.commandKey!] as string) : '';
    const workdir = typeof args.workdir === 'string' && args.workdir !== '' ? resolvePath(args.workdir, wd) : wd;
    // The guards judge the command's words after the shell's expansions, so the analysis comes first.
    const shell = isShell ? this.analyze(command, workdir, roots()) : null;
    if (isShell) locked ??= checkCommand(this.guards, roots(), command, workdir, shell);
    if (tool?.storesSecret)
      locked ??= { action: 'require', guard: 'secret_value', text: 'Storing a secret always asks.' };
    if (locked) note?.(`guard ${locked.guard}: ${locked.text}`);

    // 2. Rules.
    const facts: CallFacts = {
      toolName,
      agentId: call.agentId,
      source: call.source,
      path: this.pathFacts(args, wd, roots, canon),
      shell,
    };
    if (facts.path) note?.(`path for rules: ${facts.path.rel ?? facts.path.abs}`);
    if (facts.shell)
      note?.(
        `command parts: ${JSON.stringify(facts.shell.parts)}${facts.shell.unsafe.length ? `; never auto-allowed: ${facts.shell.unsafe.join(', ')}` : ''}`,
      );
    const groupId = groupOf(call);
    let verdict: RuleVerdict;
    let allowedBy: CompiledRule[] = [];
    try {
      ({ verdict, allowedBy } = matchRules(this.ruleLists(groupId, toolName), facts));
    } catch (error) {
      this.deps.log?.('approval rules could not be loaded; asking', { error: String(error) });
      if (locked)
        return this.done({ action: 'require', why: { kind: 'guard', guard: locked.guard, text: locked.text } }, note);
      return this.done(
        {
          action: 'require',
          why: { kind: 'load_error', text: `The rules could not be evaluated (${(error as Error).message}); asking.` },
        },
        note,
      );
    }
    const match = verdict.rule;
    if (match)
      note?.(
        `deciding rule: ${ruleLabel(match.rule)} (group ${match.rule.group_id}, priority ${match.rule.priority})${verdict.isFallback ? ', the fallback: no other rule matched' : ''}`,
      );
    else note?.('no rule matched');
    for (const b of verdict.beaten)
      note?.(`beaten: ${ruleLabel(b.rule)} (${ACTION_WORDS[match!.rule.action]} beats ${ACTION_WORDS[b.rule.action]})`);
    const beats = beatenText(verdict.beaten);
    if (match?.rule.action === 'deny')
      return this.done(
        {
          action: 'deny',
          why: {
            kind: 'rule',
            ruleId: match.rule.id,
            text: `Denied by ${ruleLabel(match.rule)}${beats}`,
          },
        },
        note,
      );
    if (locked)
      return this.done({ action: 'require', why: { kind: 'guard', guard: locked.guard, text: locked.text } }, note);
    if (match?.rule.action === 'allow') {
      const others = allowedBy.filter((c) => c !== match).map((c) => ruleLabel(c.rule));
      const extra = others.length ? ` (other parts: ${[...new Set(others)].join('; ')})` : '';
      return this.done(
        {
          action: 'allow',
          why: {
            kind: 'rule',
            ruleId: match.rule.id,
            text: `Allowed by ${ruleLabel(match.rule)}${extra}`,
          },
          // Network goes with the allow when every rule that allowed a part grants it (docs/sandbox.md "The
          // decision"): `npm install x && curl …` under a grant for `npm install *` alone runs without.
          ...(allowedBy.every((c) => c.rule.network) ? { sandbox: { mode: 'sandboxed', network: true } as const } : {}),
        },
        note,
      );
    }

    const unsafe = facts.shell?.unsafe.length
      ? ` The command has ${facts.shell.unsafe[0]}, which no rule can auto-allow.`
      : '';
    const base: Draft = match
      ? {
          action: 'require',
          why: {
            kind: 'rule',
            ruleId: match.rule.id,
            text: `Asks because of ${ruleLabel(match.rule)}${verdict.isFallback ? ' (no other rule matched)' : beats}.${unsafe}`,
          },
        }
      : {
          action: 'require',
          why: { kind: 'default', text: `No rule matched: asks (the default is require).${unsafe}` },
        };

    // A command whose effect its parts do not show (substitution, `bash -c`, a redirect out of the workspace, a
    // parse failure, …) is asked about every time: a bypass granted for "the shell tools" after `npm test` must not
    // let an injected `curl … | sh` through.
    if (facts.shell?.unsafe.length) return this.done(base, note);

    // 3. Bypass (a human's, time-boxed): lifts any require, an explicit ask rule's included.
    if (call.sessionId !== null) {
      const grant = this.deps.bypass.covering(call.sessionId, {
        toolName,
        category: call.category,
        path: facts.path?.abs ?? null,
        commandParts: facts.shell?.parts ?? null,
      });
      if (grant) {
        const until =
          grant.expiresAt === null ? 'until the session ends' : `until ${new Date(grant.expiresAt).toISOString()}`;
        return this.done(
          { action: 'allow', why: { kind: 'bypass', text: `Allowed by your bypass for ${grant.label} (${until}).` } },
          note,
        );
      }
    }

    // 4. The run context's file fast-path is an implicit allow: it lifts the fallback, never an explicit ask rule
    // (ask beats allow).
    if (match && !verdict.isFallback) return this.done(base, note);
    const fast = fastPathAllows(this.deps.traitsOf(call.toolName), call.runContext, wd, facts);
    if (fast) return this.done({ action: 'allow', why: { kind: 'fast_path', text: fast } }, note);
    return this.done(base, note);
  }

  private done(d: Draft, note: Note): Decision {
    note?.(`decision: ${ACTION_WORDS[d.action]} (${d.why.kind}) — ${d.why.text}`);
    return { ...d, actor: 'policy' };
  }

  /**
   * What a walk of this call (grep_files, list_files recursive) must leave out (docs/approval.md "Walks skip what is
   * protected"; `walkExclusions` in walk-policy.ts): the guards, and the deny and ask rules with a path pattern for
   * this tool and caller. When the rules cannot be loaded the call itself asked; the guards still apply.
   */
  walkPolicy(call: GateCall): ProtectedPaths {
    const wd = this.workingDirOf(call);
    const rootReal =
      typeof call.args.path === 'string' && call.args.path !== ''
        ? canonicalizeForPolicy(call.args.path, wd)
        : canonicalizeForPolicy(wd, wd);
    // The deny and ask rules with a path pattern for this tool and caller (their lookup may throw: walk-policy.ts).
    const candidates = () =>
      this.ruleLists(groupOf(call), call.toolName)
        .flat()
        .filter(
          (c) =>
            c.path &&
            c.rule.action !== 'allow' &&
            (c.rule.agent_id === null || c.rule.agent_id === call.agentId) &&
            (c.rule.source === null || c.rule.source === call.source),
        );
    return walkExclusions(this.guards, this.guards.roots(wd), rootReal, candidates);
  }

  /** The candidate rules for this tool: the session's group, then default. */
  private ruleLists(groupId: string, toolName: string): CompiledRule[][] {
    const rules = this.deps.rules;
    if (groupId === DEFAULT_GROUP) return [rules.candidates(DEFAULT_GROUP, toolName)];
    // A session pointing at a deleted group fails closed: its denies are unknown, so nothing may be lifted.
    if (!rules.hasGroup(groupId)) throw new Error(`the permission group "${groupId}" does not exist`);
    return [rules.candidates(groupId, toolName), rules.candidates(DEFAULT_GROUP, toolName)];
  }

  private pathFacts(
    args: Record<string, unknown>,
    wd: string,
    roots: () => Roots,
    canon: (p: string, base: string) => string,
  ): CallFacts['path'] {
    if (typeof args.path !== 'string' || args.path === '') return null;
    const c = canon(args.path, wd);
    return pathFacts(relIn(c, roots().wsCanon), slash(c));
  }

  private analyze(command: string, workdir: string, roots: Roots): ShellAnalysis {
    return this.deps.shell.analyze(command, slash(workdir), (target) => {
      const lexical = resolvePath(target, workdir);
      const c = canonicalizeForPolicy(target, workdir);
      if (relIn(c, roots.wsCanon) === null) return false;
      // A redirect is a write: the same guards as write_file (secrets, data folder, .git hooks, steering files).
      return this.guards.checkPath(roots, REDIRECT_WRITE, lexical, c) === null;
    });
  }

  /** Hidden when the rules deny every call of the tool (docs/approval.md "Visibility"). MCP tools are never hidden. */
  isToolHidden(groupId: string | undefined, toolName: string, who?: { agentId: string; source: string }): boolean {
    if (parseMcpToolName(toolName)) return false;
    try {
      const group = groupId ?? DEFAULT_GROUP;
      const lists =
        group === DEFAULT_GROUP || !this.deps.rules.hasGroup(group)
          ? [this.deps.rules.candidates(DEFAULT_GROUP, toolName)]
          : this.ruleLists(group, toolName);
      return hidingRule(lists, toolName, who) !== null;
    } catch {
      return false; // the gate still asks for every call of a tool we could not judge
    }
  }

  /**
   * Each part of a shell call with the action its own deciding rule gives (null: none matched), as the rules read a
   * compound command (X3): which parts decided it, for "make a rule from this" (suggest-rules.ts).
   */
  partActions(call: GateCall): { part: string; action: RuleAction | null }[] {
    const wd = this.workingDirOf(call);
    const command = this.commandOf(call.toolName, call.args) ?? '';
    const workdir =
      typeof call.args.workdir === 'string' && call.args.workdir !== '' ? resolvePath(call.args.workdir, wd) : wd;
    const shell = this.analyze(command, workdir, this.guards.roots(wd));
    let lists: CompiledRule[][] = [];
    try {
      lists = this.ruleLists(groupOf(call), call.toolName);
    } catch {
      lists = []; // a group that no longer exists: no rule decides a part
    }
    const facts: CallFacts = { toolName: call.toolName, agentId: call.agentId, source: call.source, path: null, shell };
    return shell.parts.map((part) => ({
      part,
      action: decidingRule(lists, { ...facts, shell: { ...shell, parts: [part] } }).rule?.rule.action ?? null,
    }));
  }

  /** How the rules see a shell command (the Security page's preview): the same analysis a decision makes. */
  analyzeCommand(command: string, workdir: string): ShellAnalysis {
    const wd = resolvePath(workdir, this.deps.workspaceDir);
    return this.analyze(command, wd, this.guards.roots(wd));
  }

  filterVisible(
    groupId: string | undefined,
    names: readonly string[],
    who?: { agentId: string; source: string },
  ): string[] {
    return names.filter((n) => !this.isToolHidden(groupId, n, who));
  }
}
