/**
 * The keyboard's way into the viewer and back (docs/ui.md "Keyboard"): a file opened from the chat (a tool's path, a
 * search hit) takes the focus to its tab in the viewer; Escape in the viewer brings it back to the link it came from
 * (or to the message box, when that link is gone). The viewer sits after the whole chat in the page, so without this
 * a keyboard user would Tab through every message to reach it.
 */
let opener: HTMLElement | null = null;

/** Whether the person's last input was a key (a pointer's click then leaves the focus alone). */
let byKeyboard = false;
if (typeof window !== 'undefined') {
  window.addEventListener('keydown', () => (byKeyboard = true), true);
  window.addEventListener('pointerdown', () => (byKeyboard = false), true);
}

const FRAMES_TO_WAIT = 30;

/**
 * After a file is opened by the keyboard from `from` (the focused link or button): the viewer's open tab takes the
 * focus as soon as it is in the page. A pointer's click leaves the focus alone.
 */
export function focusViewerFrom(from: Element | null): void {
  if (!byKeyboard) return;
  opener = from instanceof HTMLElement && from !== document.body ? from : null;
  let frames = 0;
  const attempt = () => {
    const tab = document.querySelector<HTMLElement>('.viewer-tabs [role="tab"][aria-selected="true"]');
    if (tab) tab.focus();
    else if (frames++ < FRAMES_TO_WAIT) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}

/**
 * Back from the viewer: to the opener if it is still in the page, else the message box. False when the viewer was not
 * entered this way (the key then does what it did before: Escape stops a running turn).
 */
export function focusBackFromViewer(): boolean {
  if (!opener) return false;
  const target = opener.isConnected ? opener : document.getElementById('composer');
  opener = null;
  if (!target) return false;
  target.focus();
  return true;
}
