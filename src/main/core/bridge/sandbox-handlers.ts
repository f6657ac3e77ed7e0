/** Handlers of the `sandbox:*` calls (docs/sandbox.md): Settings → Sandbox and the first run read the status here. */
import type { Sandbox } from '../sandbox/index';
import { SANDBOX_CONFINES } from '../sandbox/status';
import type { BridgeHandlers } from './handlers';

type SandboxHandlers = Pick<BridgeHandlers, 'sandbox:status'>;

export function createSandboxHandlers(sandbox: Sandbox): SandboxHandlers {
  return {
    'sandbox:status': async () => {
      const status = await sandbox.status();
      if (status.state === 'ready')
        return { state: 'ready', engine: status.engine, reason: null, fix: null, confines: [...SANDBOX_CONFINES] };
      return {
        state: status.state,
        engine: null,
        reason: status.reason,
        fix: status.state === 'unavailable' ? status.fix : null,
        confines: [...SANDBOX_CONFINES],
      };
    },
  };
}
