/**
 * `defineTool`: the one way a built-in tool is made (CONVENTIONS §5–§9). A definition gives a name, a kind, a zod
 * input and an `execute`/`executeAsync`; this module derives everything else the `Tool` trait has:
 * - the JSON Schema the model sees, generated once from the zod input (`$schema` stripped, top level must be an
 *   object or the definition throws at startup), and the OpenAI definition around it;
 * - runtime validation with the same schema (lenient parse, strict advertisement: aliases and coercions live in
 *   the zod input as `preprocess`, the advertised JSON Schema is the input side);
 * - the error convention: a bad argument, a refused path, a missing file, a non-unique edit → the execution
 *   completes as `failed` with a message the model can act on. Tools signal those with `ToolError`; anything
 *   else that throws is also caught (R7) and reported as an unexpected failure;
 * - the default `run()` = `SimpleExecution` around `executeAsync`, and `describe` = the tool name.
 */
import { z } from 'zod';
import { maxLabel, truncateLabel, type LabelLength } from '../../../shared/labels';
import type { ToolCategory } from '../../../shared/tool-names';
import type { SecretPaths } from '../secrets/sealed-args';
import { SimpleExecution, errorText } from './execution';
import type { ExecutionOutcome, OpenAiToolDefinition, Tool, ToolArgs, ToolExecution, ToolRunContext } from './tool';

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
  subAgentsOnly?: boolean;
  rootAgentOnly?: boolean;
  isIdempotent?: boolean;
  /** Arguments that hold secrets (sealed wherever the call is stored or shown). */
  secretPaths?: SecretPaths;
  /** Known model slips accepted at parse time (`file_path` → `path`); the advertised schema stays strict. */
  aliases?: Readonly<Record<string, string>>;
  describe?: (args: z.output<S>, length: LabelLength) => string;
  targetPath?: (args: ToolArgs) => string | null;
  /** Sync work. Either this or `executeAsync`. */
  execute?: (args: z.output<S>, ctx: ToolRunContext) => ToolReturn;
  /** Async work; `signal` aborts the in-flight I/O on stop. */
  executeAsync?: (args: z.output<S>, ctx: ToolRunContext, signal: AbortSignal) => Promise<ToolReturn>;
  /** Bespoke execution handle (remote teardown); default is `SimpleExecution`. */
  run?: (args: ToolArgs, ctx: ToolRunContext, self: Tool) => ToolExecution;
}

/** JSON Schema for the model: generated from the zod input, `$schema` removed, must be an object schema. */
export function jsonSchemaOf(name: string, input: z.ZodType): Record<string, unknown> {
  const { $schema: _drop, ...schema } = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  if (schema.type !== 'object') throw new Error(`Tool ${name}: the input schema must be a JSON object schema`);
  return schema;
}

/** "path: expected string" lines, one per issue, for the model to fix its call. */
export function describeZodError(name: string, error: z.ZodError): string {
  const lines = error.issues.map((issue) => {
    const where = issue.path.length ? issue.path.join('.') : 'arguments';
    return `- ${where}: ${issue.message}`;
  });
  return `Invalid arguments for ${name}:\n${lines.join('\n')}\nFix these and call ${name} again.`;
}

/** Copies an alias onto its canonical key when the canonical key is absent. */
export function withAliases(args: ToolArgs, aliases: Readonly<Record<string, string>> | undefined): ToolArgs {
  if (!aliases || typeof args !== 'object' || args === null) return args;
  let out = args;
  for (const [alias, canonical] of Object.entries(aliases)) {
    if (alias in args && !(canonical in args)) {
      if (out === args) out = { ...args };
      out[canonical] = args[alias];
      delete out[alias];
    }
  }
  return out;
}

function toOutcome(value: ToolReturn): ExecutionOutcome {
  return typeof value === 'string' ? { kind: 'completed', result: value } : value;
}

export function defineTool<S extends z.ZodType>(def: ToolDefinition<S>): Tool<S> {
  if (def.subAgentsOnly && def.rootAgentOnly) {
    // Both flags would make the tool invisible to every agent (tools.md): refuse it at definition time too.
    throw new Error(`Tool ${def.name} cannot be both sub-agents-only and root-agent-only`);
  }
  if (!def.execute && !def.executeAsync) throw new Error(`Tool ${def.name} needs execute or executeAsync`);
  const parameters = jsonSchemaOf(def.name, def.input);

  const tool: Tool<S> = {
    name: def.name,
    description: def.description,
    input: def.input,
    category: def.category,
    subAgentsOnly: def.subAgentsOnly ?? false,
    rootAgentOnly: def.rootAgentOnly ?? false,
    isIdempotent: def.isIdempotent ?? false,
    ...(def.secretPaths ? { secretPaths: def.secretPaths } : {}),
    parametersSchema: () => structuredClone(parameters),
    describe(args, length) {
      if (!def.describe) return def.name;
      const parsed = def.input.safeParse(withAliases(args, def.aliases));
      // A label is cosmetic: with unparseable arguments fall back to the bare name rather than fail.
      return truncateLabel(parsed.success ? def.describe(parsed.data, length) : def.name, maxLabel(length));
    },
    targetPath: (args) => (def.targetPath ? def.targetPath(args) : null),
    async executeAsync(args, ctx) {
      return runValidated(def, args, ctx, ctx.signal);
    },
    run(args, ctx) {
      if (def.run) return def.run(args, ctx, tool);
      return new SimpleExecution((signal) => runValidated(def, args, ctx, signal), ctx.signal);
    },
    openaiDefinition: (): OpenAiToolDefinition => ({
      type: 'function',
      function: { name: def.name, description: def.description, parameters: structuredClone(parameters) },
    }),
  };
  return tool;
}

async function runValidated<S extends z.ZodType>(def: ToolDefinition<S>, args: ToolArgs, ctx: ToolRunContext, signal: AbortSignal): Promise<ExecutionOutcome> {
  const parsed = def.input.safeParse(withAliases(args ?? {}, def.aliases));
  if (!parsed.success) return { kind: 'failed', error: describeZodError(def.name, parsed.error) };
  try {
    if (def.executeAsync) return toOutcome(await def.executeAsync(parsed.data, ctx, signal));
    return toOutcome(def.execute!(parsed.data, ctx));
  } catch (error) {
    if (signal.aborted) return { kind: 'cancelled' };
    if (error instanceof ToolError) return { kind: 'failed', error: error.message };
    ctx.log('tool threw', { tool: def.name, error: errorText(error) });
    return { kind: 'failed', error: `${def.name} failed unexpectedly: ${errorText(error)}` };
  }
}
