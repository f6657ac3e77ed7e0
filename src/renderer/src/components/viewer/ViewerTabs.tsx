/**
 * The viewer's tab strip as the ARIA tabs pattern (docs/ui.md "Keyboard"): each tab is a button with role "tab";
 * only the open one is in the Tab order, and Arrow Left / Right, Home and End move between tabs (opening them);
 * Delete closes the focused tab, as Alt+W closes the open one. The × beside each tab is for the pointer: outside the
 * tab (a button inside a tab would be a control inside a control) and out of the Tab order, since the keys close too.
 */
import { useRef } from 'react';
import { activateTab, closeTab, type ViewerTab } from '../../stores/viewer-store';

/** The tab strip has no scroll bar: the wheel scrolls it sideways. */
function scrollTabsSideways(e: React.WheelEvent<HTMLDivElement>): void {
  if (e.deltaY !== 0 && e.deltaX === 0) e.currentTarget.scrollLeft += e.deltaY;
}

/** The active tab is scrolled into the strip's view when it becomes active (an open, Alt+] / Alt+[). */
function keepInView(element: HTMLElement | null): void {
  element?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

export const tabId = (tab: ViewerTab) => `viewer-tab-${tab.id}`;
export const PANEL_ID = 'viewer-tabpanel';

export function ViewerTabs({ tabs, activeId }: { tabs: readonly ViewerTab[]; activeId: string }) {
  const strip = useRef<HTMLDivElement>(null);
  /** Opens the tab `step` away from the focused one (or the first / last) and moves the focus to it. */
  const moveTo = (index: number) => {
    const tab = tabs[(index + tabs.length) % tabs.length];
    if (!tab) return;
    activateTab(tab.id);
    requestAnimationFrame(() => document.getElementById(tabId(tab))?.focus());
  };
  const onKeyDown = (e: React.KeyboardEvent, index: number, tab: ViewerTab) => {
    if (e.key === 'ArrowRight') moveTo(index + 1);
    else if (e.key === 'ArrowLeft') moveTo(index - 1);
    else if (e.key === 'Home') moveTo(0);
    else if (e.key === 'End') moveTo(tabs.length - 1);
    else if (e.key === 'Delete') {
      closeTab(tab.id);
      // The focus stays in the strip, on the tab that took the closed one's place.
      requestAnimationFrame(() => strip.current?.querySelector<HTMLElement>('[aria-selected="true"]')?.focus());
    } else return;
    e.preventDefault();
  };
  return (
    <div className="viewer-tabs" role="tablist" aria-label="Open files" ref={strip} onWheel={scrollTabsSideways}>
      {tabs.map((t, index) => {
        const isActive = t.id === activeId;
        return (
          <div key={t.id} className={`viewer-tab ${isActive ? 'active' : ''}`} role="presentation">
            <button
              ref={isActive ? keepInView : undefined}
              id={tabId(t)}
              role="tab"
              aria-selected={isActive}
              aria-controls={isActive ? PANEL_ID : undefined}
              aria-keyshortcuts="Delete"
              tabIndex={isActive ? 0 : -1}
              className="viewer-tab-title"
              data-testid="viewer-tab"
              title={t.absolute ?? t.path}
              onClick={() => activateTab(t.id)}
              onKeyDown={(e) => onKeyDown(e, index, t)}
            >
              {t.title}
            </button>
            <button
              className="viewer-tab-close"
              tabIndex={-1}
              aria-hidden="true"
              title={`Close ${t.title} (Alt+W)`}
              onClick={() => closeTab(t.id)}
            >
              ×
            </button>
          </div>
        );
      })}
    </div>
  );
}
