/** Handlers of the `app:*` calls. */
import type { CoreConfig } from '../config';
import type { EventBus } from '../events';
import type { BridgeHandlers } from './handlers';

type AppHandlers = Pick<BridgeHandlers, 'app:info' | 'app:ping'>;

export function createAppHandlers(config: CoreConfig, events: EventBus): AppHandlers {
  return {
    'app:info': () => ({
      version: config.version,
      shape: config.shape,
      dataDir: config.dataDir,
      workspaceDir: config.workspaceDir,
    }),
    'app:ping': ({ text }) => {
      const at = Date.now();
      events.emit('app', { type: 'pong', text, at });
      return { text, at };
    },
  };
}
