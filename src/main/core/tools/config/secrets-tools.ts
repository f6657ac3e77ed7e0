/**
 * `set_secret` and `list_secrets` (docs/plugins.md, "Secrets"): Config-category tools in the lazy `config` group.
 * Values are sealed by the secret store's cipher; results name keys only, never a value. Keys under the reserved
 * `llm.` prefix (provider API keys), and the `mcp.` and `app.` ones, are the app's own: the model can neither set
 * (refused by the arguments' check, before any approval card) nor list them; `plugin.` keys are set with
 * `configure_plugin`, which validates the plugin's whole config.
 * `set_secret` always asks for approval (the gate's always-ask list), and its `value` argument is a secret argument:
 * masked on the card and kept sealed wherever the call's arguments are stored.
 */
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import {
  APP_SECRET_PREFIX,
  hasSecretPrefix,
  isReservedSecretKey,
  MCP_SECRET_PREFIX,
  PLUGIN_SECRET_PREFIX,
  RESERVED_SECRET_PREFIX,
  SecretKeyError,
} from '../../../../shared/secret-keys';
import { defineTool, ToolError } from '../define-tool';
import { label } from '../fs/common';
import type { Tool } from '../tool';
import type { SecretsPort } from './ports';

const RESERVED_TEXT = `Keys starting with "${RESERVED_SECRET_PREFIX}", "${MCP_SECRET_PREFIX}" or "${APP_SECRET_PREFIX}" hold the app's provider API keys, MCP server credentials and its own keys; only the person can change them, in Settings.`;

// A reserved key fails the arguments' check, so the call is refused before it asks anyone: an approval card for a
// write that can never happen would only invite a pointless click.
const key = z
  .string()
  .min(1)
  .max(200)
  .refine((k) => !isReservedSecretKey(k), { message: RESERVED_TEXT })
  .refine((k) => !hasSecretPrefix(k, PLUGIN_SECRET_PREFIX), {
    message: `Keys starting with "${PLUGIN_SECRET_PREFIX}" are plugins' secret fields: set them with configure_plugin.`,
  })
  .describe('The secret\'s key, e.g. "github.token" (A-Z a-z 0-9 _ . : / -).');

export function createSetSecretTool(secrets: SecretsPort): Tool {
  return defineTool({
    name: TN.SET_SECRET,
    description:
      'Store a secret (API key, token, password) encrypted under a key, or delete it with an empty or null value. The value is never shown again.',
    input: z.object({
      key,
      value: z
        .string()
        .max(64 * 1024)
        .nullable()
        .describe('The secret value; empty or null deletes the key.'),
    }),
    kind: 'config',
    category: 'config',
    secretPaths: () => [['value']],
    storesSecret: true,
    describe: (a, length) => label(TN.SET_SECRET, a.key, length),
    execute(a) {
      try {
        return secrets.set(a.key, a.value)
          ? `Stored the secret ${a.key}.`
          : `Deleted the secret ${a.key} (if it existed).`;
      } catch (error) {
        if (error instanceof SecretKeyError) throw new ToolError(error.message);
        throw error;
      }
    },
  });
}

export function createListSecretsTool(secrets: SecretsPort): Tool {
  return defineTool({
    name: TN.LIST_SECRETS,
    description:
      'List the keys of stored secrets (never their values), optionally filtered by a glob such as "github.*".',
    input: z.object({
      pattern: z.string().min(1).max(200).optional().describe('Glob: * any run of characters, ? one character.'),
    }),
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
