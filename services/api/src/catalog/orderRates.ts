import { sql, type QueryExecutorProvider } from 'kysely';

/** Each order's currency and exchange rate (order currency per unit of the store's), by order id. */
export async function orderRates(
  db: QueryExecutorProvider,
  orderIds: readonly string[],
): Promise<Map<string, { currency: string; exchangeRate: number }>> {
  if (orderIds.length === 0) return new Map();
  const { rows } = await sql<{ id: string; currency: string; exchange_rate: string }>`
    select id, doc->>'currency' as currency, doc->>'exchangeRate' as exchange_rate from orders where id = any(${[...orderIds]}::uuid[])`.execute(
    db,
  );
  return new Map(rows.map((r) => [r.id, { currency: r.currency, exchangeRate: Number(r.exchange_rate) }]));
}
