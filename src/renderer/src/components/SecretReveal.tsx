/**
 * The reveal of a pending call's secret arguments on its approval card (docs/plugins.md "Revealing a secret
 * argument"): masked by default; the person's click asks the core for THIS call's opened values, which show in the
 * card's arguments until Hide, until the call is decided or withdrawn (the approvals store drops them then), or until
 * the card leaves the screen.
 * Nothing is revealed without the click; the values never leave this window's memory.
 */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { InboxApproval } from '../../../shared/contract/inbox';
import { hasSealedValue, type RevealedArgument } from '../../../shared/sealed';
import { approvals, revealedFor } from '../stores/approvals';

/** The opened values of this card's call, or null while masked. */
export function useRevealed(requestId: number): readonly RevealedArgument[] | null {
  return useStore(approvals.store, (s) => revealedFor(s, requestId));
}

export function SecretReveal({ item }: { item: InboxApproval }) {
  const revealed = useRevealed(item.request_id);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A card that leaves the screen (the Inbox closed, another session opened) hides what it showed.
  useEffect(() => () => approvals.hide(item.request_id), [item.request_id]);
  if (!hasSealedValue(item.arguments)) return null;

  const reveal = async () => {
    setBusy(true);
    setError(null);
    try {
      await approvals.reveal(item.request_id);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="secret-reveal" data-testid="secret-reveal">
      {revealed ? (
        <>
          <span className="small warn">
            The secret is shown in the arguments above; it hides again when you decide.
          </span>
          <button className="small" data-testid="hide-secret" onClick={() => approvals.hide(item.request_id)}>
            Hide secret
          </button>
        </>
      ) : (
        <>
          <span className="muted small">The secret value is masked.</span>
          <button className="small" data-testid="reveal-secret" disabled={busy} onClick={() => void reveal()}>
            Reveal secret
          </button>
        </>
      )}
      {error && (
        <span className="error small" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
