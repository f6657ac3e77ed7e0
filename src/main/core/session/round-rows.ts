/**
 * The rows of a live round and a call's commits (docs/architecture.md "The path of one tool call"): the round's rows
 * written with its first call's decision, and the one commit before a call runs and the one after it (tool-call.ts).
 */
import type { NewMessage, ToolPrep } from './session-store';
import type { ParsedArguments } from '../../../shared/tool-arguments';
import type { CallEnv, ModelCall } from './call-env';

/**
 * A call of a live round: `id` is the row's own key; `round` writes its rows with the round's first commit; `parsed`
 * its arguments read once (`startRound`), for the labels of `tool_start` and for the run alike.
 */
export interface RoundCall extends ModelCall {
  round?: RoundRows;
  parsed?: ParsedArguments;
}

/**
 * The rows of one round, written with the round's first commit (docs/architecture.md "The path of one tool call"):
 * the model's answer (its assistant message, when the round brings one) and one `queued` row per call go to disk in
 * the same transaction as the first call's decision (or its refusal or cancellation). So a call costs one commit
 * before it runs and one after, and a crash still finds every call's intent on disk before anything ran (R1):
 * what happens before that commit (sealing, parsing, normalizing, the gate's decision) has no side effect.
 * The events follow the commit (`onWritten`, then `tool_start` per call): no card shows a row that is not on disk.
 */
export class RoundRows {
  private written = false;

  constructor(
    private readonly env: CallEnv,
    /** The message the calls belong to: its id when it is on disk, else the assistant message to write first. */
    private readonly message: number | NewMessage,
    /** Sealed, each with its row key and its arguments read. */
    private readonly calls: readonly (ModelCall & { key: string; parsed: ParsedArguments })[],
    private readonly onWritten?: (messageId: number) => void,
  ) {}

  get isWritten(): boolean {
    return this.written;
  }

  /**
   * `work` in one transaction, which first writes the round's rows unless they are on disk already; `prepared`, the
   * gate's decision of call `key` (recorded by `prepare` in that transaction), is written with its row.
   * `oneStatement` (`SessionStore.transaction`) holds once the rows are on disk, when nothing is prepared.
   */
  commit<T>(work: () => T, prepared: { key: string; prepare: () => ToolPrep } | undefined, options: CommitOptions): T {
    const { env } = this;
    const fsync = options.fsync ?? true;
    if (this.written)
      return prepared
        ? env.store.transaction(() => (env.store.prepareTool(prepared.key, prepared.prepare()), work()), { fsync })
        : env.store.transaction(work, options);
    let messageId = 0;
    const result = env.store.transaction(
      () => {
        const first = prepared && { key: prepared.key, prep: prepared.prepare() };
        messageId = env.store.writeRound(
          env.sessionId,
          this.message,
          this.calls,
          env.synthetic.frame.stackId,
          this.calls.map((c) => c.key),
          first,
        );
        return work();
      },
      { fsync },
    );
    this.written = true;
    this.onWritten?.(messageId);
    for (const call of this.calls) {
      const args = call.parsed.ok ? call.parsed.args : {};
      env.emit({
        type: 'tool_start',
        tool_call_id: call.key,
        status: 'queued',
        message_id: messageId,
        name: call.name,
        arguments: call.arguments,
        label_short: env.tools.describeCall(call.name, args, 'short'),
        label_full: env.tools.describeCall(call.name, args, 'full'),
        path: env.tools.targetPath(call.name, args),
        display: env.tools.traitsOf(call.name)?.card ?? 'none',
      });
    }
    return result;
  }
}

/**
 * `work` in one transaction, together with the call's round rows when they are not on disk yet, and `prepare`'s
 * decision on the call's row (the gate's commit). A commit that fails (a full disk) changes nothing and stops the
 * turn: a call that already ran keeps its `running` row, the state a crash leaves, and its card says interrupted, as
 * it will after a restart (docs/security-checks.md, D8). `fsync: false` only for the decision of a call without
 * consequence (`needsSyncedStart`). `oneStatement` for a call's result written by one statement (`finishTool`): its
 * own commit, unless the round's rows still have to be written with it.
 */
export function commitCall<T>(
  env: CallEnv,
  call: RoundCall,
  work: () => T,
  prepare?: () => ToolPrep,
  options: CommitOptions = {},
): T {
  try {
    if (call.round) return call.round.commit(work, prepare && { key: call.id, prepare }, options);
    if (!prepare) return env.store.transaction(work, options);
    return env.store.transaction(() => (env.store.prepareTool(call.id, prepare()), work()), { fsync: options.fsync });
  } catch (error) {
    if (env.store.getTool(call.id)?.status === 'running') env.emit({ type: 'tool_interrupted', tool_call_id: call.id });
    throw error;
  }
}

export const noWork = (): void => undefined;
/** A commit's durability (`fsync`, default true) and whether its work is one statement (`SessionStore.transaction`). */
export type CommitOptions = { fsync?: boolean; oneStatement?: boolean };
/** A call's result: `finishTool` alone. */
export const RESULT: CommitOptions = { oneStatement: true };
export const SYNCED: CommitOptions = {};
export const UNSYNCED: CommitOptions = { fsync: false };
