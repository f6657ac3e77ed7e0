/** Handlers of the `viewer:*` calls that the viewer service answers (`viewer:open` is the chat's: it emits). */
import { BridgeError } from '../../../shared/contract/define';
import type { BridgeHandlers } from './handlers';
import { ViewerRefusal } from '../viewer/read-policy';
import type { FileImages } from '../viewer/file-images';
import type { ViewerService } from '../viewer/viewer-service';

type ViewerChannels =
  | 'viewer:resolve'
  | 'viewer:preview'
  | 'viewer:release'
  | 'viewer:diff'
  | 'viewer:revert'
  | 'viewer:compileLatex'
  | 'viewer:openWithSystem';

/** A viewer refusal crosses the bridge with its code (missing, refused, …); anything else as it is. */
async function refusalsAsBridgeErrors<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ViewerRefusal) throw new BridgeError(error.code, error.message);
    throw error;
  }
}

export function createViewerHandlers(viewer: ViewerService, images: FileImages): Pick<BridgeHandlers, ViewerChannels> {
  return {
    'viewer:diff': ({ toolCallId }) => images.diff(toolCallId),
    'viewer:revert': ({ toolCallId, force }) => images.revert(toolCallId, force === true),
    // A user action: the viewer's own read policy decides (the approval gate is for the agent's tool calls).
    'viewer:resolve': (request) => viewer.resolve(request),
    'viewer:preview': ({ handle }) => refusalsAsBridgeErrors(() => ({ url: viewer.previewUrl(handle) })),
    'viewer:compileLatex': ({ handle }) => refusalsAsBridgeErrors(() => viewer.compileLatex(handle)),
    // The schema lets only `confirmed: true` through; the service checks it again (for callers inside the core).
    'viewer:openWithSystem': ({ handle, confirmed }) =>
      refusalsAsBridgeErrors(() => viewer.openWithSystem(handle, confirmed === true)),
    'viewer:release': ({ handle }) => {
      viewer.release(handle);
      return { ok: true as const };
    },
  };
}
