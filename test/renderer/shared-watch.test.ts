/** `sharedWatch`: the subscription both the approvals store and the MCP store share among the views showing them. */
import { describe, expect, it } from 'vitest';
import { sharedWatch } from '../../src/renderer/src/stores/shared-watch';

function counted() {
  const log = { starts: 0, stops: 0 };
  const watch = sharedWatch(() => {
    log.starts++;
    return () => void log.stops++;
  });
  return { log, watch };
}

describe('sharedWatch', () => {
  it('starts once for many watchers and stops when the last one leaves', () => {
    const { log, watch } = counted();
    const a = watch();
    const b = watch();
    expect(log).toEqual({ starts: 1, stops: 0 });
    a();
    expect(log.stops).toBe(0);
    b();
    expect(log).toEqual({ starts: 1, stops: 1 });
  });

  it('a stop called twice counts once, so it cannot end another view`s subscription', () => {
    const { log, watch } = counted();
    const a = watch();
    const b = watch();
    a();
    a();
    expect(log.stops).toBe(0);
    b();
    expect(log.stops).toBe(1);
  });

  it('starts again after everyone left', () => {
    const { log, watch } = counted();
    watch()();
    const again = watch();
    expect(log).toEqual({ starts: 2, stops: 1 });
    again();
    expect(log.stops).toBe(2);
  });
});
