import { useEffect, useId, useRef, useState } from 'react';
import { Link } from '@tanstack/react-router';
import type { MeResponse } from '@claims/contracts';
import { ThemeToggle } from '@claims/ui/components';

/** An internal user reaches every store: the menu names a few, not hundreds. */
const SHOWN_STORES = 5;

/**
 * Who is signed in, behind a button naming them: their email and stores, their profile, the theme, and sign-out.
 * Escape closes it and returns focus to the button; a click elsewhere closes it too.
 */
export function UserMenu({
  me,
  signingOut,
  onSignOut,
  onNavigate,
}: {
  me: MeResponse;
  signingOut: boolean;
  onSignOut: () => void;
  /** After following the menu's link (the frame folds its phone menu). */
  onNavigate: () => void;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => {
      if (event.target instanceof Node && !rootRef.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);
  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  return (
    <div
      ref={rootRef}
      className="user-menu"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) close();
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="user-menu-button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        <span className="visually-hidden">Account: </span>
        <span className="user-name">{me.user.name}</span>
        <span className="user-meta">{me.user.email}</span>
      </button>
      <div id={panelId} className="user-menu-panel" hidden={!open}>
        {/* Only while open: a hidden list labelled "Stores" would still answer for the label of a page's Store field. */}
        {open && me.stores.length > 0 ? (
          <div className="user-stores">
            <p className="user-stores-title" id={`${panelId}-stores`}>
              {me.stores.length === 1 ? 'Store' : 'Stores'}
            </p>
            <ul className="plain" aria-labelledby={`${panelId}-stores`}>
              {me.stores.slice(0, SHOWN_STORES).map((store) => (
                <li key={store.id}>{store.name}</li>
              ))}
              {me.stores.length > SHOWN_STORES ? <li>and {me.stores.length - SHOWN_STORES} more</li> : null}
            </ul>
          </div>
        ) : null}
        <ul className="plain user-menu-actions">
          <li>
            <Link
              to="/profile"
              activeProps={{ 'aria-current': 'page' }}
              onClick={() => {
                setOpen(false);
                onNavigate();
              }}
            >
              Profile
            </Link>
          </li>
          <li>
            <ThemeToggle />
          </li>
          <li>
            <button type="button" className="button button-secondary" onClick={onSignOut} disabled={signingOut}>
              Sign out
            </button>
          </li>
        </ul>
      </div>
    </div>
  );
}
