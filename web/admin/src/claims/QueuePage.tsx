import {
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent as ReactKeyboardEvent,
} from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTable, type SortingState } from '@tanstack/react-table';
import {
  CLAIM_STATUS_LABELS,
  ClaimType,
  ProtectionStatus,
  RiskLevel,
  type AdminClaimListItem,
  type SearchMatch,
} from '@claims/contracts';
import { errorText } from '@claims/ui';
import { pluralize } from '@claims/format';
import { storesWith, useMe } from '../shared/session.js';
import { BulkStatusBar } from './queue/BulkStatusBar.js';
import { Alert, Page } from '@claims/ui/components';
import { PROTECTION_LABELS, RISK_LABELS } from '../shared/components/ui.js';
import { StoreSelect } from '../shared/components/StorePicker.js';
import { HelpDialog } from './shortcuts/HelpDialog.js';
import { claimTypeLabel } from '../shared/labels.js';
import { COLUMN_OF_SORT, DEFAULT_VISIBILITY, SORT_OF_COLUMN, SORT_WORDS, columns, features } from './queue/columns.js';
import { DEFAULT_PAGE_SIZE, FILTER_KEYS, PAGE_SIZES, compact, toListParams, type QueueSearch } from './queue/search.js';
import { loadColumns, saveColumns, type ColumnVisibility } from './queue/storage.js';
import { AssigneeViews, StatusTabs } from './queue/QueueTabs.js';
import { SavedViews } from './queue/SavedViews.js';
import { EXPORT_PAGE_SIZE, download, exportClaimsCsv } from './queue/exportCsv.js';
import { rememberQueueOrder } from './queue/queueOrder.js';
import { ColumnChooser } from './queue/ColumnChooser.js';
import { FirstRunGuide } from './queue/FirstRunGuide.js';
import { claimQueries } from './queries.js';
import { Options } from '../shared/components/Options.js';
import { PeriodFields } from '../shared/components/PeriodFields.js';

const EMPTY: AdminClaimListItem[] = [];

function Filters({
  search,
  onApply,
  searchInputRef,
}: {
  search: QueueSearch;
  onApply: (next: QueueSearch) => void;
  searchInputRef: React.RefObject<HTMLInputElement | null>;
}) {
  const me = useMe();
  const id = useId();
  const stores = storesWith(me, 'claim:read');
  const [draft, setDraft] = useState<QueueSearch>(search);
  const set = (key: keyof QueueSearch) => (event: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: event.target.value || undefined }));
  const [problem, setProblem] = useState<string | null>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (draft.from && draft.to && draft.from > draft.to) {
      setProblem('The "Filed from" day must be on or before the "Filed to" day.');
      return;
    }
    setProblem(null);
    onApply(compact({ ...search, ...draft, q: draft.q?.trim() || undefined }));
  }

  const clear = () =>
    onApply(
      compact({
        status: search.status,
        assignee: search.assignee,
        sort: search.sort,
        order: search.order,
        size: search.size,
      }),
    );
  return (
    <form className="filters" onSubmit={onSubmit} aria-label="Filter claims" role="search">
      <div className="field field-wide">
        <label htmlFor={`${id}-q`}>Search claims</label>
        <input
          id={`${id}-q`}
          ref={searchInputRef}
          type="search"
          value={draft.q ?? ''}
          onChange={set('q')}
          aria-describedby={`${id}-q-hint`}
        />
        <p id={`${id}-q-hint`} className="hint">
          Customer name, part of an email, item, SKU, order or claim number; typos are forgiven
        </p>
      </div>
      <div className="field">
        <label htmlFor={`${id}-type`}>Claim type</label>
        <select id={`${id}-type`} value={draft.type ?? ''} onChange={set('type')}>
          <option value="">Any type</option>
          <Options values={ClaimType.options} label={(t) => claimTypeLabel(t)} />
        </select>
      </div>
      {stores.length > 1 ? (
        <StoreSelect
          stores={stores}
          value={draft.store ?? ''}
          onChange={(store) => setDraft((d) => ({ ...d, store: store || undefined }))}
          anyStore="Every store"
        />
      ) : null}
      <div className="field">
        <label htmlFor={`${id}-protection`}>Protection</label>
        <select id={`${id}-protection`} value={draft.protection ?? ''} onChange={set('protection')}>
          <option value="">Any protection</option>
          <Options values={ProtectionStatus.options} label={(p) => PROTECTION_LABELS[p]} />
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-risk`}>Risk</label>
        <select id={`${id}-risk`} value={draft.risk ?? ''} onChange={set('risk')}>
          <option value="">Any risk</option>
          {RiskLevel.options.map((level) => (
            <option key={level} value={level}>
              {RISK_LABELS[level]} risk
            </option>
          ))}
        </select>
      </div>
      <PeriodFields
        from={draft.from ?? ''}
        to={draft.to ?? ''}
        onFrom={(from) => setDraft((d) => ({ ...d, from: from || undefined }))}
        onTo={(to) => setDraft((d) => ({ ...d, to: to || undefined }))}
        fromLabel="Filed from"
        toLabel="Filed to"
      />
      <div className="filter-actions">
        <button type="submit" className="button button-primary">
          Apply filters
        </button>
        <button type="button" className="button button-secondary" onClick={clear}>
          Clear filters
        </button>
      </div>
      {problem ? (
        <div className="field-wide">
          <Alert>{problem}</Alert>
        </div>
      ) : null}
    </form>
  );
}

function CsvExport({ search }: { search: QueueSearch }) {
  const [state, setState] = useState<{ running: boolean; rows: number; message: string | null; error: boolean }>({
    running: false,
    rows: 0,
    message: null,
    error: false,
  });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  async function run() {
    const controller = new AbortController();
    abort.current = controller;
    setState({ running: true, rows: 0, message: 'Exporting…', error: false });
    try {
      // A page size chosen in the URL below the API's largest is kept, so the walk can be watched (and tested) page by page.
      const { csv, rows } = await exportClaimsCsv(
        toListParams(search),
        (count) => setState((s) => ({ ...s, rows: count, message: `Exported ${pluralize(count, 'claim')} so far…` })),
        controller.signal,
        Math.min(search.size ?? EXPORT_PAGE_SIZE, EXPORT_PAGE_SIZE),
      );
      download(csv, `claims-${new Date().toISOString().slice(0, 10)}.csv`);
      setState({ running: false, rows, message: `Export finished: ${pluralize(rows, 'claim')}.`, error: false });
    } catch (error) {
      const cancelled = controller.signal.aborted;
      setState((s) => ({
        running: false,
        rows: s.rows,
        message: cancelled ? 'Export cancelled.' : `Export failed: ${errorText(error, 'unknown error')}.`,
        error: !cancelled,
      }));
    }
  }

  return (
    <div className="export">
      {state.running ? (
        <button type="button" className="button button-secondary" onClick={() => abort.current?.abort()}>
          Cancel export
        </button>
      ) : (
        <button type="button" className="button button-secondary" onClick={() => void run()}>
          Export CSV
        </button>
      )}
      {state.running ? <progress aria-label="Export progress" /> : null}
      <p role={state.error ? 'alert' : 'status'} className="export-status">
        {state.message}
      </p>
    </div>
  );
}

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** What the search found, said in words: the kind of match decides what the agent should read into the list. */
const MATCH_WORDS: Record<SearchMatch, string> = {
  exact: 'exact matches',
  contains: 'claims containing every word',
  close: 'no exact match: close matches (typos forgiven)',
};

/**
 * The claim queue: whose claims, status tabs with counts, server-side search, filters and sorts in the
 * URL, keyset "Load more", columns, saved views on the server, CSV, keys.
 */
export function QueuePage() {
  const search = useSearch({ from: '/app/' });
  const navigate = useNavigate();
  const params = useMemo(() => toListParams(search), [search]);
  const pageSize = search.size ?? DEFAULT_PAGE_SIZE;
  const sizeId = useId();
  const tableRef = useRef<HTMLTableElement>(null);
  const searchInputRef = useRef<HTMLInputElement>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [columnVisibility, setColumnVisibility] = useState<ColumnVisibility>(() => loadColumns(DEFAULT_VISIBILITY));
  const me = useMe();
  const internal = me.grants.some((g) => g.level === 'internal');
  const mayBulk = storesWith(me, 'claim:update').length > 0;
  const [selection, setSelection] = useState<ReadonlySet<string>>(() => new Set());
  const searchKey = JSON.stringify(search);
  // Another list (filters, status tab) starts with nothing selected.
  useEffect(() => setSelection(new Set()), [searchKey]);

  const claims = useInfiniteQuery(claimQueries.queue(params, pageSize));
  const rows = useMemo(() => claims.data?.pages.flatMap((p) => p.data) ?? EMPTY, [claims.data]);
  const firstPage = claims.data?.pages[0];
  // The claim page's next and previous walk the list as loaded here.
  useEffect(() => rememberQueueOrder(rows.map((r) => r.id)), [rows]);
  const selectedRows = useMemo(() => rows.filter((r) => selection.has(r.id)), [rows, selection]);
  const allSelected = rows.length > 0 && selectedRows.length === rows.length;
  const toggle = (claimId: string, on: boolean) =>
    setSelection((previous) => {
      const next = new Set(previous);
      if (on) next.add(claimId);
      else next.delete(claimId);
      return next;
    });
  const sort = search.sort ?? 'filed';
  const order = search.order ?? 'desc';
  const sorting = useMemo<SortingState>(() => [{ id: COLUMN_OF_SORT[sort], desc: order === 'desc' }], [sort, order]);

  const table = useTable({
    features,
    columns,
    data: rows,
    getRowId: (row) => row.id,
    manualSorting: true,
    enableSortingRemoval: false,
    state: { sorting, columnVisibility },
    onSortingChange: (updater) => {
      const next = (typeof updater === 'function' ? updater(sorting) : updater)[0];
      const nextSort = next ? SORT_OF_COLUMN[next.id] : undefined;
      if (!next || !nextSort) return;
      const nextOrder = next.desc ? 'desc' : 'asc';
      // The server sorts every claim: a new order is a new list from its first page.
      void navigate({
        to: '/',
        search: compact({
          ...search,
          sort: nextSort === 'filed' ? undefined : nextSort,
          order: nextOrder === 'desc' ? undefined : nextOrder,
        }),
        replace: true,
      });
    },
    onColumnVisibilityChange: (updater) => {
      setColumnVisibility((previous) => {
        const next = typeof updater === 'function' ? updater(previous) : updater;
        saveColumns(next);
        return next;
      });
    },
  });

  const apply = useCallback((next: QueueSearch) => void navigate({ to: '/', search: next }), [navigate]);

  const rowLinks = () => Array.from(tableRef.current?.querySelectorAll<HTMLAnchorElement>('a.row-link') ?? []);
  const moveFocus = useCallback((delta: 1 | -1) => {
    const links = rowLinks();
    if (links.length === 0) return;
    const current = links.findIndex((link) => link === document.activeElement);
    const next =
      current === -1 ? (delta === 1 ? 0 : links.length - 1) : Math.min(links.length - 1, Math.max(0, current + delta));
    links[next]?.focus();
    links[next]?.closest('tr')?.scrollIntoView({ block: 'nearest' });
  }, []);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      if (document.querySelector('[role="dialog"]')) return;
      if (event.key === '?') {
        event.preventDefault();
        setHelpOpen(true);
      } else if (event.key === 'j') {
        event.preventDefault();
        moveFocus(1);
      } else if (event.key === 'k') {
        event.preventDefault();
        moveFocus(-1);
      } else if (event.key === '/') {
        event.preventDefault();
        searchInputRef.current?.focus();
      }
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [moveFocus]);

  // Arrow keys move between claims only while focus is in the table (elsewhere they scroll as usual).
  function onTableKey(event: ReactKeyboardEvent<HTMLTableElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      moveFocus(event.key === 'ArrowDown' ? 1 : -1);
    }
  }

  const filtersActive = FILTER_KEYS.some((key) => search[key] !== undefined);
  const claimsOf = search.status ? `${CLAIM_STATUS_LABELS[search.status]} claims` : 'All claims';
  const title =
    search.assignee === 'me'
      ? `${claimsOf} assigned to me`
      : search.assignee === 'none'
        ? `${claimsOf}, unassigned`
        : claimsOf;
  const match = firstPage?.match ?? null;
  // No claim at all, not merely none matching: a new store's desk, which guides instead of showing an empty table.
  const deskEmpty =
    !claims.isPending &&
    !claims.isError &&
    rows.length === 0 &&
    !filtersActive &&
    search.status === undefined &&
    search.assignee === undefined;

  return (
    <Page
      title={title}
      actions={
        <button type="button" className="button button-link" onClick={() => setHelpOpen(true)}>
          Keyboard shortcuts <kbd>?</kbd>
        </button>
      }
    >
      <AssigneeViews search={search} />
      <StatusTabs search={search} counts={firstPage?.counts} internal={internal} />
      <Filters key={JSON.stringify(search)} search={search} onApply={apply} searchInputRef={searchInputRef} />
      <div className="toolbar">
        <ColumnChooser table={table} />
        <div className="field field-inline">
          <label htmlFor={sizeId}>Rows per page</label>
          <select
            id={sizeId}
            value={pageSize}
            onChange={(e) =>
              apply(
                compact({
                  ...search,
                  size: Number(e.target.value) === DEFAULT_PAGE_SIZE ? undefined : Number(e.target.value),
                }),
              )
            }
          >
            {[...new Set<number>([...PAGE_SIZES, pageSize])]
              .sort((a, b) => a - b)
              .map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
          </select>
        </div>
        <CsvExport search={search} />
      </div>
      {claims.isError ? (
        <Alert>
          The claims could not be loaded: {claims.error.message}{' '}
          <button type="button" className="button button-link" onClick={() => void claims.refetch()}>
            Try again
          </button>
        </Alert>
      ) : null}
      <p role="status" className="muted">
        {claims.isPending
          ? 'Loading claims…'
          : `Showing ${pluralize(rows.length, 'claim')}${filtersActive ? ' matching the filters' : ''}${claims.hasNextPage ? '; more are available' : ''}.`}
        {!claims.isPending && search.q && match ? ` Search: ${MATCH_WORDS[match]}.` : ''}
      </p>
      {mayBulk ? <BulkStatusBar selected={selectedRows} onClear={() => setSelection(new Set())} /> : null}
      {deskEmpty ? (
        <FirstRunGuide />
      ) : (
        <div className="table-wrap">
          <table ref={tableRef} className="claims-table" onKeyDown={onTableKey} aria-describedby="queue-keys">
            <caption className="visually-hidden">Claims, {SORT_WORDS[sort][order]}</caption>
            <thead>
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {mayBulk ? (
                    <th scope="col" className="select-cell">
                      <input
                        type="checkbox"
                        aria-label="Select all claims on this page"
                        checked={allSelected}
                        disabled={rows.length === 0}
                        ref={(el) => {
                          if (el) el.indeterminate = selectedRows.length > 0 && !allSelected;
                        }}
                        onChange={(e) => setSelection(e.target.checked ? new Set(rows.map((r) => r.id)) : new Set())}
                      />
                    </th>
                  ) : null}
                  {group.headers.map((header) => {
                    const sorted = header.column.getIsSorted();
                    const columnSort = SORT_OF_COLUMN[header.column.id];
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                      >
                        {header.column.getCanSort() && columnSort ? (
                          <button
                            type="button"
                            className="sort-button"
                            onClick={header.column.getToggleSortingHandler()}
                          >
                            <table.FlexRender header={header} />
                            <span aria-hidden="true">{sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ' ↕'}</span>
                            <span className="visually-hidden">
                              {sorted
                                ? `, ${SORT_WORDS[columnSort][sorted]}: show ${SORT_WORDS[columnSort][sorted === 'asc' ? 'desc' : 'asc']}`
                                : `: sort, ${SORT_WORDS[columnSort].desc}`}
                            </span>
                          </button>
                        ) : (
                          <table.FlexRender header={header} />
                        )}
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody>
              {table.getRowModel().rows.map((row) => (
                <tr key={row.id} className={selection.has(row.id) ? 'row-selected' : undefined}>
                  {mayBulk ? (
                    <td className="select-cell">
                      <input
                        type="checkbox"
                        aria-label={`Select claim #${row.original.claimNumber}`}
                        checked={selection.has(row.id)}
                        onChange={(e) => toggle(row.id, e.target.checked)}
                      />
                    </td>
                  ) : null}
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id}>
                      <table.FlexRender cell={cell} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p id="queue-keys" className="hint">
        Press j or k to move between claims, Enter to open one, ? for all shortcuts.
      </p>
      {!claims.isPending && rows.length === 0 && !claims.isError && !deskEmpty ? (
        <p className="empty">No claims match these filters.</p>
      ) : null}
      {claims.hasNextPage ? (
        <button
          type="button"
          className="button button-secondary load-more"
          onClick={() => void claims.fetchNextPage()}
          disabled={claims.isFetchingNextPage}
        >
          {claims.isFetchingNextPage ? 'Loading more…' : 'Load more'}
        </button>
      ) : null}
      <SavedViews search={search} />
      <HelpDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
    </Page>
  );
}
