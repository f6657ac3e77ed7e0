/**
 * A clock and timers that move only when a test says so (the scheduler's `schedulerClock` hook, docs/scheduler.md
 * "The tick"): `advance` fires every timer that comes due on the way, in time order, including timers set while
 * firing (the scheduler re-arms itself on every tick), so a day of ticks runs in one call and nothing depends on how
 * fast the machine is.
 */
import type { Timers } from '../../src/main/core/scheduler/scheduler';

export class FakeClock {
  private t: number;
  private seq = 0;
  private readonly pending = new Map<number, { at: number; fn: () => void }>();

  constructor(start: number) {
    this.t = start;
  }

  readonly now = (): number => this.t;

  readonly timers: Timers = {
    set: (fn, ms) => {
      const id = ++this.seq;
      this.pending.set(id, { at: this.t + Math.max(0, ms), fn });
      return id;
    },
    clear: (handle) => void this.pending.delete(handle as number),
  };

  /** Moves time forward by `ms`, firing what comes due on the way (equal times in the order they were set). */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.pending) if (entry[1].at <= end && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      this.pending.delete(next[0]);
      this.t = next[1].at;
      next[1].fn();
    }
    this.t = end;
  }

  /** Moves time forward to `at` (epoch ms). */
  advanceTo(at: number): void {
    this.advance(Math.max(0, at - this.t));
  }

  /** How far away the earliest armed timer is; null when none is armed. */
  nextIn(): number | null {
    let at: number | null = null;
    for (const { at: a } of this.pending.values()) if (at === null || a < at) at = a;
    return at === null ? null : at - this.t;
  }
}
