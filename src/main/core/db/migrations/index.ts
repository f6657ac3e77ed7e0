/**
 * Every schema migration, in one explicit list (no discovery), in ascending order. The first parallel build used
 * ranges by domain (1 foundation, 20 approval, 30 llm, 40+ sessions). From now on a new migration takes a number
 * ABOVE every existing one: `user_version` is a high-water mark, so a lower number would be skipped on databases
 * already past it.
 */
import type { Migration } from '../migrate';
import { fileImagesSchema } from './092-file-images';
import { foundationSchema } from './001-foundation';
import { approvalSchema } from './020-approval';
import { llmSchema } from './030-llm';
import { sessionsSchema } from './040-sessions';
import { summariesSchema } from './041-summaries';
import { processesSchema } from './042-processes';
import { sessionToolSeeds } from './043-session-tool-seeds';
import { toolRowKey } from './044-tool-row-key';
import { denyBeatsAllowSeeds } from './055-deny-beats-allow-seeds';
import { pluginsSchema } from './090-plugins';
import { mcpSchema } from './091-mcp';
import { agentsSchema } from './093-agents';
import { schedulerSchema } from './110-scheduler';
import { historyIndexes } from './111-history-indexes';
import { toolRowQueued } from './112-tool-row-queued';
import { imageProvidersListSeed } from './113-image-providers-list-seed';
import { dropRedundantIndexes } from './114-drop-redundant-indexes';
import { queuedMessagesIndex } from './115-queued-messages-index';
import { toolRowDecision } from './116-tool-row-decision';
import { activeToolsIndex } from './117-active-tools-index';
import { sessionIdsNeverReused } from './118-session-ids-never-reused';
import { chatImages } from './119-chat-images';
import { modelReasoning } from './120-model-reasoning';
import { toolResultImages } from './121-tool-result-images';
import { pinnedSessions } from './122-pinned-sessions';
import { toolDefaultSeeds } from './123-tool-default-seeds';
import { providerKindText } from './130-provider-kind-text';
import { sandboxGrants } from './135-sandbox-grants';
import { mcpSandboxed } from './136-mcp-sandboxed';
import { rewindJournal } from './140-rewind';

export const migrations: readonly Migration[] = [
  foundationSchema,
  approvalSchema,
  llmSchema,
  sessionsSchema,
  summariesSchema,
  processesSchema,
  sessionToolSeeds,
  toolRowKey,
  denyBeatsAllowSeeds,
  pluginsSchema,
  mcpSchema,
  fileImagesSchema,
  agentsSchema,
  schedulerSchema,
  historyIndexes,
  toolRowQueued,
  imageProvidersListSeed,
  dropRedundantIndexes,
  queuedMessagesIndex,
  toolRowDecision,
  activeToolsIndex,
  sessionIdsNeverReused,
  chatImages,
  modelReasoning,
  toolResultImages,
  pinnedSessions,
  toolDefaultSeeds,
  providerKindText,
  sandboxGrants,
  mcpSandboxed,
  rewindJournal,
];
