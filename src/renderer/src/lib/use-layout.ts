/** The chat page's layout for the window as it is now (lib/layout.ts), re-planned as the window or the viewer changes. */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { viewerStore } from '../stores/viewer-store';
import { planLayout, type LayoutPlan } from './layout';

function useWindowWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}

export function useLayout(): LayoutPlan {
  const width = useWindowWidth();
  const viewerOpen = useStore(viewerStore, (s) => s.tabs.length > 0);
  const viewerWidth = useStore(viewerStore, (s) => s.width);
  return planLayout({ width, viewerOpen, viewerWidth });
}
