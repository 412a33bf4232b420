/** The colour theme: the user's remembered choice, else the system's (prefers-color-scheme). */
export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'claims.theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

/** The theme the user chose in this browser, if any (storage may be unavailable: private mode, blocked cookies). */
export function rememberedTheme(): Theme | null {
  try {
    const value = window.localStorage.getItem(THEME_STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null;
  }
}

export const systemTheme = (): Theme => (window.matchMedia?.(DARK_QUERY).matches ? 'dark' : 'light');

export const currentTheme = (): Theme => (document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light');

/** Puts `theme` on the page (tokens.css keys the dark palette on <html data-theme="dark">). */
export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
}

/** Remembers the user's choice and applies it. */
export function chooseTheme(theme: Theme): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Not remembered (storage unavailable): the choice still holds for this page.
  }
  applyTheme(theme);
}

/**
 * Applies the remembered theme, or the system's, before the first render (no flash of the other theme), and follows the
 * system's changes while the user has chosen none.
 */
export function installTheme(): void {
  applyTheme(rememberedTheme() ?? systemTheme());
  window.matchMedia?.(DARK_QUERY).addEventListener('change', () => {
    if (!rememberedTheme()) applyTheme(systemTheme());
  });
}
