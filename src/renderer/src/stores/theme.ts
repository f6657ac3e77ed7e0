/**
 * The theme (docs/ui.md): system (follows the OS, live), light or dark. The choice is applied as `data-theme` on
 * the root element; the CSS holds both palettes. Persisted by the core's app settings when they load; until then
 * (and in tests) the last choice in localStorage avoids a flash of the wrong theme.
 */
import { createStore } from 'zustand/vanilla';

export type ThemeChoice = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

const KEY = 'skald.theme';
const media = () =>
  typeof window !== 'undefined' && window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;

export function resolveTheme(choice: ThemeChoice, systemDark: boolean): Theme {
  return choice === 'system' ? (systemDark ? 'dark' : 'light') : choice;
}

const stored = (): ThemeChoice => {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' || v === 'system' ? v : 'system';
  } catch {
    return 'system';
  }
};

export const themeStore = createStore<{ choice: ThemeChoice; theme: Theme }>(() => {
  const choice = typeof localStorage === 'undefined' ? 'system' : stored();
  return { choice, theme: resolveTheme(choice, media()?.matches ?? false) };
});

function apply(): void {
  const { choice } = themeStore.getState();
  const theme = resolveTheme(choice, media()?.matches ?? false);
  themeStore.setState({ theme });
  if (typeof document !== 'undefined') {
    document.documentElement.dataset.theme = theme;
    document.documentElement.style.colorScheme = theme;
  }
}

export function setThemeChoice(choice: ThemeChoice): void {
  themeStore.setState({ choice });
  try {
    localStorage.setItem(KEY, choice);
  } catch {
    // storage may be unavailable (private window); the choice still applies for this run
  }
  apply();
}

/** Applies the theme now and follows the system while the choice is `system`. Returns the disposer. */
export function startTheme(): () => void {
  apply();
  const m = media();
  if (!m) return () => {};
  const onChange = () => apply();
  m.addEventListener('change', onChange);
  return () => m.removeEventListener('change', onChange);
}
