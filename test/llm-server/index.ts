/** The scripted LLM for tests: start it in-process, or run cli.ts as a standalone process for e2e. */
export * from './server';
export { lastUserText, splitArguments, textPieces } from './turns';
