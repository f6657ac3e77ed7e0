/**
 * Keeps a heading the person jumped to at the top of the view while the document around it settles (docs/viewer.md
 * "Large Markdown"). A jump scrolls to a heading at once, but the parts above and around it are still being rendered
 * in the background, and each rendered part swaps its estimated height for its real one, so the heading drifts: on a
 * busy machine the view could end a screen or more away from it. So each time the document's height changes the
 * heading is scrolled back to the top, until the person scrolls, clicks or types there, until the document has not
 * changed for a while, or until another jump.
 */

/** How long the document must stay the same size before the heading is let go. */
const SETTLED_MS = 1500;
const PERSON_INPUT = ['wheel', 'pointerdown', 'keydown', 'touchstart'] as const;

let release: (() => void) | null = null;

export function pinJump(scroller: HTMLElement, body: HTMLElement, target: HTMLElement): void {
  release?.();
  const align = () => target.scrollIntoView({ block: 'start' });
  align();
  let quiet = setTimeout(() => release?.(), SETTLED_MS);
  const sizes = new ResizeObserver(() => {
    if (!target.isConnected) return release?.();
    align();
    clearTimeout(quiet);
    quiet = setTimeout(() => release?.(), SETTLED_MS);
  });
  sizes.observe(body);
  const letGo = () => release?.();
  for (const type of PERSON_INPUT) scroller.addEventListener(type, letGo, { passive: true });
  release = () => {
    release = null;
    clearTimeout(quiet);
    sizes.disconnect();
    for (const type of PERSON_INPUT) scroller.removeEventListener(type, letGo);
  };
}
