/**
 * What the slash commands do to a session (docs/architecture.md "Slash commands"), on the session manager's behalf:
 * `slash-commands.ts` reads the command, these hooks act and answer. `/context` says how much of the model's window
 * the last request used (docs/models.md "Fitting the context window").
 */
import type { ChatEventBody } from '../../../shared/contract/chat';
import { compactSession } from './compaction';
import type { SessionDeps } from './session-deps';
import type { SessionRow } from '../db/session-rows';
import type { SessionStore } from './session-store';
import type { SlashHooks } from './slash-commands';
import type { TurnEnv, TurnResult } from './turn';

/** The parts of the session manager the hooks use. */
export interface SlashHost {
  store: SessionStore;
  deps: Pick<SessionDeps, 'db' | 'model' | 'models' | 'toolSets'>;
  session(sessionId: number): SessionRow;
  workingDir(sessionId: number): string;
  createSession(): number;
  emit(sessionId: number, body: ChatEventBody): void;
  stop(sessionId: number): boolean;
  setModel(sessionId: number, arg: string): { message: string };
  isRunning(sessionId: number): boolean;
  startTurn(sessionId: number, turn: (env: TurnEnv) => Promise<TurnResult>): void;
}

export function sessionSlashHooks(sessionId: number, host: SlashHost): SlashHooks {
  const { store, deps } = host;
  return {
    newSession: () => {
      const id = host.createSession();
      host.emit(id, { type: 'new_session' });
      return id;
    },
    clearContext: () => store.setContextStart(sessionId, (store.lastMessage(sessionId)?.id ?? 0) + 1),
    stop: () => host.stop(sessionId),
    listModels: () => deps.models.listModelsText(host.session(sessionId).model),
    selectModel: (arg: string) => {
      try {
        return host.setModel(sessionId, arg).message;
      } catch (error) {
        return (error as Error).message;
      }
    },
    contextReport: () => {
      const rows = store.contextMessages(sessionId, host.session(sessionId).context_start_id);
      const last = [...rows].reverse().find((r) => r.role === 'assistant');
      const selection = host.session(sessionId).model;
      const window = deps.models.contextWindowOf(selection);
      const used = last?.input_tokens ?? 0;
      const of = window
        ? ` of ${window.model}'s ${window.tokens.toLocaleString('en-US')}-token window (${Math.round((used / window.tokens) * 100)}%${window.isSet ? '' : '; assumed: set it in Settings → Models'})`
        : '';
      return `Context: ${rows.length} messages since the last /clear; the last request used ${used.toLocaleString('en-US')} input tokens${of}. Older parts are left out of a request that would not fit.\nWorking directory: ${host.workingDir(sessionId)}\nModel: ${selection ?? 'auto'}`;
    },
    costReport: () => {
      const u = store.usage(sessionId);
      const cost = u.priced > 0 ? `$${u.cost.toFixed(4)}` : 'unknown (no price configured)';
      return `This session: ${u.input} input tokens, ${u.output} output tokens, cost ${cost}.`;
    },
    compact: () => {
      if (host.isRunning(sessionId)) return 'A turn is running; /compact after it ends.';
      host.startTurn(sessionId, async (env) => {
        const reply = await compactSession(
          { db: deps.db, store, model: deps.model, modelSelection: env.modelSelection, signal: env.signal },
          sessionId,
          host.session(sessionId).context_start_id,
        );
        env.emit({ type: 'command_reply', command: '/compact', content: reply });
        return 'done';
      });
      return 'Compacting the older history…';
    },
    resetTools: () => {
      const n = deps.toolSets.grants.clearSession(sessionId);
      return n ? `Dropped ${n} activated tool group(s).` : 'No tool groups were active.';
    },
  };
}
