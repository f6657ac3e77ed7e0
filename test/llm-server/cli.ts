/**
 * The scripted LLM as its own process, to run by hand (tests start it in-process: e2e/scripted-llm.ts):
 *
 *   npx tsx test/llm-server/cli.ts [--port N] [--script turns.json] [--default-text "…"]
 *
 * `turns.json` is an array of turns or `{ "turns": [...], "defaultTurn": {...} }`. Prints one line
 * `scripted-llm listening <baseUrl>` on stdout once it accepts connections; more turns can be added at runtime
 * with `POST <url>/__script`, and `GET <url>/__requests` returns what it received. Stops on SIGINT/SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { startScriptedLlm, type ScriptedTurn } from './server';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function loadScript(file: string | undefined): { turns: ScriptedTurn[]; defaultTurn?: ScriptedTurn } {
  if (!file) return { turns: [] };
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (Array.isArray(parsed)) return { turns: parsed as ScriptedTurn[] };
  const obj = parsed as { turns?: ScriptedTurn[]; defaultTurn?: ScriptedTurn };
  return { turns: obj.turns ?? [], ...(obj.defaultTurn ? { defaultTurn: obj.defaultTurn } : {}) };
}

const script = loadScript(arg('--script'));
const defaultText = arg('--default-text');
const portArg = arg('--port');
const llm = await startScriptedLlm({
  ...(portArg ? { port: Number(portArg) } : {}),
  turns: script.turns,
  ...(defaultText !== undefined
    ? { defaultTurn: { text: defaultText } }
    : script.defaultTurn
      ? { defaultTurn: script.defaultTurn }
      : {}),
});
process.stdout.write(`scripted-llm listening ${llm.baseUrl}\n`);

const stop = () => {
  void llm.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
