import { Link, Outlet, useNavigate } from '@tanstack/react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SETTINGS_GROUP_ACCESS, SETTINGS_GROUPS } from '@claims/contracts';
import { holdsInternally, storesWith, useMe } from '../shared/session.js';
import { Alert } from '@claims/ui/components';
import { api } from '../shared/api.js';
import { METHOD_READS } from '../money/PaymentMethodsPage.js';

/** The signed-in frame: who is signed in, the links to the pages the user may open, and sign-out. */
export function AppLayout() {
  const me = useMe();
  const client = useQueryClient();
  const navigate = useNavigate();
  const signOut = useMutation({
    mutationFn: () => api.logout(),
    onSuccess: async () => {
      client.clear();
      await navigate({ to: '/sign-in', search: { signedOut: '1', redirect: undefined }, replace: true });
    },
  });
  const storeNames = me.stores.map((s) => s.name).join(', ');
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <Link to="/" search={{}} className="brand">
          Claim desk
        </Link>
        <nav aria-label="Main">
          <ul className="nav">
            <li>
              <Link
                to="/"
                search={{}}
                activeOptions={{ exact: true, includeSearch: false }}
                activeProps={{ 'aria-current': 'page' }}
              >
                Claims
              </Link>
            </li>
            {storesWith(me, 'analytics:read').length > 0 ? (
              <li>
                <Link
                  to="/analytics"
                  search={{}}
                  activeOptions={{ includeSearch: false }}
                  activeProps={{ 'aria-current': 'page' }}
                >
                  Analytics
                </Link>
              </li>
            ) : null}
            {storesWith(me, 'team-member:read').length > 0 ? (
              <li>
                <Link
                  to="/team"
                  search={{}}
                  activeOptions={{ includeSearch: false }}
                  activeProps={{ 'aria-current': 'page' }}
                >
                  Team
                </Link>
              </li>
            ) : null}
            {holdsInternally(me, 'support-user:read') ? (
              <li>
                <Link to="/support-users" activeProps={{ 'aria-current': 'page' }}>
                  Support users
                </Link>
              </li>
            ) : null}
            {storesWith(me, 'api-tokens:read').length > 0 ? (
              <li>
                <Link
                  to="/api-tokens"
                  search={{}}
                  activeOptions={{ includeSearch: false }}
                  activeProps={{ 'aria-current': 'page' }}
                >
                  API tokens
                </Link>
              </li>
            ) : null}
            {SETTINGS_GROUPS.some((group) => storesWith(me, SETTINGS_GROUP_ACCESS[group].read).length > 0) ? (
              <li>
                <Link
                  to="/settings"
                  search={{}}
                  activeOptions={{ includeSearch: false }}
                  activeProps={{ 'aria-current': 'page' }}
                >
                  Settings
                </Link>
              </li>
            ) : null}
            {storesWith(me, 'webhook:read').length > 0 ? (
              <li>
                <Link
                  to="/webhooks"
                  search={{}}
                  activeOptions={{ includeSearch: false }}
                  activeProps={{ 'aria-current': 'page' }}
                >
                  Webhooks
                </Link>
              </li>
            ) : null}
            <li>
              <Link to="/profile" activeProps={{ 'aria-current': 'page' }}>
                Profile
              </Link>
            </li>
            {holdsInternally(me, 'admin-stores:read') ? (
              <li>
                <Link to="/operations" activeProps={{ 'aria-current': 'page' }}>
                  Operations
                </Link>
              </li>
            ) : null}
            {storesWith(me, 'invoice:read').length > 0 ? (
              <li>
                <Link
                  to="/invoices"
                  search={{}}
                  activeOptions={{ includeSearch: false }}
                  activeProps={{ 'aria-current': 'page' }}
                >
                  Invoices
                </Link>
              </li>
            ) : null}
            {me.stores.some((s) => METHOD_READS.some((p) => s.permissions.includes(p))) ? (
              <li>
                <Link
                  to="/payment-methods"
                  search={{}}
                  activeOptions={{ includeSearch: false }}
                  activeProps={{ 'aria-current': 'page' }}
                >
                  Payment methods
                </Link>
              </li>
            ) : null}
            {holdsInternally(me, 'payout:read') ? (
              <li>
                <Link to="/finance" activeProps={{ 'aria-current': 'page' }}>
                  Finance
                </Link>
              </li>
            ) : null}
            {storesWith(me, 'store-credit:read').length > 0 ? (
              <li>
                <Link
                  to="/store-credit"
                  search={{}}
                  activeOptions={{ includeSearch: false }}
                  activeProps={{ 'aria-current': 'page' }}
                >
                  Store credit
                </Link>
              </li>
            ) : null}
            {storesWith(me, 'macro:read').length > 0 || holdsInternally(me, 'global-macro:read') ? (
              <li>
                <Link
                  to="/macros"
                  search={{}}
                  activeOptions={{ includeSearch: false }}
                  activeProps={{ 'aria-current': 'page' }}
                >
                  Macros
                </Link>
              </li>
            ) : null}
            {storesWith(me, 'automation:read').length > 0 ? (
              <li>
                <Link
                  to="/rules"
                  search={{}}
                  activeOptions={{ includeSearch: false }}
                  activeProps={{ 'aria-current': 'page' }}
                >
                  Rules
                </Link>
              </li>
            ) : null}
            {storesWith(me, 'sop:read').length > 0 ? (
              <li>
                <Link
                  to="/sops"
                  search={{}}
                  activeOptions={{ includeSearch: false }}
                  activeProps={{ 'aria-current': 'page' }}
                >
                  SOPs
                </Link>
              </li>
            ) : null}
            {storesWith(me, 'reviews:read').length > 0 ? (
              <li>
                <Link
                  to="/reviews"
                  search={{}}
                  activeOptions={{ includeSearch: false }}
                  activeProps={{ 'aria-current': 'page' }}
                >
                  Reviews
                </Link>
              </li>
            ) : null}
            {storesWith(me, 'branding:read').length > 0 ? (
              <li>
                <Link
                  to="/branding"
                  search={{}}
                  activeOptions={{ includeSearch: false }}
                  activeProps={{ 'aria-current': 'page' }}
                >
                  Branding
                </Link>
              </li>
            ) : null}
            {storesWith(me, 'ab-tests:read').length > 0 ? (
              <li>
                <Link
                  to="/ab-tests"
                  search={{}}
                  activeOptions={{ includeSearch: false }}
                  activeProps={{ 'aria-current': 'page' }}
                >
                  A/B tests
                </Link>
              </li>
            ) : null}
            {holdsInternally(me, 'admin-stores:read') ? (
              <li>
                <Link to="/onboarding" activeProps={{ 'aria-current': 'page' }}>
                  Onboarding
                </Link>
              </li>
            ) : null}
            {storesWith(me, 'returns:read').length > 0 ? (
              <li>
                <Link
                  to="/returns"
                  search={{}}
                  activeOptions={{ includeSearch: false }}
                  activeProps={{ 'aria-current': 'page' }}
                >
                  Returns
                </Link>
              </li>
            ) : null}
          </ul>
        </nav>
        <div className="user">
          <span className="user-name">{me.user.name}</span>
          <span className="user-meta">
            {me.user.email}
            {storeNames ? ` · ${storeNames}` : ''}
          </span>
        </div>
        <button
          type="button"
          className="button button-secondary"
          onClick={() => signOut.mutate()}
          disabled={signOut.isPending}
        >
          Sign out
        </button>
      </header>
      {signOut.isError ? <Alert>Signing out failed. Try again.</Alert> : null}
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
