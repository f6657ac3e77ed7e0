/**
 * A bar across the top while the web shape's socket is down (the server restarted or stopped), so a dead server
 * is never mistaken for a quiet one. It goes away by itself once the link is back; the app then reloads the open
 * session, so cards show what happened meanwhile.
 */
import { useEffect, useRef } from 'react';
import { useStore } from 'zustand';
import { connectionStore } from '../bridge/connection';
import { announce } from '../stores/announcer';

export function ReconnectingBar() {
  const state = useStore(connectionStore, (s) => s.state);
  // Said as well as shown (a region that appears with its text is often not read): lost, and back again.
  const wasLost = useRef(false);
  useEffect(() => {
    if (state === 'reconnecting' && !wasLost.current) announce('Lost the connection to Skald. Reconnecting.');
    else if (state !== 'reconnecting' && wasLost.current) announce('Connected to Skald again.');
    wasLost.current = state === 'reconnecting';
  }, [state]);
  if (state !== 'reconnecting') return null;
  return (
    <div className="reconnecting-bar" data-testid="reconnecting">
      <span className="reconnecting-dot" aria-hidden="true" />
      Lost the connection to Skald. Reconnecting…
    </div>
  );
}
