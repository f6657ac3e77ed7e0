/**
 * `register_mcp` and `delete_mcp` (docs/mcp.md "Trust"): Config-category tools, so they are offered only after
 * `activate_tools(["config"])` and every call passes the gate, whose card shows the arguments (the full command)
 * before anything happens. A server the model registers is stored *untrusted*: it does not start and offers no
 * tools until the person trusts it in Settings → MCP; replacing a trusted server withdraws its trust. Deleting
 * stops the server (its process group is killed), then removes the row, its tool trust and its credential.
 */
import { z } from 'zod';
import { McpServerNameSchema, type McpServerView } from '../../../../shared/contract/mcp';
import { TN } from '../../../../shared/tool-names';
import { defineTool, ToolError } from '../define-tool';
import { label } from '../fs/common';
import type { Tool } from '../tool';

/**
 * The MCP servers as register_mcp, delete_mcp and toggle_item change them: the same operations Settings uses, so a
 * server is added, stopped and forgotten one way whoever asks (mcp/index.ts's `McpServices` is the one).
 */
export interface McpServersPort {
  repo: { get(name: string): unknown; list(): { name: string }[] };
  /** Adds or replaces a server; the model's waits for the person's trust. Rejects with what is wrong. */
  save(input: unknown, by: 'user' | 'model'): Promise<McpServerView>;
  /** Stops and forgets a server; false when there is none of that name. */
  remove(name: string): Promise<boolean>;
  setEnabled(name: string, enabled: boolean): Promise<McpServerView>;
}

const input = z.object({
  name: McpServerNameSchema.describe('Server name: letters, digits and - (its tools become mcp__<name>__<tool>).'),
  transport: z
    .enum(['stdio', 'http', 'sse'])
    .default('stdio')
    .describe('stdio (a command), http (Streamable HTTP, falls back to SSE) or sse (legacy).'),
  command: z.string().min(1).max(4_000).optional().describe('stdio: the program to run, e.g. "npx".'),
  args: z
    .array(z.string().max(4_000))
    .max(200)
    .optional()
    .describe('stdio: its arguments, e.g. ["-y", "@modelcontextprotocol/server-memory"].'),
  env: z.record(z.string(), z.string()).optional().describe('stdio: extra environment variables for the server.'),
  url: z.string().max(2_000).optional().describe('http/sse: the server URL.'),
  headers: z.record(z.string(), z.string()).optional().describe('http/sse: extra request headers.'),
});

function commandLine(a: z.output<typeof input>): string {
  return a.transport === 'stdio' ? [a.command ?? '', ...(a.args ?? [])].join(' ') : (a.url ?? '');
}

export function createRegisterMcpTool(mcp: McpServersPort): Tool {
  return defineTool({
    name: TN.REGISTER_MCP,
    description:
      'Register (or replace) an MCP server. It does not start by itself: the person reviews the full command and trusts it in Settings → MCP; ' +
      'after that, activate it with activate_tools(["<name>"]) to get its tools. Replacing a server the person trusted withdraws that trust.',
    input,
    kind: 'config',
    category: 'config',
    describe: (a, length) => label(TN.REGISTER_MCP, `${a.name}: ${commandLine(a)}`, length),
    async executeAsync(a) {
      const parsed = await mcp
        .save(
          {
            name: a.name,
            transport: a.transport,
            command: a.command,
            args: a.args,
            env: a.env,
            url: a.url,
            headers: a.headers,
          },
          'model',
        )
        .catch((error: unknown) => {
          const issues =
            error instanceof z.ZodError
              ? error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ')
              : (error as Error).message;
          throw new ToolError(`The server was not registered: ${issues}.`);
        });
      return (
        `Registered MCP server "${parsed.name}" (${parsed.transport}: ${commandLine(a)}). It is not trusted yet, so it has not started: ` +
        'the person must review and trust it in Settings → MCP. Tell them so. Once trusted, call activate_tools with its name.'
      );
    },
  });
}

export function createDeleteMcpTool(mcp: McpServersPort): Tool {
  return defineTool({
    name: TN.DELETE_MCP,
    description:
      'Permanently remove an MCP server: it is stopped, and its configuration, tool approvals and stored credential are deleted. To pause a server instead, use toggle_item.',
    input: z.object({ name: McpServerNameSchema.describe('The server to delete.') }),
    kind: 'config',
    category: 'config',
    describe: (a, length) => label(TN.DELETE_MCP, a.name, length),
    async executeAsync({ name }) {
      if (!(await mcp.remove(name))) {
        throw new ToolError(
          `There is no MCP server named "${name}". Servers: ${
            mcp.repo
              .list()
              .map((s) => s.name)
              .join(', ') || 'none'
          }.`,
        );
      }
      return `Deleted MCP server "${name}"; it was stopped and its tools are gone.`;
    },
  });
}
