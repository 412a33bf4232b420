import { useState } from 'react';
import { Link, Outlet, useNavigate } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MeResponse } from '@claims/contracts';
import { Alert } from '@claims/ui/components';
import { api } from '../shared/api.js';
import { meQuery } from '../shared/session.js';
import { navigationFor } from './navigation.js';
import { UserMenu } from './UserMenu.js';

/**
 * The signed-in frame: a sidebar with the pages the user may open, grouped by job, and the user's menu; under ~900 px
 * the sidebar folds behind a Menu button.
 */
export function AppLayout() {
  // Read here without useMe(): signing out empties the cache before the sign-in page replaces this frame, and for that
  // moment the frame renders nothing rather than pages that need a signed-in user.
  const { data: me } = useQuery(meQuery);
  const client = useQueryClient();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const signOut = useMutation({
    mutationFn: () => api.logout(),
    onSuccess: async () => {
      client.clear();
      await navigate({ to: '/sign-in', search: { signedOut: '1', redirect: undefined }, replace: true });
    },
  });
  if (!me) return null;
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <div className="site-header-bar">
          <Link to="/" search={{}} className="brand">
            Claim desk
          </Link>
          <button
            type="button"
            className="nav-toggle"
            aria-expanded={menuOpen}
            aria-controls="site-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            Menu
          </button>
        </div>
        <div id="site-menu" className="site-menu" data-open={menuOpen}>
          <MainNavigation me={me} onNavigate={() => setMenuOpen(false)} />
          <UserMenu
            me={me}
            signingOut={signOut.isPending}
            onSignOut={() => signOut.mutate()}
            onNavigate={() => setMenuOpen(false)}
          />
        </div>
      </header>
      <div className="app-content">
        {signOut.isError ? <Alert>Signing out failed. Try again.</Alert> : null}
        <main id="main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}

/** The pages `me` may use, in their groups; the current page's link is marked for assistive technology. */
function MainNavigation({ me, onNavigate }: { me: MeResponse; onNavigate: () => void }) {
  return (
    <nav aria-label="Main" className="main-nav">
      {navigationFor(me).map((group) => {
        const id = `nav-group-${group.label.toLowerCase()}`;
        return (
          <div key={group.label} className="nav-group">
            <p className="nav-group-title" id={id}>
              {group.label}
            </p>
            <ul className="nav" aria-labelledby={id}>
              {group.links.map((link) => (
                <li key={link.to}>
                  <Link
                    to={link.to}
                    search={{}}
                    activeOptions={{ exact: link.exact ?? false, includeSearch: false }}
                    activeProps={{ 'aria-current': 'page' }}
                    onClick={onNavigate}
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </nav>
  );
}
