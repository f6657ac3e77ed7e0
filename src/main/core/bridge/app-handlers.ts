/** Handlers of the `app:*` calls: identity, ping, and the app settings of docs/ui.md. */
import type { CoreConfig } from '../config';
import type { EventBus } from '../events';
import type { AppSettingsStore } from '../settings/app-settings';
import type { BridgeHandlers } from './handlers';

type AppHandlers = Pick<BridgeHandlers, 'app:info' | 'app:ping' | 'app:getSettings' | 'app:setSettings'>;

export function createAppHandlers(config: CoreConfig, events: EventBus, settings: AppSettingsStore): AppHandlers {
  return {
    'app:getSettings': () => ({ settings: settings.get() }),
    'app:setSettings': (patch) => ({ settings: settings.set(patch) }),
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
