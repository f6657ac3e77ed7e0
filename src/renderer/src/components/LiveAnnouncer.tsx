/**
 * The window's one live region (stores/announcer.ts, docs/ui.md "What is announced"): polite, so a screen reader says
 * a sentence when it has finished what it was saying and the person's typing goes on. Each sentence is its own
 * paragraph, added and later removed, so two alike in a row are both said. Always in the page: a region that appears
 * with its first sentence is not heard.
 */
import { useStore } from 'zustand';
import { announcerStore } from '../stores/announcer';

export function LiveAnnouncer() {
  const spoken = useStore(announcerStore, (s) => s.spoken);
  return (
    <div className="sr-only" role="status" aria-live="polite" data-testid="live-announcer">
      {spoken.map((s) => (
        <p key={s.id}>{s.text}</p>
      ))}
    </div>
  );
}
