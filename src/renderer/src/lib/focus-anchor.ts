/**
 * Where the keyboard's focus goes when the control it is on is about to go away (docs/ui.md "Keyboard"): an answered
 * approval or question disappears from its card, and a focus left on a removed button falls to the page's start.
 * The chat's card keeps its head's button, so the focus moves there (the person stays where they were, and hears the
 * card's new state); in the Inbox the item goes away, so the focus moves to the dialog itself.
 */
export function focusBeforeRemoval(part: HTMLElement | null): void {
  if (!part?.contains(document.activeElement)) return;
  const toggle = part.closest('.tool-card')?.querySelector<HTMLElement>('.tool-toggle');
  if (toggle) return toggle.focus();
  const dialog = part.closest<HTMLElement>('[role="dialog"]');
  if (!dialog) return;
  if (!dialog.hasAttribute('tabindex')) dialog.tabIndex = -1;
  dialog.focus();
}
