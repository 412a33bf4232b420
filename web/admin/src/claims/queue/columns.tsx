import { Link } from '@tanstack/react-router';
import { columnVisibilityFeature, createColumnHelper, rowSortingFeature, tableFeatures } from '@tanstack/react-table';
import type { AdminClaimListItem, QueueSort } from '@claims/contracts';
import { formatDateTime, formatMoney } from '@claims/format';
import { claimTypeLabel, requestedResolutionLabel, resolutionTypeLabel } from '../../shared/labels.js';
import { Badge, ProtectionBadge, RiskBadge, StatusTag } from '../../shared/components/ui.js';

/** Sorting is the server's (keyset over every claim, not the loaded rows): the table only shows which. */
export const features = tableFeatures({ columnVisibilityFeature, rowSortingFeature });

const helper = createColumnHelper<typeof features, AdminClaimListItem>();

const time = (iso: string | null) => (iso ? <time dateTime={iso}>{formatDateTime(iso)}</time> : '—');

/** The columns the server sorts by, and its name for each. */
export const SORT_OF_COLUMN: Readonly<Record<string, QueueSort>> = {
  createdAt: 'filed',
  value: 'value',
  lastReply: 'reply',
};
export const COLUMN_OF_SORT: Readonly<Record<QueueSort, string>> = {
  filed: 'createdAt',
  value: 'value',
  reply: 'lastReply',
};

/** What a sort means to someone hearing the header: each way, in words. */
export const SORT_WORDS: Readonly<Record<QueueSort, { desc: string; asc: string }>> = {
  filed: { desc: 'newest first', asc: 'oldest first' },
  value: { desc: 'highest value first', asc: 'lowest value first' },
  reply: { desc: 'latest customer reply first', asc: 'longest waiting first' },
};

export const columns = helper.columns([
  helper.accessor('claimNumber', {
    id: 'claimNumber',
    header: 'Claim',
    enableHiding: false,
    enableSorting: false,
    cell: (info) => (
      <span className="claim-cell">
        <Link to="/claims/view/$claimRef" params={{ claimRef: info.row.original.id }} search={{}} className="row-link">
          #{info.getValue()}
        </Link>
        {info.row.original.customerReplied ? <Badge tone="warning">Customer replied</Badge> : null}
      </span>
    ),
  }),
  helper.accessor('status', {
    id: 'status',
    header: 'Status',
    enableSorting: false,
    cell: (info) => <StatusTag status={info.getValue()} />,
  }),
  helper.accessor('risk', {
    id: 'risk',
    header: 'Risk',
    enableSorting: false,
    cell: (info) => {
      const risk = info.getValue();
      return risk ? <RiskBadge level={risk.level} score={risk.score} /> : <span className="muted">Not assessed</span>;
    },
  }),
  helper.accessor('claimType', {
    id: 'claimType',
    header: 'Type',
    enableSorting: false,
    cell: (info) => claimTypeLabel(info.getValue()),
  }),
  helper.accessor('orderNumber', {
    id: 'orderNumber',
    header: 'Order',
    enableSorting: false,
    cell: (info) => `#${info.getValue()}`,
  }),
  helper.accessor('customerEmail', {
    id: 'customer',
    header: 'Customer',
    enableSorting: false,
    cell: (info) => (
      <span className="two-line">
        <span>{info.row.original.customerName}</span>
        <span className="muted">{info.getValue()}</span>
      </span>
    ),
  }),
  helper.accessor((c) => c.assignee?.name ?? '', {
    id: 'assignee',
    header: 'Assignee',
    enableSorting: false,
    cell: (info) => info.getValue() || <span className="muted">Unassigned</span>,
  }),
  helper.accessor((c) => c.store.name, { id: 'store', header: 'Store', enableSorting: false }),
  helper.accessor('protectionStatus', {
    id: 'protection',
    header: 'Protection',
    enableSorting: false,
    cell: (info) => <ProtectionBadge status={info.getValue()} />,
  }),
  helper.accessor('requestedResolution', {
    id: 'requested',
    header: 'Requested',
    enableSorting: false,
    cell: (info) => requestedResolutionLabel(info.getValue()),
  }),
  helper.accessor('claimedValue', {
    id: 'value',
    header: 'Claimed value',
    sortDescFirst: true,
    cell: (info) => formatMoney(info.getValue(), info.row.original.currency),
  }),
  helper.accessor('itemCount', { id: 'items', header: 'Items', enableSorting: false }),
  helper.accessor('messageCount', { id: 'messages', header: 'Messages', enableSorting: false }),
  helper.accessor('resolutionType', {
    id: 'resolution',
    header: 'Resolution',
    enableSorting: false,
    cell: (info) => resolutionTypeLabel(info.getValue()) || '—',
  }),
  helper.accessor('createdAt', {
    id: 'createdAt',
    header: 'Filed',
    sortDescFirst: true,
    cell: (info) => time(info.getValue()),
  }),
  helper.accessor('lastCustomerReplyAt', {
    id: 'lastReply',
    header: 'Last customer reply',
    sortDescFirst: true,
    cell: (info) => time(info.getValue()),
  }),
  helper.accessor('updatedAt', {
    id: 'updatedAt',
    header: 'Updated',
    enableSorting: false,
    cell: (info) => time(info.getValue()),
  }),
]);

/** Shown until the user chooses otherwise (kept in localStorage). */
export const DEFAULT_VISIBILITY: Record<string, boolean> = {
  store: false,
  messages: false,
  updatedAt: false,
  resolution: false,
  lastReply: false,
};
