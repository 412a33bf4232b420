import { Link } from '@tanstack/react-router';
import {
  columnVisibilityFeature, createColumnHelper, createSortedRowModel, rowSortingFeature, tableFeatures,
} from '@tanstack/react-table';
import type { AdminClaimListItem } from '@claims/contracts';
import { formatDateTime, formatMoney } from '@claims/ui';
import { claimTypeLabel, requestedResolutionLabel, resolutionTypeLabel } from '../labels.js';
import { ProtectionBadge, StatusBadge } from '../components/ui.js';

export const features = tableFeatures({
  columnVisibilityFeature,
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
});

const helper = createColumnHelper<typeof features, AdminClaimListItem>();

const time = (iso: string | null) => (iso ? <time dateTime={iso}>{formatDateTime(iso)}</time> : '—');

/** Ascending by filed time (Table reverses it for newest first); ties by id like the server's keyset. */
const byFiled = (a: { original: AdminClaimListItem }, b: { original: AdminClaimListItem }) =>
  a.original.createdAt.localeCompare(b.original.createdAt) || a.original.id.localeCompare(b.original.id);

export const columns = helper.columns([
  helper.accessor('claimNumber', {
    id: 'claimNumber',
    header: 'Claim',
    enableHiding: false,
    enableSorting: false,
    cell: (info) => (
      <Link to="/claims/view/$claimRef" params={{ claimRef: info.row.original.id }} search={{}} className="row-link">
        #{info.getValue()}
      </Link>
    ),
  }),
  helper.accessor('status', { id: 'status', header: 'Status', enableSorting: false, cell: (info) => <StatusBadge status={info.getValue()} /> }),
  helper.accessor('claimType', { id: 'claimType', header: 'Type', enableSorting: false, cell: (info) => claimTypeLabel(info.getValue()) }),
  helper.accessor('orderNumber', { id: 'orderNumber', header: 'Order', enableSorting: false, cell: (info) => `#${info.getValue()}` }),
  helper.accessor('customerEmail', {
    id: 'customer',
    header: 'Customer',
    enableSorting: false,
    cell: (info) => (
      <span className="two-line"><span>{info.row.original.customerName}</span><span className="muted">{info.getValue()}</span></span>
    ),
  }),
  helper.accessor((c) => c.store.name, { id: 'store', header: 'Store', enableSorting: false }),
  helper.accessor('protectionStatus', { id: 'protection', header: 'Protection', enableSorting: false, cell: (info) => <ProtectionBadge status={info.getValue()} /> }),
  helper.accessor('requestedResolution', { id: 'requested', header: 'Requested', enableSorting: false, cell: (info) => requestedResolutionLabel(info.getValue()) }),
  helper.accessor('claimedValue', {
    id: 'value', header: 'Claimed value', enableSorting: false,
    cell: (info) => formatMoney(info.getValue(), info.row.original.currency),
  }),
  helper.accessor('itemCount', { id: 'items', header: 'Items', enableSorting: false }),
  helper.accessor('messageCount', { id: 'messages', header: 'Messages', enableSorting: false }),
  helper.accessor('resolutionType', { id: 'resolution', header: 'Resolution', enableSorting: false, cell: (info) => resolutionTypeLabel(info.getValue()) || '—' }),
  helper.accessor('createdAt', { id: 'createdAt', header: 'Filed', sortFn: byFiled, sortDescFirst: true, cell: (info) => time(info.getValue()) }),
  helper.accessor('updatedAt', { id: 'updatedAt', header: 'Updated', enableSorting: false, cell: (info) => time(info.getValue()) }),
]);

/** Shown until the user chooses otherwise (kept in localStorage). */
export const DEFAULT_VISIBILITY: Record<string, boolean> = { store: false, messages: false, updatedAt: false, resolution: false };
