import { sql, type QueryExecutorProvider, type RawBuilder } from 'kysely';
import type { ClaimStatus, QueueCounts, QueueSort, RiskLevel, SearchMatch, SortOrder } from '@claims/contracts';
import type { ClaimListFilter, ClaimListRow } from '../claim-list/claimListQuery.js';
import { decodeQueueCursor, encodeQueueCursor, type QueueCursor } from './queueCursor.js';
import { SEARCH_ORDER, searchClaims, searchedCondition, type SearchedClaims } from './queueSearch.js';

/** A queue row: the claim list's row with who works it and what the customer last did. */
export interface QueueRow extends ClaimListRow {
  assignee_id: string | null;
  assignee_name: string | null;
  customer_activity_at: Date;
  customer_replied: boolean;
}

export type AssigneeCondition = { kind: 'user'; id: string } | { kind: 'none' };

/** The claim list's filter, with who works the claim and the queue's server-side sorts. */
export interface QueueFilter extends ClaimListFilter {
  assignee?: AssigneeCondition | undefined;
  riskLevel?: RiskLevel | undefined;
  sort: QueueSort;
  order: SortOrder;
}

export interface QueuePage {
  rows: QueueRow[];
  nextCursor: string | null;
  match: SearchMatch | null;
  /** What the search found (the tab counts count the same claims); null without a search or when it found nothing. */
  searched: SearchedClaims | null;
}

/** The status tabs count at most this many claims when a filter the count table does not keep is on. */
export const LIVE_COUNT_CAP = 10_000;

const SORT_KEY: Record<QueueSort, { expression: RawBuilder<unknown>; type: RawBuilder<unknown> }> = {
  filed: { expression: sql`c.created_at`, type: sql`timestamptz` },
  value: { expression: sql`c.claimed_value`, type: sql`bigint` },
  reply: { expression: sql`a.customer_activity_at`, type: sql`timestamptz` },
};

const keyOf = (row: QueueRow, sort: QueueSort): string =>
  sort === 'value'
    ? String(row.claimed_value)
    : new Date(sort === 'filed' ? row.created_at : row.customer_activity_at).toISOString();

/** Every filter but the status and the search (what the tab counts share with the page). */
function filterConditions(filter: Omit<QueueFilter, 'sort' | 'order' | 'limit'>): RawBuilder<unknown>[] {
  const conditions: RawBuilder<unknown>[] = [sql`true`];
  if (filter.storeIds) conditions.push(sql`c.store_id = any(${[...filter.storeIds]}::uuid[])`);
  if (filter.claimType === 'MULTIPLE') conditions.push(sql`c.claim_type = 'MULTIPLE'`);
  else if (filter.claimType) {
    // A claim of several types is MULTIPLE: it matches when any of its items has the type.
    conditions.push(sql`(c.claim_type = ${filter.claimType} or (c.claim_type = 'MULTIPLE' and exists (
      select 1 from claim_search s where s.claim_id = c.claim_id and s.item_types @> array[${filter.claimType}]::text[])))`);
  }
  if (filter.protectionStatus) conditions.push(sql`c.protection_status = ${filter.protectionStatus}`);
  if (filter.createdFrom) conditions.push(sql`c.created_at >= ${filter.createdFrom}`);
  if (filter.createdTo) conditions.push(sql`c.created_at < ${filter.createdTo}`);
  if (filter.assignee?.kind === 'user') conditions.push(sql`a.assignee_id = ${filter.assignee.id}::uuid`);
  if (filter.assignee?.kind === 'none') conditions.push(sql`a.assignee_id is null`);
  if (filter.riskLevel) conditions.push(sql`c.risk_level = ${filter.riskLevel}`);
  return conditions;
}

async function page(
  db: QueryExecutorProvider,
  filter: QueueFilter,
  match: SearchMatch | null,
  searched: SearchedClaims | null,
  after: QueueCursor | null,
): Promise<QueuePage> {
  const key = SORT_KEY[filter.sort];
  const conditions = filterConditions(filter);
  if (filter.status?.length) conditions.push(sql`c.status = any(${[...filter.status]}::text[])`);
  if (searched) conditions.push(searchedCondition(searched));
  if (after) {
    const at = sql`(${after.key}::${key.type}, ${after.id}::uuid)`;
    conditions.push(
      filter.order === 'desc'
        ? sql`(${key.expression}, c.claim_id) < ${at}`
        : sql`(${key.expression}, c.claim_id) > ${at}`,
    );
  }
  const direction = filter.order === 'desc' ? sql`desc` : sql`asc`;
  // Sorting by the customer's last word walks claim_assignment's index, so that side must be there (it is, a moment after filing).
  const join = filter.sort === 'reply' ? sql`join` : sql`left join`;
  const { rows } = await sql<QueueRow>`
    select c.*, a.assignee_id, a.assignee_name,
      coalesce(a.customer_activity_at, c.created_at) as customer_activity_at, coalesce(a.customer_replied, false) as customer_replied
    from claim_list c ${join} claim_assignment a on a.claim_id = c.claim_id
    where ${sql.join(conditions, sql` and `)}
    order by ${key.expression} ${direction}, c.claim_id ${direction}
    limit ${filter.limit + 1}`.execute(db);
  const shown = rows.slice(0, filter.limit);
  const last = shown.at(-1);
  const nextCursor =
    rows.length > filter.limit && last
      ? encodeQueueCursor({
          sort: filter.sort,
          order: filter.order,
          match,
          key: keyOf(last, filter.sort),
          id: last.claim_id,
        })
      : null;
  return { rows: shown, nextCursor, match, searched };
}

/**
 * One page of the claim queue, sorted on the server by filing time, claimed value or the customer's
 * last word, either way, by keyset (fast at any depth). A search tries exact numbers and emails, then
 * words contained anywhere, then near words (typos), and answers with the first kind that finds
 * anything; later pages keep that kind (it rides in the cursor). A search looks up the matching claim
 * ids in the search index first and then reads only those rows of the list (see searchClaims).
 */
export async function queueClaims(db: QueryExecutorProvider, filter: QueueFilter): Promise<QueuePage> {
  const after = filter.cursor ? decodeQueueCursor(filter.cursor, filter.sort, filter.order) : null;
  if (!filter.search) return page(db, filter, null, null, after);
  const tries = after ? (after.match ? [after.match] : []) : SEARCH_ORDER;
  for (const match of tries) {
    const searched = await searchClaims(db, filter.search, match, filter.storeIds);
    if (!searched) continue;
    const found = await page(db, filter, match, searched, after);
    if (found.rows.length > 0 || after) return found;
  }
  return { rows: [], nextCursor: null, match: null, searched: null };
}

/**
 * The status tabs' counts for the queue's filters but status. With no filter beyond store and assignee
 * they come from the count table (exact, a few rows per store); otherwise claims are counted live, at
 * most LIVE_COUNT_CAP of them (then `capped`, each figure a lower bound). A search's counts are of the
 * claims its page found (`searched`, the page's own), so the index is not read twice.
 */
export async function queueCounts(
  db: QueryExecutorProvider,
  filter: Omit<QueueFilter, 'status' | 'sort' | 'order' | 'cursor' | 'limit'>,
  searched: SearchedClaims | null,
): Promise<QueueCounts> {
  const plain =
    !filter.search &&
    !filter.claimType &&
    !filter.protectionStatus &&
    !filter.createdFrom &&
    !filter.createdTo &&
    !filter.riskLevel;
  let rows: Array<{ status: ClaimStatus; n: number }>;
  let capped = false;
  if (plain) {
    const conditions = [sql`claims > 0`];
    if (filter.storeIds) conditions.push(sql`store_id = any(${[...filter.storeIds]}::uuid[])`);
    if (filter.assignee?.kind === 'user') conditions.push(sql`assignee_id = ${filter.assignee.id}::uuid`);
    if (filter.assignee?.kind === 'none') conditions.push(sql`assignee_id is null`);
    ({ rows } = await sql<{ status: ClaimStatus; n: number }>`
      select status, sum(claims)::int as n from claim_queue_counts where ${sql.join(conditions, sql` and `)} group by status`.execute(
      db,
    ));
  } else {
    const conditions = filterConditions(filter);
    if (filter.search) {
      if (!searched) return { byStatus: {}, total: 0, capped: false };
      conditions.push(searchedCondition(searched));
    }
    ({ rows } = await sql<{ status: ClaimStatus; n: number }>`
      select status, count(*)::int as n from (
        select c.status from claim_list c left join claim_assignment a on a.claim_id = c.claim_id
        where ${sql.join(conditions, sql` and `)} limit ${LIVE_COUNT_CAP}) counted
      group by status`.execute(db));
    capped = rows.reduce((sum, r) => sum + Number(r.n), 0) >= LIVE_COUNT_CAP;
  }
  const byStatus: QueueCounts['byStatus'] = {};
  for (const row of rows) byStatus[row.status] = Number(row.n);
  return { byStatus, total: rows.reduce((sum, r) => sum + Number(r.n), 0), capped };
}
