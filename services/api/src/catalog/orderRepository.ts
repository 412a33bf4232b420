import { randomUUID } from 'node:crypto';
import { sql, type QueryExecutorProvider } from 'kysely';
import { Order, toMinor, type OrderInput, type Store } from '@claims/contracts';
import { queryNamed } from '@claims/event-store';
import { toStore, type StoreRow } from './storeRepository.js';

/** The order number as typed by a shopper: trimmed, without a leading '#'. */
export const normaliseOrderNumber = (value: string): string => value.trim().replace(/^#+/, '').trim();

/** Converts the merchant's decimal order into the domain's minor units. */
export function orderFromInput(id: string, storeId: string, sourceOrderId: string, input: OrderInput): Order {
  const minor = (value: number) => toMinor(value, input.currency);
  return Order.parse({
    ...input,
    id,
    storeId,
    sourceOrderId,
    orderNumber: normaliseOrderNumber(input.orderNumber),
    policy: input.policy && {
      insuredAmount: toMinor(input.policy.insuredAmount, input.policy.premiumCurrency),
      premiumPaid: toMinor(input.policy.premiumPaid, input.policy.premiumCurrency),
      premiumCurrency: input.policy.premiumCurrency,
      removedAt: input.policy.removedAt ?? null,
    },
    shippingCost: minor(input.shippingCost),
    shippingCostTax: minor(input.shippingCostTax),
    tax: minor(input.tax),
    items: input.items.map((item) => ({
      ...item,
      price: minor(item.price),
      tax: minor(item.tax),
      discount: minor(item.discount),
    })),
  });
}

/** A store's order as its platform names it. */
export interface OrderKey {
  storeId: string;
  sourceOrderId: string;
}

export const orderKeyOf = ({ storeId, sourceOrderId }: OrderKey) => `${storeId} ${sourceOrderId}`;

/** The system id stored under each of these keys (undefined for an order not stored yet), read in one statement. */
export async function storedOrderIds(
  db: QueryExecutorProvider,
  keys: readonly OrderKey[],
): Promise<(key: OrderKey) => string | undefined> {
  const { rows } = await sql<{ id: string; store_id: string; source_order_id: string }>`
    select id, store_id::text as store_id, source_order_id from orders
    where (store_id, source_order_id) in (
      select * from unnest(${keys.map((k) => k.storeId)}::uuid[], ${keys.map((k) => k.sourceOrderId)}::text[]))`.execute(
    db,
  );
  const ids = new Map(rows.map((r) => [orderKeyOf({ storeId: r.store_id, sourceOrderId: r.source_order_id }), r.id]));
  return (key) => ids.get(orderKeyOf(key));
}

/** Creates or replaces orders (of distinct keys) in one statement; the system id stays the same across replacements. */
export async function saveOrders(db: QueryExecutorProvider, orders: readonly Order[]): Promise<void> {
  if (orders.length === 0) return;
  await sql`
    insert into orders (id, store_id, source_order_id, order_number, customer_email_lower, doc)
    select * from unnest(${orders.map((o) => o.id)}::uuid[], ${orders.map((o) => o.storeId)}::uuid[],
      ${orders.map((o) => o.sourceOrderId)}::text[], ${orders.map((o) => o.orderNumber)}::text[],
      ${orders.map((o) => o.customerEmail.toLowerCase())}::text[], ${orders.map((o) => JSON.stringify(o))}::jsonb[])
    on conflict (store_id, source_order_id) do update set order_number = excluded.order_number,
      customer_email_lower = excluded.customer_email_lower, doc = excluded.doc, updated_at = now()`.execute(db);
}

/** Creates or replaces a store's order by its source id; `created` says which it was. */
export async function upsertOrderReporting(
  db: QueryExecutorProvider,
  storeId: string,
  sourceOrderId: string,
  input: OrderInput,
): Promise<{ order: Order; created: boolean }> {
  const id = (await storedOrderIds(db, [{ storeId, sourceOrderId }]))({ storeId, sourceOrderId });
  const order = orderFromInput(id ?? randomUUID(), storeId, sourceOrderId, input);
  await saveOrders(db, [order]);
  return { order, created: id === undefined };
}

export async function upsertOrder(
  db: QueryExecutorProvider,
  storeId: string,
  sourceOrderId: string,
  input: OrderInput,
): Promise<Order> {
  return (await upsertOrderReporting(db, storeId, sourceOrderId, input)).order;
}

async function findOne(
  db: QueryExecutorProvider,
  query: ReturnType<typeof sql<{ doc: unknown }>>,
): Promise<Order | null> {
  const { rows } = await query.execute(db);
  return rows[0] ? Order.parse(rows[0].doc) : null;
}

export const findOrderByNumberAndEmail = (db: QueryExecutorProvider, orderNumber: string, email: string) =>
  findOne(
    db,
    sql<{ doc: unknown }>`
    select doc from orders where order_number = ${normaliseOrderNumber(orderNumber)} and customer_email_lower = ${email.trim().toLowerCase()}
      and store_id in (select id from stores where active)
    order by updated_at desc limit 1`,
  );

export const findOrderBySourceIdAndEmail = (db: QueryExecutorProvider, sourceOrderId: string, email: string) =>
  findOne(
    db,
    sql<{ doc: unknown }>`
    select doc from orders where source_order_id = ${sourceOrderId} and customer_email_lower = ${email.trim().toLowerCase()}
      and store_id in (select id from stores where active) limit 1`,
  );

/** Exported so the command-ceiling experiment's bare route sends the very statement a filing does. */
export const FILING_TARGET = `
  select o.doc, s.id, s.account_id, s.slug, s.name, s.domain, s.currency, s.settings, s.branding
  from orders o join stores s on s.id = o.store_id
  where o.source_order_id = $1 and o.customer_email_lower = $2 and s.active
  limit 1`;

/**
 * The order a shopper files on (by its source id and their email, in an active store) with its store:
 * one named statement, as every filing starts with it.
 */
export async function findFilingTarget(
  db: QueryExecutorProvider,
  sourceOrderId: string,
  email: string,
): Promise<{ order: Order; store: Store } | null> {
  const [row] = await queryNamed<StoreRow & { doc: unknown }>(db, 'filing_target', FILING_TARGET, [
    sourceOrderId,
    email.trim().toLowerCase(),
  ]);
  if (!row) return null;
  const { doc, ...store } = row;
  return { order: Order.parse(doc), store: toStore(store) };
}

export const findOrderById = (db: QueryExecutorProvider, id: string) =>
  findOne(db, sql<{ doc: unknown }>`select doc from orders where id = ${id}::uuid`);

/** Claim numbers are short and shared across stores, drawn from one sequence (docs/product.md#claim-numbers-and-links: "#10001"). */
export async function nextClaimNumber(db: QueryExecutorProvider): Promise<string> {
  const { rows } = await sql<{ n: string }>`select nextval('claim_number_seq')::text as n`.execute(db);
  return rows[0]!.n;
}

/** Protected orders placed in `[from, to)`, of some stores or all (`storeIds` null): the denominator of the claim rate. */
export async function countProtectedOrders(
  db: QueryExecutorProvider,
  filter: { storeIds: readonly string[] | null; from: string; to: string },
): Promise<number> {
  const storeIds = filter.storeIds ? [...filter.storeIds] : null;
  const { rows } = await sql<{ n: string }>`
    select count(*) as n from orders
    where (doc->>'protected')::boolean
      and (doc->>'createdAt')::timestamptz >= ${filter.from}::timestamptz and (doc->>'createdAt')::timestamptz < ${filter.to}::timestamptz
      and (${storeIds}::uuid[] is null or store_id = any(${storeIds}::uuid[]))`.execute(db);
  return Number(rows[0]!.n);
}
