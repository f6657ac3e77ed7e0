/** Handlers of the `viewer:*` calls that the viewer service answers (`viewer:open` is the chat's: it emits). */
import { BridgeError } from '../../../shared/contract/define';
import type { BridgeHandlers } from '../bridge/handlers';
import { ViewerRefusal } from './read-policy';
import type { FileImages } from './file-images';
import type { ViewerService } from './viewer-service';

type ViewerChannels = 'viewer:resolve' | 'viewer:preview' | 'viewer:release' | 'viewer:diff' | 'viewer:revert' | 'viewer:compileLatex';

export function createViewerHandlers(viewer: ViewerService, images: FileImages): Pick<BridgeHandlers, ViewerChannels> {
  return {
    'viewer:diff': ({ toolCallId }) => images.diff(toolCallId),
    'viewer:revert': ({ toolCallId, force }) => images.revert(toolCallId, force === true),
    // A user action: the viewer's own read policy decides (the approval gate is for the agent's tool calls).
    'viewer:resolve': (request) => viewer.resolve(request),
    'viewer:preview': ({ handle }) => {
      try {
        return { url: viewer.previewUrl(handle) };
      } catch (error) {
        if (error instanceof ViewerRefusal) throw new BridgeError(error.code, error.message);
        throw error;
      }
    },
    'viewer:compileLatex': async ({ handle }) => {
      try {
        return await viewer.compileLatex(handle);
      } catch (error) {
        if (error instanceof ViewerRefusal) throw new BridgeError(error.code, error.message);
        throw error;
      }
    },
    'viewer:release': ({ handle }) => {
      viewer.release(handle);
      return { ok: true as const };
    },
  };
}
