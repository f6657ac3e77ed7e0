/** The scripted LLM for tests, in-process (e2e/scripted-llm.ts too); cli.ts runs it as a standalone process. */
export * from './server';
export { lastUserText, splitArguments, textPieces } from './turns';
