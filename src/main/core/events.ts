/**
 * The core's event bus, typed by the contract's event families. Both shapes subscribe once and forward every
 * event over their transport. Subscribing returns a dispose function.
 */
import type { EventFamily, EventPayload } from '../../shared/contract/index';

type Listener<F extends EventFamily> = (payload: EventPayload<F>) => void;

export class EventBus {
  private readonly listeners = new Map<EventFamily, Set<Listener<EventFamily>>>();

  emit<F extends EventFamily>(family: F, payload: EventPayload<F>): void {
    for (const listener of this.listeners.get(family) ?? []) {
      try {
        (listener as Listener<F>)(payload);
      } catch (error) {
        // A broken subscriber must never break the emitter (the turn loop): report and go on.
        console.error(`event listener for ${family} threw`, error);
      }
    }
  }

  subscribe<F extends EventFamily>(family: F, listener: Listener<F>): () => void {
    let set = this.listeners.get(family);
    if (!set) this.listeners.set(family, (set = new Set()));
    set.add(listener as Listener<EventFamily>);
    return () => set.delete(listener as Listener<EventFamily>);
  }

  /** Number of live subscriptions: tests assert teardown leaves none. */
  size(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }
}
