import { Link, Outlet } from '@tanstack/react-router';
import { holdsInternally, useMe } from '../../shared/session.js';

/** The finance pages share a sub-navigation; each link appears only with the permission its page reads with. */
export function FinanceLayout() {
  const me = useMe();
  const current = { 'aria-current': 'page' } as const;
  return (
    <>
      <nav aria-label="Finance" className="tabs">
        <ul>
          {holdsInternally(me, 'payout:read') ? (
            <li>
              <Link
                className="tab"
                to="/finance/payouts"
                search={{}}
                activeOptions={{ includeSearch: false }}
                activeProps={{ ...current, className: 'tab tab-current' }}
              >
                Payouts
              </Link>
            </li>
          ) : null}
          {holdsInternally(me, 'finance:read') ? (
            <li>
              <Link
                className="tab"
                to="/finance/replay"
                search={{}}
                activeOptions={{ includeSearch: false }}
                activeProps={{ ...current, className: 'tab tab-current' }}
              >
                Replay
              </Link>
            </li>
          ) : null}
          {holdsInternally(me, 'finance:read') && holdsInternally(me, 'payout:read') ? (
            <li>
              <Link
                className="tab"
                to="/finance/charts"
                search={{}}
                activeOptions={{ includeSearch: false }}
                activeProps={{ ...current, className: 'tab tab-current' }}
              >
                Premiums &amp; payouts
              </Link>
            </li>
          ) : null}
        </ul>
      </nav>
      <Outlet />
    </>
  );
}
