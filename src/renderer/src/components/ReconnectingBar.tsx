/**
 * A bar across the top while the web shape's socket is down (the server restarted or stopped), so a dead server
 * is never mistaken for a quiet one. It goes away by itself once the link is back; the app then reloads the open
 * session, so cards show what happened meanwhile.
 */
import { useStore } from 'zustand';
import { connectionStore } from '../bridge/connection';

export function ReconnectingBar() {
  const state = useStore(connectionStore, (s) => s.state);
  if (state !== 'reconnecting') return null;
  return (
    <div className="reconnecting-bar" role="status" aria-live="polite" data-testid="reconnecting">
      <span className="reconnecting-dot" aria-hidden="true" />
      Lost the connection to Skald. Reconnecting…
    </div>
  );
}
