/**
 * `inbox:revealSecrets` (docs/plugins.md "Revealing a secret argument"): the person's explicit click on an approval
 * card opens the sealed secret arguments of THAT pending call (`set_secret`'s value, a plugin's secret fields) and
 * sends them back in the answer to this call only. Never in an event, a log line, the database or the model's
 * context: the opened values live in this answer and then in the card, until it is hidden or the call is decided.
 * Like every call, it is accepted only from the main window (the desktop registrar's top-frame check, the web
 * shape's token). Refused with a readable BridgeError: an unknown id, a request that is no longer pending (decided,
 * withdrawn), a question instead of an approval, a tool without secret arguments, a call that holds none, or a
 * value the current key cannot open.
 */
import { BridgeError } from '../../../shared/contract/define';
import type { CallSecrets } from '../secrets/sealed-args';
import { SecretDecryptError } from '../secrets/secret-cipher';
import type { BridgeHandlers } from './handlers';

/** A call pending approval: its tool and its stored arguments (secret values sealed). */
interface PendingCall {
  toolName: string;
  args: Record<string, unknown>;
}

export interface RevealHandlerDeps {
  /** The Inbox's pending call by request id (PendingManager.pendingCall); throws its BridgeError when none waits. */
  pending: { pendingCall(requestId: number): PendingCall };
  secrets: Pick<CallSecrets, 'reveal'>;
}

/** The pending call, or the refusal in words about revealing (a decided call's secret stays sealed for good). */
function pendingCall(pending: RevealHandlerDeps['pending'], requestId: number): PendingCall {
  try {
    return pending.pendingCall(requestId);
  } catch (error) {
    if (error instanceof BridgeError && error.code === 'already_decided') {
      throw new BridgeError(
        'already_decided',
        `Request ${requestId} is no longer pending (decided or withdrawn): a secret argument can be revealed only while its call waits for your decision.`,
      );
    }
    throw error;
  }
}

export function createRevealHandlers({
  pending,
  secrets,
}: RevealHandlerDeps): Pick<BridgeHandlers, 'inbox:revealSecrets'> {
  return {
    'inbox:revealSecrets': ({ requestId }) => {
      const { toolName, args } = pendingCall(pending, requestId);
      let values;
      try {
        values = secrets.reveal(toolName, args);
      } catch (error) {
        if (error instanceof SecretDecryptError)
          throw new BridgeError(
            'unreadable',
            'The secret value of this call cannot be opened any more (the key that sealed it is gone).',
          );
        throw error;
      }
      if (values === null)
        throw new BridgeError('invalid_input', `${toolName} has no secret arguments: there is nothing to reveal.`);
      if (values.length === 0)
        throw new BridgeError(
          'invalid_input',
          `This ${toolName} call holds no secret value: there is nothing to reveal.`,
        );
      return { values };
    },
  };
}
