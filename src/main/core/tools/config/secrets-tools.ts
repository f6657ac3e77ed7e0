/**
 * `set_secret` and `list_secrets` (docs/plugins.md, "Secrets"): Config-category tools in the lazy `config` group.
 * Values are sealed by the secret store's cipher; results name keys only, never a value. Keys under the reserved
 * `llm.` prefix (provider API keys) are the app's own: the model can neither set nor list them.
 * `set_secret` always asks for approval (the gate's always-ask list), and its `value` argument is a secret argument:
 * masked on the card and kept sealed wherever the call's arguments are stored.
 */
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { isReservedSecretKey, MCP_SECRET_PREFIX, RESERVED_SECRET_PREFIX, SecretKeyError, type SecretStore } from '../../secrets/secret-store';
import { defineTool, ToolError } from '../define-tool';
import { label } from '../fs/common';
import type { Tool } from '../tool';

const key = z.string().min(1).max(200).describe('The secret\'s key, e.g. "github.token" (A-Z a-z 0-9 _ . : / -).');

function refuseReserved(k: string): void {
  if (isReservedSecretKey(k)) throw new ToolError(`Keys starting with "${RESERVED_SECRET_PREFIX}" or "${MCP_SECRET_PREFIX}" hold the app's provider API keys and MCP server credentials; only the person can change them, in Settings.`);
}

export function createSetSecretTool(secrets: SecretStore): Tool {
  return defineTool({
    name: TN.SET_SECRET,
    description: 'Store a secret (API key, token, password) encrypted under a key, or delete it with an empty or null value. The value is never shown again.',
    input: z.object({
      key,
      value: z.string().max(64 * 1024).nullable().describe('The secret value; empty or null deletes the key.'),
    }),
    kind: 'config',
    category: 'config',
    secretPaths: () => [['value']],
    describe: (a, length) => label(TN.SET_SECRET, a.key, length),
    execute(a) {
      refuseReserved(a.key);
      try {
        return secrets.set(a.key, a.value) ? `Stored the secret ${a.key}.` : `Deleted the secret ${a.key} (if it existed).`;
      } catch (error) {
        if (error instanceof SecretKeyError) throw new ToolError(error.message);
        throw error;
      }
    },
  });
}

export function createListSecretsTool(secrets: SecretStore): Tool {
  return defineTool({
    name: TN.LIST_SECRETS,
    description: 'List the keys of stored secrets (never their values), optionally filtered by a glob such as "github.*".',
    input: z.object({ pattern: z.string().min(1).max(200).optional().describe('Glob: * any run of characters, ? one character.') }),
    kind: 'config',
    category: 'config',
    isIdempotent: true,
    describe: (a, length) => label(TN.LIST_SECRETS, a.pattern, length),
    execute(a) {
      const keys = secrets.list(a.pattern).filter((k) => !isReservedSecretKey(k));
      return { kind: 'completed', resultType: 'json', result: JSON.stringify({ keys }) };
    },
  });
}
