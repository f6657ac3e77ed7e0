/**
 * Notifications (docs/scheduler.md "Notifications"): what `notify` and finished cron runs queue for a person's
 * home session. They are batched: the first one of a session starts a `BATCH_MS` window, and everything queued for
 * that session within it is delivered together as one finished `read_notification` call whose result is the JSON
 * array of notifications; the delivery resumes that session (session-manager.ts `deliverResult`).
 * Limits: in memory; a batch still inside its window when the app quits is not delivered.
 */
/** The clock's timers (the scheduler's and the batcher's); tests pass a fake one (docs/scheduler.md "The tick"). */
export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const BATCH_MS = 200;

export interface Notification {
  source: string;
  event_type: string;
  summary: string;
  event_time: string;
  refs: string[];
}

export interface NotificationDeps {
  deliver: (sessionId: number, batchJson: string) => Promise<void>;
  log: (message: string, fields?: Record<string, unknown>) => void;
  timers: Timers;
  batchMs?: number;
}

export class NotificationBatcher {
  private readonly pending = new Map<number, { items: Notification[]; timer: unknown }>();
  private disposed = false;

  constructor(private readonly deps: NotificationDeps) {}

  push(sessionId: number, notification: Notification): void {
    if (this.disposed) return;
    const open = this.pending.get(sessionId);
    if (open) {
      open.items.push(notification);
      return;
    }
    const timer = this.deps.timers.set(() => this.flush(sessionId), this.deps.batchMs ?? BATCH_MS);
    this.pending.set(sessionId, { items: [notification], timer });
  }

  /** How many are waiting for their window to close (tests, the page). */
  waiting(sessionId: number): number {
    return this.pending.get(sessionId)?.items.length ?? 0;
  }

  private flush(sessionId: number): void {
    const batch = this.pending.get(sessionId);
    this.pending.delete(sessionId);
    if (!batch || this.disposed) return;
    void this.deps
      .deliver(sessionId, JSON.stringify(batch.items))
      .catch((error: unknown) => this.deps.log('delivering notifications failed', { sessionId, error: String(error) }));
  }

  dispose(): void {
    this.disposed = true;
    for (const { timer } of this.pending.values()) this.deps.timers.clear(timer);
    this.pending.clear();
  }
}
