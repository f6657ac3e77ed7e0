/**
 * The rewind's place in the chat (docs/rewind.md "In the chat"): Esc twice within 600 ms, while no turn runs and the
 * message box is empty, opens the picker of the person's messages; the picker or a message's "Rewind to here" opens
 * the dialog. Esc alone keeps its meanings (stop a running turn, close a dialog).
 */
import { useEffect, useRef } from 'react';
import { useStore } from 'zustand';
import { skald } from '../../bridge/skald';
import { chat } from '../../stores/chat-store';
import { RewindDialog } from './RewindDialog';
import { RewindPicker } from './RewindPicker';
import { openRewind, openRewindPicker, rewindUi } from './rewind-store';

const DOUBLE_MS = 600;

/** Typing somewhere else (a field with text, an editor): Esc there is that field's. */
function isBusyField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) return target.value !== '';
  return target.isContentEditable;
}

export function RewindLayer() {
  const target = useStore(rewindUi, (s) => s.target);
  const isPickerOpen = useStore(rewindUi, (s) => s.isPickerOpen);
  const last = useRef(0);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      const { running, sessionId } = chat.store.getState();
      const ui = rewindUi.getState();
      if (e.defaultPrevented || running || sessionId === null || ui.target || ui.isPickerOpen || isBusyField(e.target))
        return void (last.current = 0);
      if (document.querySelector('[aria-modal="true"]')) return void (last.current = 0);
      if (e.timeStamp - last.current < DOUBLE_MS) {
        last.current = 0;
        e.preventDefault();
        openRewindPicker();
      } else last.current = e.timeStamp;
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  // A rewind finished in another window: this one reads the chat again (the note, the fork).
  useEffect(
    () =>
      skald.on.rewind((event) => {
        if (event.sessionId === chat.store.getState().sessionId) void chat.reload();
      }),
    [],
  );
  if (target) return <RewindDialog key={`${target.sessionId}-${target.messageId}`} {...target} />;
  return isPickerOpen ? <RewindPicker /> : null;
}

/** "Rewind to here" under one of the person's messages. */
export function RewindButton({ messageId }: { messageId: number }) {
  return (
    <button
      className="link-button"
      data-testid="rewind-to-here"
      title="Put the files the agent changed after this message back as they were, and take the chat back to it"
      onClick={() => {
        const { sessionId } = chat.store.getState();
        if (sessionId !== null) openRewind(sessionId, messageId);
      }}
    >
      Rewind to here
    </button>
  );
}
