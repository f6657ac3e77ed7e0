/**
 * The environment a shell command gets (check X9 in docs/security-checks.md; docs/plugins.md "Secrets"): the app's own
 * environment minus provider API keys, anything whose name looks like a credential, our own `SKALD_*` settings, and any
 * variable whose value carries one of the user's stored secret values; and the variables that change how bash reads or
 * runs a command (`BASH_ENV`, `ENV`, `SHELLOPTS`, `BASHOPTS`, exported functions `BASH_FUNC_*`, `CDPATH`, `GLOBIGNORE`,
 * …), so that the command runs as the gate parsed it (docs/shell-analysis.md "The shell that runs"). Limits: a secret
 * the app does not know about under an innocent name (say `FOO=sk-…`) passes through; the name filter is deliberately
 * broad and may drop a harmless variable.
 */

/** Provider and cloud keys, by name, on top of the pattern (so a rename of the pattern cannot let them through). */
export const PROVIDER_KEY_VARS: readonly string[] = [
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'OPENROUTER_API_KEY',
  'DEEPSEEK_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'GROQ_API_KEY',
  'MISTRAL_API_KEY',
  'XAI_API_KEY',
  'TOGETHER_API_KEY',
  'FIREWORKS_API_KEY',
  'AZURE_OPENAI_API_KEY',
  'COHERE_API_KEY',
  'PERPLEXITY_API_KEY',
  'HF_TOKEN',
  'HUGGINGFACE_API_KEY',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'NPM_TOKEN',
];
/**
 * bash reads these at start-up or while expanding: a start-up file to source, options (extglob, posix mode),
 * functions that would shadow a command name, a search path for `cd`, patterns that hide glob matches.
 */
export const SHELL_CHANGING_VARS: readonly string[] = [
  'BASH_ENV',
  'ENV',
  'SHELLOPTS',
  'BASHOPTS',
  'CDPATH',
  'GLOBIGNORE',
  'IFS',
  'POSIXLY_CORRECT',
  'PROMPT_COMMAND',
  'PS4',
  'EXECIGNORE',
];
const SHELL_FUNCTION = /^BASH_FUNC_/;
const SENSITIVE_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)/i;
/** Values shorter than this are compared for equality only: containment would match everything. */
const MIN_CONTAINED_SECRET = 8;

export function scrubEnv(env: NodeJS.ProcessEnv, secretValues: readonly string[] = []): Record<string, string> {
  const provider = new Set(PROVIDER_KEY_VARS);
  const shellChanging = new Set(SHELL_CHANGING_VARS);
  const secrets = secretValues.filter((s) => s.length > 0);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (provider.has(name.toUpperCase()) || SENSITIVE_NAME.test(name) || /^SKALD_/i.test(name)) continue;
    if (shellChanging.has(name) || SHELL_FUNCTION.test(name)) continue;
    if (secrets.some((s) => value === s || (s.length >= MIN_CONTAINED_SECRET && value.includes(s)))) continue;
    out[name] = value;
  }
  return out;
}
