/**
 * MCP servers (docs/mcp.md): the `mcp:*` calls and the `mcp` event family. `McpServerInputSchema` is also the
 * core's validation of a server config (Settings, `register_mcp`, the `mcpServers` JSON import), so the bridge,
 * the tool and the repository cannot disagree. A credential goes in once (`credential`) and is stored in the
 * secret store; nothing ever returns it, only `hasCredential`.
 */
import { z } from 'zod';
import { defineCall, shortText } from './define';
import { CHAT_IMAGE_TYPES } from '../chat-images';

/** Server names: letters, digits and `-` (no `__`, so `mcp__<server>__<tool>` splits without doubt). */
export const MCP_SERVER_NAME_PATTERN = /^[a-zA-Z0-9-]+$/;
export const MAX_MCP_SERVER_NAME = 32;

export const McpServerNameSchema = z
  .string()
  .trim()
  .min(1, 'a server name is required')
  .max(MAX_MCP_SERVER_NAME, `a server name has at most ${MAX_MCP_SERVER_NAME} characters`)
  .regex(MCP_SERVER_NAME_PATTERN, 'a server name is letters, digits and - only');

export const McpTransportSchema = z.enum(['stdio', 'http', 'sse']);
export type McpTransport = z.infer<typeof McpTransportSchema>;

const envName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name is letters, digits and _')
  .max(200);
const headerName = z
  .string()
  .regex(/^[A-Za-z0-9-]+$/, 'a header name is letters, digits and -')
  .max(200);

/** Where the stored credential goes when the server starts: one header (HTTP) or one variable (stdio). */
export const McpSecretTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('header'), name: headerName, prefix: shortText(40).optional() }).strict(),
  z.object({ kind: z.literal('env'), name: envName }).strict(),
]);
export type McpSecretTarget = z.infer<typeof McpSecretTargetSchema>;

export const McpServerInputSchema = z
  .object({
    name: McpServerNameSchema,
    transport: McpTransportSchema,
    command: z.string().trim().min(1).max(4_000).optional(),
    args: z.array(z.string().max(4_000)).max(200).optional(),
    env: z.record(envName, z.string().max(32_000)).optional(),
    url: z
      .url({ protocol: /^https?$/, error: 'the URL must be an http(s) URL' })
      .max(2_000)
      .optional(),
    headers: z.record(headerName, z.string().max(8_000)).optional(),
    secretTarget: McpSecretTargetSchema.optional(),
    /** Write-only: stored in the secret store under the server's key. */
    credential: z.string().min(1).max(16_000).optional(),
    enabled: z.boolean().optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.transport === 'stdio' && !v.command)
      ctx.addIssue({ code: 'custom', path: ['command'], message: 'a stdio server needs a command' });
    if (v.transport !== 'stdio' && !v.url)
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'an HTTP server needs a URL' });
    if (v.credential && !v.secretTarget)
      ctx.addIssue({
        code: 'custom',
        path: ['secretTarget'],
        message: 'say where the credential goes (a header or an environment variable)',
      });
    if (v.secretTarget?.kind === 'header' && v.transport === 'stdio')
      ctx.addIssue({
        code: 'custom',
        path: ['secretTarget'],
        message: 'a stdio server takes its credential in an environment variable',
      });
    if (v.secretTarget?.kind === 'env' && v.transport !== 'stdio')
      ctx.addIssue({
        code: 'custom',
        path: ['secretTarget'],
        message: 'an HTTP server takes its credential in a header',
      });
  });
export type McpServerInput = z.infer<typeof McpServerInputSchema>;

export const McpServerStateSchema = z.enum(['starting', 'ready', 'failed', 'disabled', 'untrusted', 'stopped']);
export type McpServerState = z.infer<typeof McpServerStateSchema>;

export const McpToolViewSchema = z.object({
  /** The name the model sees (`mcp__<server>__<tool>`, made safe when needed). */
  exposedName: z.string(),
  name: z.string(),
  description: z.string(),
  inputSchema: z.string(),
  status: z.enum(['trusted', 'drifted']),
  /** What changed since it was trusted, for the re-approval view. */
  drift: z.object({ description: z.string(), inputSchema: z.string() }).nullable(),
  /** Hidden-instruction markers found in the description or schema (tags, "do not tell the user", …). */
  warnings: z.array(z.string()),
});
export type McpToolView = z.infer<typeof McpToolViewSchema>;

export const McpServerViewSchema = z.object({
  id: z.number(),
  name: z.string(),
  transport: McpTransportSchema,
  command: z.string().nullable(),
  args: z.array(z.string()),
  /** Variable names and values as configured (never the stored credential). */
  env: z.record(z.string(), z.string()),
  url: z.string().nullable(),
  headers: z.record(z.string(), z.string()),
  secretTarget: McpSecretTargetSchema.nullable(),
  hasCredential: z.boolean(),
  enabled: z.boolean(),
  trusted: z.boolean(),
  createdBy: z.enum(['user', 'model']),
  /** A stdio server starts in the sandbox (docs/sandbox.md "MCP servers"): on for the model's, the person's switch. */
  sandboxed: z.boolean(),
  state: McpServerStateSchema,
  lastError: z.string().nullable(),
  exitReason: z.string().nullable(),
  stderrTail: z.string(),
  tools: z.array(McpToolViewSchema),
});
export type McpServerView = z.infer<typeof McpServerViewSchema>;

/** An elicitation field as the form shows it; `sensitive` fields are masked. */
export const ElicitationViewSchema = z.object({
  id: z.string(),
  server: z.string(),
  sessionId: z.number().nullable(),
  toolCallId: z.string().nullable(),
  message: z.string(),
  /** The server's requested JSON Schema (flat object of primitive fields). */
  schema: z.string(),
  sensitive: z.array(z.string()),
  deadline: z.number(),
});
export type ElicitationView = z.infer<typeof ElicitationViewSchema>;

const ok = z.object({ ok: z.literal(true) });
const byName = z.object({ name: McpServerNameSchema }).strict();

/** A prompt a connected server offers (docs/mcp.md "Prompts and resources"): picked in the message box, filled in, then edited and sent. */
export const McpPromptSchema = z.object({
  server: z.string(),
  name: z.string(),
  title: z.string(),
  description: z.string(),
  arguments: z.array(z.object({ name: z.string(), description: z.string(), required: z.boolean() })),
});
export type McpPromptView = z.infer<typeof McpPromptSchema>;

/** A resource a connected server offers, which the person can put into a message (docs/mcp.md "Prompts and resources"). */
export const McpResourceSchema = z.object({
  server: z.string(),
  uri: z.string(),
  name: z.string(),
  description: z.string(),
  mimeType: z.string(),
});
export type McpResourceView = z.infer<typeof McpResourceSchema>;

/** An entry of the MCP catalog as Settings shows it (docs/mcp.md "Catalog"). */
export const McpCatalogEntrySchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  /** `npx`: an npm package; `uvx`: a Python package uv fetches and runs. */
  runner: z.enum(['npx', 'uvx']),
  package: z.string(),
  /** What will run, with `<key>` where a parameter goes. */
  commandLine: z.string(),
  /** Installed with the app: runs from there, nothing to download. */
  local: z.boolean(),
  /** Its runner (`npx` or `uvx`) is on the PATH servers start with (always true when `local`). */
  runnerFound: z.boolean(),
  params: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      default: z.string(),
      placeholder: z.string(),
      optional: z.boolean(),
    }),
  ),
  /** The one secret it needs, entered into the secret store and given in this environment variable. */
  secret: z.object({ env: z.string(), label: z.string(), help: z.string(), optional: z.boolean() }).nullable(),
  homepage: z.string(),
  note: z.string().nullable(),
  /** A server with this entry's name is configured already. */
  configured: z.boolean(),
});
export type McpCatalogEntryView = z.infer<typeof McpCatalogEntrySchema>;

export const mcpCalls = {
  'mcp:list': defineCall(z.object({}).strict(), z.object({ servers: z.array(McpServerViewSchema) })),
  /** Adds (or replaces) a server from Settings: trusted, since the person typed it, and started at once. */
  'mcp:save': defineCall(McpServerInputSchema, z.object({ server: McpServerViewSchema })),
  /** The common `mcpServers` JSON of other apps; returns the names added and per-entry problems. */
  'mcp:import': defineCall(
    z.object({ json: z.string().min(2).max(200_000) }).strict(),
    z.object({ added: z.array(z.string()), problems: z.array(z.object({ name: z.string(), message: z.string() })) }),
  ),
  /** The catalog of well-known servers, from data in the app (works offline). */
  'mcp:catalog': defineCall(z.object({}).strict(), z.object({ entries: z.array(McpCatalogEntrySchema) })),
  /**
   * Adds a catalog server as the person's own (trusted) and starts it: `name` defaults to the entry's id; the
   * credential goes to the secret store, never into the command line.
   */
  'mcp:addFromCatalog': defineCall(
    z
      .object({
        id: shortText(100),
        name: McpServerNameSchema.optional(),
        params: z.record(z.string().max(100), z.string().max(4_000)).optional(),
        credential: z.string().max(16_000).optional(),
      })
      .strict(),
    z.object({ server: McpServerViewSchema }),
  ),
  'mcp:delete': defineCall(byName, ok),
  'mcp:setEnabled': defineCall(
    z.object({ name: McpServerNameSchema, enabled: z.boolean() }).strict(),
    z.object({ server: McpServerViewSchema }),
  ),
  /** The person's sandbox switch of a stdio server (never the model's: register_mcp cannot set it). */
  'mcp:setSandboxed': defineCall(
    z.object({ name: McpServerNameSchema, sandboxed: z.boolean() }).strict(),
    z.object({ server: McpServerViewSchema }),
  ),
  /** The person trusts a server the model registered: it starts and its tools become available to activate. */
  'mcp:trust': defineCall(byName, z.object({ server: McpServerViewSchema })),
  'mcp:restart': defineCall(byName, z.object({ server: McpServerViewSchema })),
  /** Re-approves a drifted tool: its current name, description and schema become the trusted ones. */
  'mcp:approveTool': defineCall(
    z.object({ name: McpServerNameSchema, tool: shortText(500) }).strict(),
    z.object({ server: McpServerViewSchema }),
  ),
  /** The prompts of the servers connected now; nothing is started for this. */
  'mcp:prompts': defineCall(z.object({}).strict(), z.object({ prompts: z.array(McpPromptSchema) })),
  /** One prompt filled in with its arguments, as text for the message box (nothing reaches the model until sent). */
  'mcp:getPrompt': defineCall(
    z
      .object({
        server: McpServerNameSchema,
        name: shortText(200),
        arguments: z.record(z.string().max(100), z.string().max(16_000)),
      })
      .strict(),
    z.object({ text: z.string() }),
  ),
  /** The resources of the servers connected now; nothing is started for this. */
  'mcp:resources': defineCall(z.object({}).strict(), z.object({ resources: z.array(McpResourceSchema) })),
  /** One resource read for the message box: its text under its URI, or an image of the message (base64). */
  'mcp:readResource': defineCall(
    z.object({ server: McpServerNameSchema, uri: shortText(2_000) }).strict(),
    z.union([
      z.object({ text: z.string(), image: z.null() }),
      z.object({
        text: z.null(),
        image: z.object({ name: z.string(), media_type: z.enum(CHAT_IMAGE_TYPES), data: z.string() }),
      }),
    ]),
  ),
  'mcp:listElicitations': defineCall(z.object({}).strict(), z.object({ elicitations: z.array(ElicitationViewSchema) })),
  /** The value goes to the server only; it is never logged, stored or shown to the model. */
  'mcp:resolveElicitation': defineCall(
    z
      .object({
        id: shortText(100),
        action: z.enum(['accept', 'decline', 'cancel']),
        content: z
          .record(
            z.string(),
            z.union([z.string().max(16_000), z.number(), z.boolean(), z.array(z.string().max(1_000)).max(100)]),
          )
          .optional(),
      })
      .strict(),
    ok,
  ),
} as const;

export const McpEventSchema = z.discriminatedUnion('type', [
  /** A server's state, tools or last error changed: the Settings page re-reads `mcp:list`. */
  z.object({ type: z.literal('server_changed'), name: z.string() }),
  z.object({
    type: z.literal('progress'),
    session_id: z.number().nullable(),
    tool_call_id: z.string().nullable(),
    progress: z.number(),
    total: z.number().nullable(),
    message: z.string().nullable(),
  }),
  z.object({ type: z.literal('elicitation'), elicitation: ElicitationViewSchema }),
  z.object({
    type: z.literal('elicitation_resolved'),
    id: z.string(),
    action: z.enum(['accept', 'decline', 'cancel']),
  }),
]);
export type McpEvent = z.infer<typeof McpEventSchema>;
