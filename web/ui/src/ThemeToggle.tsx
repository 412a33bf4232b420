import { useState } from 'react';
import { chooseTheme, currentTheme, type Theme } from './theme.js';

/** A switch between the light and the dark theme; the choice is remembered in this browser. */
export function ThemeToggle({ className }: { className?: string }) {
  const [theme, setTheme] = useState<Theme>(currentTheme);
  const dark = theme === 'dark';
  return (
    <button
      type="button"
      role="switch"
      aria-checked={dark}
      className={['ui-theme-toggle', className].filter(Boolean).join(' ')}
      onClick={() => {
        const next: Theme = dark ? 'light' : 'dark';
        chooseTheme(next);
        setTheme(next);
      }}
    >
      <span className="ui-theme-toggle-track" aria-hidden="true">
        <span className="ui-theme-toggle-thumb" />
      </span>
      Dark theme
    </button>
  );
}
