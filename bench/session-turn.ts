/** What the session suites share: a call through the bridge's dispatch, and one whole turn in a fresh session. */
import { dispatchCall } from '../src/main/core/bridge/dispatch';
import type { Core } from '../src/main/core/index';
import type { CallChannel, CallRequest, CallResponse } from '../src/shared/contract/index';

export async function call<C extends CallChannel>(
  core: Core,
  channel: C,
  request: CallRequest<C>,
): Promise<CallResponse<C>> {
  const outcome = await dispatchCall(core.handlers, channel, request);
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.result as CallResponse<C>;
}

/** `chat:send` in a new session (its context stays small), until its turn has ended; whatever the model was scripted to answer. */
export async function turnInNewSession(core: Core): Promise<void> {
  const sessionId = (await call(core, 'chat:createSession', {})).id;
  const ended = new Promise<void>((done) => {
    const off = core.events.subscribe('chat', (e) => {
      if (e.session_id === sessionId && e.type === 'turn_running' && !e.running) off(), done();
    });
  });
  await call(core, 'chat:send', { sessionId, content: 'go' });
  await ended;
}
