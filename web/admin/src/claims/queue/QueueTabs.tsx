import { Link } from '@tanstack/react-router';
import { CLAIM_STATUS_LABELS, type AssigneeFilter, type ClaimStatus, type QueueCounts } from '@claims/contracts';
import { queueStatusesFor } from '@claims/domain';
import { formatCount } from '@claims/format';
import { compact, type QueueSearch } from './search.js';

/** A tab's count: "1,234", "10,000+" when the count stopped early, nothing while loading. */
function Count({ n, capped }: { n: number | undefined; capped: boolean }) {
  if (n === undefined) return null;
  const text = `${formatCount(n)}${capped ? '+' : ''}`;
  return (
    <>
      <span className="tab-count" aria-hidden="true">
        {text}
      </span>
      <span className="visually-hidden">
        , {text} {n === 1 && !capped ? 'claim' : 'claims'}
      </span>
    </>
  );
}

const WHOSE: ReadonlyArray<{ assignee: AssigneeFilter | undefined; label: string }> = [
  { assignee: undefined, label: "Everyone's claims" },
  { assignee: 'me', label: 'Assigned to me' },
  { assignee: 'none', label: 'Unassigned' },
];

/** Whose claims the queue shows: everyone's, the signed-in user's, or nobody's yet. */
export function AssigneeViews({ search }: { search: QueueSearch }) {
  return (
    <nav aria-label="Whose claims" className="tabs tabs-quiet">
      <ul>
        {WHOSE.map((view) => {
          const current = search.assignee === view.assignee;
          return (
            <li key={view.label}>
              <Link
                to="/"
                search={compact({ ...search, assignee: view.assignee })}
                aria-current={current ? 'page' : undefined}
                className={current ? 'tab tab-current' : 'tab'}
              >
                {view.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/**
 * The status tabs in workflow order (the status table's), each with how many claims the other filters
 * leave in it; Order Protection's own queue only for its staff.
 */
export function StatusTabs({
  search,
  counts,
  internal,
}: {
  search: QueueSearch;
  counts: QueueCounts | undefined;
  internal: boolean;
}) {
  const tabs: Array<{ status: ClaimStatus | undefined; label: string }> = [
    { status: undefined, label: 'All' },
    ...queueStatusesFor(internal).map((status) => ({ status, label: CLAIM_STATUS_LABELS[status] })),
  ];
  return (
    <nav aria-label="Queues by status" className="tabs">
      <ul>
        {tabs.map((tab) => {
          const current = search.status === tab.status;
          const n = counts ? (tab.status ? (counts.byStatus[tab.status] ?? 0) : counts.total) : undefined;
          return (
            <li key={tab.label}>
              <Link
                to="/"
                search={compact({ ...search, status: tab.status })}
                aria-current={current ? 'page' : undefined}
                className={current ? 'tab tab-current' : 'tab'}
              >
                {tab.label} <Count n={n} capped={counts?.capped ?? false} />
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
