/**
 * One suite in a process of its own, started by bench/index.ts: `suite-process.ts <name> <answer file> [--quick]`.
 * Its rows, or its error, go to the answer file as JSON. A fresh process per suite, so no suite times the app in a
 * heap and a set of loaded modules that earlier suites left behind (the grep suite ends at hundreds of MB, the
 * outline suite loads the TypeScript compiler as its peer): the app's own process holds neither.
 */
import { writeFileSync } from 'node:fs';
import { suites } from './suites';
import type { BenchRow } from './table';

export type SuiteAnswer = { rows: BenchRow[] } | { error: string };

async function main(): Promise<void> {
  const [name, answerFile] = process.argv.slice(2);
  if (!name || !answerFile) {
    process.stderr.write('usage: suite-process.ts <suite> <answer file> [--quick]\n');
    process.exit(2);
  }
  const suite = suites.find((s) => s.name === name);
  let answer: SuiteAnswer;
  try {
    if (!suite) throw new Error(`no suite "${name}" (the suites: ${suites.map((s) => s.name).join(', ')})`);
    answer = { rows: await (await suite.load()).run({ quick: process.argv.includes('--quick') }) };
  } catch (error) {
    answer = { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  writeFileSync(answerFile, JSON.stringify(answer));
  // A suite may leave a handle open (a server's keep-alive socket); its answer is written, so the process ends here.
  process.exit(0);
}

void main();
