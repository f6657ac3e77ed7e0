/**
 * Every schema migration, in one explicit list (no discovery). Version ranges by domain, so parallel work never
 * collides: 1–9 foundation, 10–19 tools, 20–29 approval, 30–39 llm/providers, 40–49 sessions, 50+ later domains.
 */
import type { Migration } from '../migrate';
import { foundationSchema } from './001-foundation';
import { approvalSchema } from './020-approval';
import { llmSchema } from './030-llm';
import { sessionsSchema } from './040-sessions';
import { summariesSchema } from './041-summaries';
import { processesSchema } from './042-processes';
import { sessionToolSeeds } from './043-session-tool-seeds';

export const migrations: readonly Migration[] = [foundationSchema, approvalSchema, llmSchema, sessionsSchema, summariesSchema, processesSchema, sessionToolSeeds];
