/**
 * The chat page's breakpoints (docs/ui.md "Fits any window"): at every width from 800 px up the chat keeps its least
 * width, the docked viewer never goes below its own, and what gives way goes in order (viewer narrows, list becomes a
 * rail, viewer moves over the chat). The e2e (e2e/layout.spec.ts) measures the same in Chromium.
 */
import { describe, expect, it } from 'vitest';
import { CHAT_MIN_PX, LIST_PX, RAIL_PX, VIEWER_MIN_PX, planLayout } from './layout';

const chatWidth = (width: number, plan: ReturnType<typeof planLayout>) =>
  width - (plan.list === 'full' ? LIST_PX : RAIL_PX) - (plan.viewer === 'docked' ? plan.viewerWidth : 0);

describe('planLayout', () => {
  it('keeps the chat at its least width or more at every width from 800 px, the viewer open or not', () => {
    for (let width = 800; width <= 2560; width += 8)
      for (const viewerOpen of [false, true])
        for (const viewerWidth of [null, 360, 560, 900, 2000]) {
          const plan = planLayout({ width, viewerOpen, viewerWidth });
          expect(chatWidth(width, plan)).toBeGreaterThanOrEqual(CHAT_MIN_PX);
          if (plan.viewer === 'docked') {
            expect(plan.viewerWidth).toBeGreaterThanOrEqual(VIEWER_MIN_PX);
            expect(plan.viewerWidth).toBeLessThanOrEqual(plan.viewerMaxWidth);
          }
          expect(plan.viewer === 'none').toBe(!viewerOpen);
        }
  });

  it('gives way in order: the viewer narrows, the list becomes a rail, the viewer moves over the chat', () => {
    const auto = (width: number) => planLayout({ width, viewerOpen: true, viewerWidth: null });
    expect(auto(1920)).toMatchObject({ list: 'full', viewer: 'docked', viewerWidth: 560 });
    expect(auto(1280)).toMatchObject({ list: 'full', viewer: 'docked', viewerWidth: 420 });
    expect(auto(1024)).toMatchObject({ list: 'rail', viewer: 'docked', viewerWidth: 1024 - RAIL_PX - CHAT_MIN_PX });
    expect(auto(800)).toMatchObject({ list: 'rail', viewer: 'overlay' });
  });

  it("keeps the width the person dragged to over the list, and over the chat's comfort, not its least width", () => {
    expect(planLayout({ width: 1280, viewerOpen: true, viewerWidth: 620 })).toMatchObject({
      list: 'rail',
      viewerWidth: 620,
      viewerMaxWidth: 1280 - RAIL_PX - CHAT_MIN_PX,
    });
    expect(planLayout({ width: 1280, viewerOpen: true, viewerWidth: 400 })).toMatchObject({
      list: 'full',
      viewerWidth: 400,
    });
    expect(planLayout({ width: 1280, viewerOpen: true, viewerWidth: 2000 }).viewerWidth).toBe(
      1280 - RAIL_PX - CHAT_MIN_PX,
    );
  });

  it('shows the full list without the viewer down to where the chat would lose its comfort', () => {
    expect(planLayout({ width: 1024, viewerOpen: false, viewerWidth: 560 }).list).toBe('full');
    expect(planLayout({ width: 800, viewerOpen: false, viewerWidth: 560 }).list).toBe('rail');
  });
});
