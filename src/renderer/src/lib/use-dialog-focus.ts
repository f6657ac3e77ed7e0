/**
 * Focus for a modal dialog (docs/ui.md "Keyboard"): when it opens the focus goes into it (to a control with React's
 * autoFocus, else its first control, else the dialog itself); Tab and Shift+Tab go round its controls and never reach the page
 * behind it; Escape closes it (before the app's own Escape, which would stop a running turn); when it closes the
 * focus goes back to where it was (the button that opened it). This is the only focus trap in the app, and it lasts
 * while the dialog is open.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), ' +
  'textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

/** The controls Tab reaches in `root`, in order (hidden ones left out). */
export function tabStops(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => !el.hidden && el.getClientRects().length > 0 && el.tabIndex >= 0,
  );
}

export function useDialogFocus(ref: RefObject<HTMLElement | null>, onClose?: () => void): void {
  const close = useRef(onClose);
  close.current = onClose;
  // Read while rendering, before a control of the dialog with React's autoFocus has taken the focus.
  const [before] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  // Once per opening: the dialog's own re-renders keep the focus where the person put it.
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    if (!root.contains(document.activeElement)) (tabStops(root)[0] ?? root).focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && close.current && !e.defaultPrevented) {
        e.preventDefault();
        close.current();
        return;
      }
      if (e.key !== 'Tab') return;
      const stops = tabStops(root);
      const first = stops[0];
      const last = stops[stops.length - 1];
      if (!first || !last) {
        e.preventDefault();
        return;
      }
      const at = document.activeElement;
      if (e.shiftKey && (at === first || at === root)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && at === last) {
        e.preventDefault();
        first.focus();
      }
    };
    root.addEventListener('keydown', onKey);
    return () => {
      root.removeEventListener('keydown', onKey);
      // Back to the opener, unless the dialog was closed by moving somewhere else on purpose (a link it holds).
      const lost =
        document.activeElement === null ||
        document.activeElement === document.body ||
        root.contains(document.activeElement);
      if (lost && before?.isConnected) before.focus();
    };
  }, []);
}
