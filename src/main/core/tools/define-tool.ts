/**
 * `defineTool`: the one way a built-in tool is made (docs/approval.md "The normalized call"). A definition gives a
 * name, a kind, a zod input and an `execute`/`executeAsync`; this module derives everything else the `Tool` has:
 * - the JSON Schema the model sees, generated once from the zod input (`$schema` stripped, top level must be an
 *   object or the definition throws at startup), and the OpenAI definition around it;
 * - `normalize`: the one normalized form of a call's arguments (lenient parse, strict advertisement): aliases
 *   folded onto their canonical key (an alias that contradicts it is an error), the zod parse (coercions, defaults,
 *   unknown keys dropped), path arguments made absolute against the working directory (one longer than the system
 *   takes is refused first, as sent: `overLongPathText`). The gate, the approval card, the hash, the stored row and
 *   the execution all use its output; parsing that output again gives it back;
 * - the error convention: a bad argument, a refused path, a missing file, a non-unique edit → the execution
 *   completes as `failed` with a message the model can act on. Tools signal those with `ToolError`; anything
 *   else that throws is also caught (R7) and reported as an unexpected failure;
 * - the default `run()` = `SimpleExecution` around `executeAsync`, or for `execute` (sync) its outcome as a
 *   `SettledExecution`; and `describe` = the tool name.
 * Check ids (R7) are listed in docs/security-checks.md.
 */
import { z } from 'zod';
import { maxLabel, truncateLabel, type LabelLength } from '../../../shared/labels';
import type { ToolCategory } from '../../../shared/tool-names';
import { overLongPathText, resolvePath } from './_policy/paths';
import { SettledExecution, SimpleExecution, errorText } from './execution';
import type {
  CardDisplay,
  ExecutionOutcome,
  Normalized,
  OpenAiToolDefinition,
  Preview,
  PreviewContext,
  SecretPaths,
  Tool,
  ToolArgs,
  ToolExecution,
  ToolKind,
  ToolRunContext,
} from './tool';

/** A failure written for the model: the execution ends `failed` with exactly this message. */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}

export type ToolReturn = string | ExecutionOutcome;

export interface ToolDefinition<S extends z.ZodType> {
  name: string;
  description: string;
  input: S;
  category: ToolCategory;
  /** What the call does, for the gate, the approval card and the session (read, edit, execute, config, other). */
  kind: ToolKind;
  /** What the default group decides when no other rule names it (docs/tools.md "One tool shape"). Default: require. */
  defaultDecision?: 'allow' | 'require';
  /** The argument holding a shell command the gate reads (execute_cmd's `command`). */
  commandKey?: string;
  /** The secret argument is a value to keep: every call asks and no bypass is offered. */
  storesSecret?: boolean;
  /** How its card shows a call. Default: `diff` for an edit, `command` for a tool with a command, else `none`. */
  card?: CardDisplay;
  subAgentsOnly?: boolean;
  rootAgentOnly?: boolean;
  isIdempotent?: boolean;
  /** Arguments that hold secrets (sealed wherever the call is stored or shown). */
  secretPaths?: SecretPaths;
  /** Known model slips accepted at parse time (`file_path` → `path`); the advertised schema stays strict. */
  aliases?: Readonly<Record<string, string>>;
  /** Argument keys holding paths, made absolute against the working directory. Default: `path` if the input has it. */
  pathKeys?: readonly string[];
  /** A last step of normalization the schema cannot say (e.g. a folder that defaults to the working directory). */
  effective?: (args: z.output<S>, workingDir: string) => z.output<S>;
  describe?: (args: z.output<S>, length: LabelLength) => string;
  targetPath?: (args: ToolArgs) => string | null;
  /** The dry run for the approval card: the same code path as `execute` up to the effect. A ToolError = refused. */
  preview?: (args: z.output<S>, ctx: PreviewContext) => Preview | null;
  /** Sync work. Either this or `executeAsync`. */
  execute?: (args: z.output<S>, ctx: ToolRunContext) => ToolReturn;
  /** Async work; `signal` aborts the in-flight I/O on stop. */
  executeAsync?: (args: z.output<S>, ctx: ToolRunContext, signal: AbortSignal) => Promise<ToolReturn>;
  /** Bespoke execution handle (remote teardown); default is `SimpleExecution`. */
  run?: (args: ToolArgs, ctx: ToolRunContext, self: Tool) => ToolExecution;
}

/**
 * A JSON value frozen all the way down: a tool's schema is handed out as one shared object every round, so whoever
 * would change it (a provider adding `strict`, a test) fails at once instead of changing every later round's copy.
 */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** JSON Schema for the model: generated from the zod input, `$schema` removed, must be an object schema. */
export function jsonSchemaOf(name: string, input: z.ZodType): Record<string, unknown> {
  const { $schema: _drop, ...schema } = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  if (schema.type !== 'object') throw new Error(`Tool ${name}: the input schema must be a JSON object schema`);
  return schema;
}

/** What the model reads about arguments it must fix: one `- where: what` line a problem. */
export function invalidArgumentsText(name: string, problems: readonly string[]): string {
  return `Invalid arguments for ${name}:\n${problems.map((p) => `- ${p}`).join('\n')}\nFix these and call ${name} again.`;
}

/** "path: expected string" lines, one per issue, for the model to fix its call. */
export function describeZodError(name: string, error: z.ZodError): string {
  return invalidArgumentsText(
    name,
    error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : 'arguments'}: ${issue.message}`),
  );
}

/**
 * Folds aliases onto their canonical key. An alias with the same value as the canonical key (or as another alias
 * of it) is dropped; different values are an error: which one the model meant is not ours to guess, and the gate
 * must see the one the tool will use.
 */
export function foldAliases(
  args: ToolArgs,
  aliases: Readonly<Record<string, string>> | undefined,
): { ok: true; args: ToolArgs } | { ok: false; error: string } {
  if (!aliases || typeof args !== 'object' || args === null) return { ok: true, args };
  let out = args;
  // `for…in`, not Object.entries: a card's labels fold the arguments on every history page, and most calls name no alias.
  for (const alias in aliases) {
    if (!Object.hasOwn(aliases, alias) || !Object.hasOwn(args, alias)) continue;
    const canonical = aliases[alias]!;
    if (out === args) out = { ...args };
    const value = out[alias];
    delete out[alias];
    if (!Object.hasOwn(out, canonical)) out[canonical] = value;
    else if (JSON.stringify(out[canonical]) !== JSON.stringify(value)) {
      return {
        ok: false,
        error: `Both "${canonical}" and "${alias}" were given, with different values. Send only "${canonical}".`,
      };
    }
  }
  return { ok: true, args: out };
}

function toOutcome(value: ToolReturn): ExecutionOutcome {
  return typeof value === 'string' ? { kind: 'completed', result: value } : value;
}

export function defineTool<S extends z.ZodType>(def: ToolDefinition<S>): Tool<S> {
  if (def.subAgentsOnly && def.rootAgentOnly) {
    // Both flags would make the tool invisible to every agent (docs/agents.md): refuse it at definition time too.
    throw new Error(`Tool ${def.name} cannot be both sub-agents-only and root-agent-only`);
  }
  if (!def.execute && !def.executeAsync) throw new Error(`Tool ${def.name} needs execute or executeAsync`);
  // Generated at first use and then shared, frozen: building the schemas of the built-in tools cost the app's start
  // about 8 ms (nothing asks for them before the first model call), and a fresh copy of each per round cost every
  // round a quarter of a millisecond (0.25 ms -> 0.004 ms for the root agent's list).
  let frozenParameters: Record<string, unknown> | null = null;
  const parameters = () => (frozenParameters ??= deepFreeze(jsonSchemaOf(def.name, def.input)));
  const shape = def.input instanceof z.ZodObject ? (def.input.shape as Record<string, unknown>) : {};
  const pathKeys = def.pathKeys ?? ('path' in shape ? ['path'] : []);
  const folded = (args: ToolArgs): ToolArgs => {
    const f = foldAliases(args ?? {}, def.aliases);
    return f.ok ? f.args : args;
  };

  // The forms this tool's `normalize` made: the session's path normalizes a call's arguments for the gate and hands
  // the tool that very object to run, which is not normalized a second time (a normalized form comes back unchanged).
  const normalizedForms = new WeakSet<ToolArgs>();
  /** The last arguments checked for a label or by `normalize`, with what the schema made of them (`labelData`). */
  let lastLabel: { args: ToolArgs; data: z.output<S> | null } | null = null;
  const normalize = (args: ToolArgs, workingDir: string): Normalized => {
    if (normalizedForms.has(args)) return { ok: true, args };
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      return { ok: false, error: `The arguments for ${def.name} must be a JSON object.` };
    const f = foldAliases(args, def.aliases);
    if (!f.ok) return { ok: false, error: `Invalid arguments for ${def.name}: ${f.error}` };
    for (const key of pathKeys) {
      const problem = overLongPathText(key, f.args[key]);
      if (problem) return { ok: false, error: invalidArgumentsText(def.name, [problem]) };
    }
    const parsed = def.input.safeParse(f.args);
    // The card's labels of these arguments read this check, not a second one (`labelData`).
    lastLabel = { args, data: parsed.success ? parsed.data : null };
    if (!parsed.success) return { ok: false, error: describeZodError(def.name, parsed.error) };
    let out = parsed.data as ToolArgs;
    for (const key of pathKeys) {
      const value = out[key];
      if (typeof value === 'string' && value !== '') out = { ...out, [key]: resolvePath(value, workingDir) };
    }
    if (def.effective) out = def.effective(out as z.output<S>, workingDir) as ToolArgs;
    normalizedForms.add(out);
    return { ok: true, args: out };
  };

  /**
   * The arguments a label is built from, or null where the schema refuses them. A card asks for its short and then its
   * full label with the same object: the check is kept from the one to the other (and no longer: the arguments may
   * hold a whole file's text), so both come from one check; so is `normalize`'s check of the same object (a round's
   * first call is normalized for the gate before its card's labels are asked), until the labels or the run. Checked through the schema's Standard Schema `validate`,
   * which answers a refusal with a plain object: zod's `safeParse` answers it with an object whose `error` is a getter
   * over fresh closures, which Node 20's V8 keeps alive through young collections, with the input and issues they
   * hold, until a full one. A history page of cards with refused arguments (a model's `offset: 0`) made every
   * scavenge about 4 ms longer (docs/performance.md "Long sessions").
   */
  const labelData = (args: ToolArgs): z.output<S> | null => {
    if (lastLabel?.args === args) return lastLabel.data;
    const checked = def.input['~standard'].validate(folded(args));
    // A promise: a check that is asynchronous, or one that threw (zod then rejects rather than throws). Either way the
    // bare name; the rejection is caught here, where `safeParse` would have thrown to the registry's catch.
    if (checked instanceof Promise) checked.catch(() => {});
    const data = checked instanceof Promise || checked.issues ? null : (checked.value as z.output<S>);
    lastLabel = { args, data };
    return data;
  };
  const tool: Tool<S> = {
    name: def.name,
    description: def.description,
    input: def.input,
    category: def.category,
    kind: def.kind,
    defaultDecision: def.defaultDecision ?? 'require',
    pathKeys,
    commandKey: def.commandKey ?? null,
    storesSecret: def.storesSecret ?? false,
    card: def.card ?? (def.kind === 'edit' ? 'diff' : def.commandKey ? 'command' : 'none'),
    subAgentsOnly: def.subAgentsOnly ?? false,
    rootAgentOnly: def.rootAgentOnly ?? false,
    isIdempotent: def.isIdempotent ?? false,
    ...(def.secretPaths ? { secretPaths: def.secretPaths } : {}),
    parametersSchema: parameters,
    normalize,
    preview(args, ctx) {
      if (!def.preview) return null;
      const n = normalize(args ?? {}, ctx.workingDir);
      if (!n.ok) return { kind: 'refused', reason: n.error };
      try {
        return def.preview(n.args as z.output<S>, ctx);
      } catch (error) {
        // What the tool would answer is what the card shows; anything else means "no preview", never a guess.
        return error instanceof ToolError ? { kind: 'refused', reason: error.message } : null;
      }
    },
    describe(args, length) {
      if (!def.describe) return def.name;
      // Labels show what the model wrote (relative paths stay relative), through the same aliases and schema.
      const data = labelData(args);
      if (length === 'full') lastLabel = null;
      // A label is cosmetic: with unparseable arguments fall back to the bare name rather than fail.
      return truncateLabel(data !== null ? def.describe(data, length) : def.name, maxLabel(length));
    },
    targetPath: (args) => (def.targetPath ? def.targetPath(folded(args)) : null),
    async executeAsync(args, ctx) {
      return runValidated(def, normalize, args, ctx, ctx.signal);
    },
    run(args, ctx) {
      lastLabel = null; // a call's labels are asked before it runs
      if (def.run) return def.run(args, ctx, tool);
      // Sync work is over before anything could stop it: its outcome, settled, without a stop token, a listener on the
      // turn's signal or a promise race around it (docs/performance.md "What keeps the waited-on paths fast").
      if (!def.executeAsync)
        return new SettledExecution(ctx.signal.aborted ? { kind: 'cancelled' } : runSync(def, normalize, args, ctx));
      return new SimpleExecution((signal) => runValidated(def, normalize, args, ctx, signal), ctx.signal);
    },
    openaiDefinition: (): OpenAiToolDefinition => ({
      type: 'function',
      function: { name: def.name, description: def.description, parameters: parameters() },
    }),
  };
  return tool;
}

/**
 * Runs on the normalized form: arguments already normalized come back unchanged, raw ones get normalized here. A sync
 * tool's work is `runSync`'s.
 */
async function runValidated<S extends z.ZodType>(
  def: ToolDefinition<S>,
  normalize: Tool['normalize'],
  args: ToolArgs,
  ctx: ToolRunContext,
  signal: AbortSignal,
): Promise<ExecutionOutcome> {
  if (!def.executeAsync) return runSync(def, normalize, args, ctx);
  const n = normalize(args ?? {}, ctx.workingDir);
  if (!n.ok) return { kind: 'failed', error: n.error };
  try {
    return toOutcome(await def.executeAsync(n.args as z.output<S>, ctx, signal));
  } catch (error) {
    return thrownOutcome(def.name, error, signal, ctx);
  }
}

/** A sync tool's run: `runValidated`'s outcomes, a throw of the normalizing included (`SimpleExecution`'s words). */
function runSync<S extends z.ZodType>(
  def: ToolDefinition<S>,
  normalize: Tool['normalize'],
  args: ToolArgs,
  ctx: ToolRunContext,
): ExecutionOutcome {
  let n: Normalized;
  try {
    n = normalize(args ?? {}, ctx.workingDir);
  } catch (error) {
    return { kind: 'failed', error: `The tool failed unexpectedly: ${errorText(error)}` };
  }
  if (!n.ok) return { kind: 'failed', error: n.error };
  try {
    return toOutcome(def.execute!(n.args as z.output<S>, ctx));
  } catch (error) {
    return thrownOutcome(def.name, error, ctx.signal, ctx);
  }
}

function thrownOutcome(name: string, error: unknown, signal: AbortSignal, ctx: ToolRunContext): ExecutionOutcome {
  if (signal.aborted) return { kind: 'cancelled' };
  if (error instanceof ToolError) return { kind: 'failed', error: error.message };
  ctx.log('tool threw', { tool: name, error: errorText(error) });
  return { kind: 'failed', error: `${name} failed unexpectedly: ${errorText(error)}` };
}
