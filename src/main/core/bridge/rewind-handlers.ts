/** Handlers of the `rewind:*` calls (docs/rewind.md); the requests are parsed at the boundary (bridge/dispatch.ts). */
import type { BridgeHandlers } from './handlers';
import type { RewindService } from '../rewind/rewind-service';

type RewindChannels =
  | 'rewind:preview'
  | 'rewind:diff'
  | 'rewind:apply'
  | 'rewind:unfinished'
  | 'rewind:resume'
  | 'rewind:storeUsage';

export function createRewindHandlers(rewind: RewindService): Pick<BridgeHandlers, RewindChannels> {
  return {
    'rewind:preview': ({ sessionId, messageId }) => rewind.preview(sessionId, messageId),
    'rewind:diff': ({ sessionId, messageId, path }) => rewind.diff(sessionId, messageId, path),
    // The person's click is the approval (docs/rewind.md "The person's own act"): no gate, one decision-log entry.
    'rewind:apply': (request) => rewind.apply(request),
    'rewind:unfinished': () => ({ runs: rewind.unfinished() }),
    'rewind:resume': ({ runId }) => rewind.resume(runId),
    'rewind:storeUsage': (limits) => rewind.storeUsage(limits),
  };
}
