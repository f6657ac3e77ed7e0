/**
 * The app's current theme for views that paint their own colours (Monaco, the PDF page background): the root's
 * `data-theme` when set, else the luminance of the page's background, else the system's preference. `useTheme` re-renders when either changes.
 */
import { useEffect, useState } from 'react';

export type Theme = 'light' | 'dark';

/** Light or dark by the luminance of the app's actual background, so the views match whatever the app shows. */
export function currentTheme(): Theme {
  const set = document.documentElement.dataset.theme;
  if (set === 'light' || set === 'dark') return set;
  for (const el of [document.body, document.documentElement]) {
    const m = /rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?/.exec(getComputedStyle(el).backgroundColor);
    if (!m || m[4] === '0') continue; // transparent: look further out
    return 0.2126 * Number(m[1]) + 0.7152 * Number(m[2]) + 0.0722 * Number(m[3]) > 140 ? 'light' : 'dark';
  }
  return window.matchMedia?.('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
}

export function useTheme(): Theme {
  const [theme, setTheme] = useState<Theme>(currentTheme);
  useEffect(() => {
    const update = () => setTheme(currentTheme());
    const media = window.matchMedia?.('(prefers-color-scheme: light)');
    media?.addEventListener('change', update);
    const observer = new MutationObserver(update);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class'] });
    return () => {
      media?.removeEventListener('change', update);
      observer.disconnect();
    };
  }, []);
  return theme;
}
