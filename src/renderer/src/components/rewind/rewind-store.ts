/**
 * Which rewind the window shows (docs/rewind.md "In the chat"): the dialog for one of the person's messages, or the
 * picker Esc Esc opens; and the text a rewind hands back to the composer (taken once by the open chat's box).
 */
import { createStore } from 'zustand/vanilla';

export interface RewindUi {
  /** The dialog's message, or null. */
  target: { sessionId: number; messageId: number } | null;
  isPickerOpen: boolean;
  /** Text for the composer of `sessionId`; `nonce` makes the same text handed back twice a new request. */
  composer: { sessionId: number; text: string; nonce: number } | null;
}

export const rewindUi = createStore<RewindUi>(() => ({ target: null, isPickerOpen: false, composer: null }));

export const openRewind = (sessionId: number, messageId: number) =>
  rewindUi.setState({ target: { sessionId, messageId }, isPickerOpen: false });
export const openRewindPicker = () => rewindUi.setState({ isPickerOpen: true });
export const closeRewind = () => rewindUi.setState({ target: null, isPickerOpen: false });
export const handToComposer = (sessionId: number, text: string) =>
  rewindUi.setState((s) => ({ composer: { sessionId, text, nonce: (s.composer?.nonce ?? 0) + 1 } }));
