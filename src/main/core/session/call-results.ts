/**
 * How a call ends (docs/architecture.md "The path of one tool call"): its result, failure, cancellation or rejection
 * recorded in the commit after it ran (`commitCall`), then its event. A write keeps its before/after images with it.
 */
import type { ExecutionOutcome } from '../tools/tool';
import type { ImageSnapshot } from '../viewer/blob-store';
import type { CallEnv, CallOutcome } from './call-env';
import { commitCall, RESULT, type RoundCall } from './round-rows';

export const CANCELLED_NOTE = 'Stopped by the user (/stop) before it finished.';
export const NOT_STARTED_NOTE = 'Not started: the turn was stopped.';

export function finish(
  env: CallEnv,
  call: RoundCall,
  outcome: ExecutionOutcome,
  path: string | null,
  before?: ImageSnapshot | null,
): CallOutcome {
  const { store, emit } = env;
  const { id, name } = call;
  if (outcome.kind === 'completed') {
    // A write keeps its before/after images with its row, in one transaction (docs/viewer.md "Diff and revert").
    const after = before && path && env.fileImages ? env.fileImages.snapshot(path, env.workingDir) : null;
    const resultType = outcome.resultType ?? 'string';
    const kept = before && after && path;
    const images =
      kept || outcome.images?.length
        ? commitCall(env, call, () => {
            store.finishTool(id, 'done', outcome.result, resultType);
            if (kept) env.fileImages!.record(id, path, before, after);
            // What the tool returned to be seen (read_file on an image: docs/chat-ui.md "Images a tool returns").
            return outcome.images?.length ? store.addToolImages(id, outcome.images) : [];
          })
        : (commitCall(env, call, () => store.finishTool(id, 'done', outcome.result, resultType), undefined, RESULT),
          []);
    emit({
      type: 'tool_done',
      tool_call_id: id,
      status: 'done',
      result: outcome.result,
      result_type: resultType,
      ...(images.length ? { images } : {}),
    });
    // An edit changed its file: open viewers reload it. The tool's declared kind says so, not a list of names.
    if (path && env.tools.kindOf(name) === 'edit') emit({ type: 'file_changed', path });
    return 'continue';
  }
  if (outcome.kind === 'failed') {
    commitCall(env, call, () => store.finishTool(id, 'failed', outcome.error), undefined, RESULT);
    emit({ type: 'tool_error', tool_call_id: id, status: 'failed', error: outcome.error });
    return 'continue';
  }
  const note = outcome.note ?? CANCELLED_NOTE;
  commitCall(env, call, () => store.finishTool(id, 'cancelled', note), undefined, RESULT);
  emit({ type: 'tool_cancelled', tool_call_id: id, status: 'cancelled', note });
  return 'cancelled';
}

export function failCall(env: CallEnv, call: RoundCall, error: string): CallOutcome {
  return finish(env, call, { kind: 'failed', error }, null);
}

export function reject(env: CallEnv, call: RoundCall, reason: string): CallOutcome {
  commitCall(env, call, () => env.store.finishTool(call.id, 'rejected', reason), undefined, RESULT);
  env.emit({ type: 'tool_rejected', tool_call_id: call.id, status: 'rejected', reason });
  return 'continue';
}

/** A call of a stopped turn that never started: recorded `cancelled` (its round's rows written first if need be). */
export function cancelNotStarted(env: CallEnv, call: RoundCall): void {
  finish(env, call, { kind: 'cancelled', note: NOT_STARTED_NOTE }, null);
}
