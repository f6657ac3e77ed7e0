/**
 * One subscription shared by every view that shows a store (the chat and the Inbox both show the approvals; the
 * Settings page and the chat both show MCP): the first `watch()` starts it, the last stop ends it, and each stop
 * works once, so a component that unmounts twice cannot end someone else's subscription.
 */
export function sharedWatch(start: () => () => void): () => () => void {
  let watchers = 0;
  let stop: (() => void) | null = null;
  return () => {
    if (watchers++ === 0) stop = start();
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      if (--watchers === 0) {
        stop?.();
        stop = null;
      }
    };
  };
}
