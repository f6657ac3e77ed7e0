/**
 * The default execution handle and the generic driver (docs/architecture.md "Tools").
 *
 * `SimpleExecution` = a work promise + a stop token. The work receives an `AbortSignal` (the stop token combined
 * with the caller's signal) and must hand it to its I/O (fs reads, child processes), so `stop()` really aborts
 * the in-flight work instead of merely ignoring its result. `wait()` races the work against the stop token and
 * only ever returns one of the three terminal outcomes; a throw inside the work becomes `failed` with a readable
 * message (R7), never an unhandled rejection.
 *
 * `SettledExecution` = the outcome of work that ended as it was made (a sync tool's): nothing to stop.
 *
 * `driveExecution(exec, cancel)` waits and calls `stop()` exactly once when the turn's cancel signal fires; the
 * live loop and the resume path share it.
 *
 * Bespoke stop is an extension point: a tool that must tear down remote work overrides `run()` and returns its
 * own `ToolExecution` (for instance a subclass of `SimpleExecution` overriding `stop()`).
 * Check ids (R7) are listed in docs/security-checks.md.
 */
import type { ExecutionOutcome, ToolExecution, ToolExecutionState } from './tool';

export type Work = (signal: AbortSignal) => Promise<ExecutionOutcome>;

/** How long `stop()` waits for the work to finish its own teardown (e.g. a process-group kill) before returning. */
const STOP_SETTLE_MS = 5_000;

export class SimpleExecution implements ToolExecution {
  private current: ToolExecutionState = 'running';
  private readonly stopToken = new AbortController();
  private readonly work: Promise<ExecutionOutcome>;
  private readonly outcome: Promise<ExecutionOutcome>;
  /** Ends `wait()` as cancelled: called where the stop token is aborted (no listener on the token of our own). */
  private settleStopped: () => void = () => undefined;

  constructor(work: Work, parentSignal?: AbortSignal) {
    // One signal for the work: the stop token, which the caller's signal also aborts while the work runs. (Not
    // `AbortSignal.any`: on Node 20 it costs tens of microseconds per call and its dependants live until GC, and
    // every tool call makes one.)
    const signal = this.stopToken.signal;
    const stopped = new Promise<ExecutionOutcome>(
      (resolve) => (this.settleStopped = () => resolve({ kind: 'cancelled' })),
    );
    const forward = () => this.abort(parentSignal?.reason);
    let unlisten: (() => void) | undefined;
    if (parentSignal?.aborted) forward();
    else if (parentSignal) unlisten = onAbort(parentSignal, forward);
    this.work = (async () => {
      try {
        return await work(signal);
      } catch (error) {
        if (signal.aborted) return { kind: 'cancelled' } as const;
        return { kind: 'failed', error: `The tool failed unexpectedly: ${errorText(error)}` } as const;
      } finally {
        unlisten?.();
      }
    })();
    this.outcome = Promise.race([this.work, stopped]).then((outcome) => {
      this.current = outcome.kind;
      return outcome;
    });
  }

  state(): ToolExecutionState {
    return this.current;
  }

  wait(): Promise<ExecutionOutcome> {
    return this.outcome;
  }

  /** Aborts the work's signal, then gives the work a bounded time to finish its teardown. Idempotent. */
  async stop(): Promise<void> {
    this.abort();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.work, new Promise((resolve) => (timer = setTimeout(resolve, STOP_SETTLE_MS)))]);
    clearTimeout(timer);
    await this.outcome;
  }

  private abort(reason?: unknown): void {
    if (!this.stopToken.signal.aborted) this.stopToken.abort(reason);
    this.settleStopped();
  }
}

/**
 * An execution whose work was over as it was made (a sync tool's): nothing is left to stop, and its `outcome` can be
 * read at once, without a promise's turn of the microtask queue.
 */
export class SettledExecution implements ToolExecution {
  constructor(readonly outcome: ExecutionOutcome) {}

  state(): ToolExecutionState {
    return this.outcome.kind;
  }

  wait(): Promise<ExecutionOutcome> {
    return Promise.resolve(this.outcome);
  }

  async stop(): Promise<void> {}
}

/** Waits for the execution; when `cancel` fires, calls `stop()` once. Returns the terminal outcome. */
export async function driveExecution(exec: ToolExecution, cancel: AbortSignal): Promise<ExecutionOutcome> {
  if (exec.state() !== 'running') return exec.wait(); // over already: nothing to stop
  let stopping: Promise<void> | undefined;
  const onCancel = () => {
    stopping ??= exec.stop();
  };
  const unlisten = cancel.aborted ? (onCancel(), undefined) : onAbort(cancel, onCancel);
  try {
    const outcome = await exec.wait();
    if (stopping) await stopping;
    return outcome;
  } finally {
    unlisten?.();
  }
}

/**
 * What hears a turn's signal: one listener on the signal, added at its first use, calls whatever is registered when it
 * fires. A turn's signal serves every call of the turn, and each call's execution and its driver listen to it while
 * the call runs; a set's add and delete cost a fraction of the signal's `addEventListener` and
 * `removeEventListener` (Node's EventTarget: about 3.5 µs a pair with `once`, 15 µs right after the event loop sat
 * idle, as it does during every model's answer; docs/performance.md "What keeps the waited-on paths fast").
 * Returns the function that unregisters `fn`.
 */
const relays = new WeakMap<AbortSignal, Set<() => void>>();

function onAbort(signal: AbortSignal, fn: () => void): () => void {
  let fns = relays.get(signal);
  if (!fns) {
    const registered = (fns = new Set());
    relays.set(signal, registered);
    signal.addEventListener(
      'abort',
      () => {
        const now = [...registered];
        registered.clear();
        for (const f of now) {
          try {
            f();
          } catch (error) {
            // As the signal's own dispatch reports a listener's throw: without keeping the others from hearing it.
            queueMicrotask(() => {
              throw error;
            });
          }
        }
      },
      { once: true },
    );
  }
  fns.add(fn);
  return () => fns.delete(fn);
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
