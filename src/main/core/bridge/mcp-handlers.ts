/**
 * Handlers of the `mcp:*` calls (Settings → MCP, the elicitation card): thin adapters over the MCP services.
 * Everything the person saves here is trusted (they typed or imported it); a credential goes in and only
 * `hasCredential` comes out. Elicitation answers go to the waiting server and nowhere else (not logged).
 */
import { BridgeError } from '../../../shared/contract/define';
import { CatalogError, type McpServices } from '../mcp/index';
import { parseMcpServersJson } from '../mcp/import-config';
import type { BridgeHandlers } from './handlers';

type McpChannels =
  | 'mcp:list'
  | 'mcp:save'
  | 'mcp:import'
  | 'mcp:catalog'
  | 'mcp:addFromCatalog'
  | 'mcp:delete'
  | 'mcp:setEnabled'
  | 'mcp:setSandboxed'
  | 'mcp:trust'
  | 'mcp:restart'
  | 'mcp:approveTool'
  | 'mcp:listElicitations'
  | 'mcp:resolveElicitation'
  | 'mcp:prompts'
  | 'mcp:getPrompt'
  | 'mcp:resources'
  | 'mcp:readResource';

const notFound = (name: string) => new BridgeError('not_found', `There is no MCP server named "${name}".`);

export function createMcpHandlers(mcp: McpServices): Pick<BridgeHandlers, McpChannels> {
  const known = (name: string) => {
    if (!mcp.repo.get(name)) throw notFound(name);
  };
  return {
    'mcp:list': () => ({ servers: mcp.list() }),
    'mcp:save': async (request) => ({ server: await mcp.save(request, 'user') }),
    'mcp:import': async ({ json }) => {
      const { entries, problems } = parseMcpServersJson(json);
      const added: string[] = [];
      for (const entry of entries) {
        if (mcp.repo.get(entry.input.name)) {
          problems.push({
            name: entry.input.name,
            message: 'a server with this name exists already; it was left as it is',
          });
          continue;
        }
        await mcp.save(entry.input, 'user');
        added.push(entry.input.name);
        if (entry.note) problems.push({ name: entry.input.name, message: entry.note });
      }
      return { added, problems };
    },
    'mcp:catalog': async () => ({ entries: await mcp.catalog() }),
    'mcp:addFromCatalog': async ({ id, ...answers }) => {
      try {
        return { server: await mcp.addFromCatalog(id, answers) };
      } catch (error) {
        // A missing answer or a name in use: the sentence for the person; anything else is the app's own failure.
        if (error instanceof CatalogError) throw new BridgeError('invalid_input', error.message);
        throw error;
      }
    },
    'mcp:delete': async ({ name }) => {
      if (!(await mcp.remove(name))) throw notFound(name);
      return { ok: true as const };
    },
    'mcp:setEnabled': async ({ name, enabled }) => {
      known(name);
      return { server: await mcp.setEnabled(name, enabled) };
    },
    'mcp:setSandboxed': async ({ name, sandboxed }) => {
      known(name);
      return { server: await mcp.setSandboxed(name, sandboxed) };
    },
    'mcp:trust': async ({ name }) => {
      known(name);
      return { server: await mcp.trust(name) };
    },
    'mcp:restart': async ({ name }) => {
      known(name);
      await mcp.manager.restart(name);
      return { server: mcp.view(name) };
    },
    'mcp:approveTool': ({ name, tool }) => {
      known(name);
      if (!mcp.manager.approveTool(name, tool))
        throw new BridgeError('bad_request', `The tool ${tool} has no change waiting for approval.`);
      return { server: mcp.view(name) };
    },
    'mcp:prompts': async () => ({ prompts: await mcp.manager.prompts() }),
    'mcp:getPrompt': async ({ server, name, arguments: args }) => {
      known(server);
      // The listing says which arguments a prompt needs: a missing one is said here, not as the server's error code.
      const prompt = (await mcp.manager.prompts()).find((p) => p.server === server && p.name === name);
      if (!prompt) throw new BridgeError('not_found', `The MCP server "${server}" offers no prompt named ${name} now.`);
      const missing = prompt.arguments.filter((a) => a.required && !args[a.name]?.trim()).map((a) => a.name);
      if (missing.length)
        throw new BridgeError('bad_request', `The prompt ${prompt.title} needs ${missing.join(', ')}.`);
      try {
        return { text: await mcp.manager.getPrompt(server, name, args) };
      } catch (error) {
        throw new BridgeError('bad_request', (error as Error).message);
      }
    },
    'mcp:resources': async () => ({ resources: await mcp.manager.resources() }),
    'mcp:readResource': async ({ server, uri }) => {
      known(server);
      try {
        return await mcp.manager.readResource(server, uri);
      } catch (error) {
        throw new BridgeError('bad_request', (error as Error).message);
      }
    },
    'mcp:listElicitations': () => ({ elicitations: mcp.elicitations.list() }),
    'mcp:resolveElicitation': ({ id, action, content }) => {
      if (!mcp.elicitations.resolve(id, action, content))
        throw new BridgeError('not_found', 'This request is no longer waiting (answered, expired, or its call ended).');
      return { ok: true as const };
    },
  };
}
