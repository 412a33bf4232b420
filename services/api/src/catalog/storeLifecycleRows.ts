import { sql, type QueryExecutorProvider } from 'kysely';
import { NEW_STORE_SETTINGS, type AccountStore, type AccountView } from '@claims/contracts';
import { AppError } from '../platform/errors.js';

/** PostgreSQL's unique violation: a slug or domain another account or store holds. */
const isUniqueViolation = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'code' in error && (error as { code: unknown }).code === '23505';

async function unique<T>(what: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('already_exists', `${what} is taken: choose another.`);
    throw error;
  }
}

/** The account's row, written in the transaction that records its creation. */
export function insertAccount(
  db: QueryExecutorProvider,
  account: { id: string; slug: string; name: string },
): Promise<void> {
  return unique(`The account slug ${account.slug}`, async () => {
    await sql`insert into accounts (id, slug, name) values (${account.id}::uuid, ${account.slug}, ${account.name})`.execute(
      db,
    );
  });
}

/**
 * The store's row, written in the transaction that records its creation: inactive, with the settings
 * every new store starts with, so the portal, the desk and the deciders read it like any store.
 */
export function insertOnboardingStore(
  db: QueryExecutorProvider,
  store: {
    id: string;
    accountId: string;
    slug: string;
    name: string;
    domain: string | null;
    currency: string;
    createdAt: string;
  },
): Promise<void> {
  return unique(`The store slug ${store.slug}${store.domain ? ` or the domain ${store.domain}` : ''}`, async () => {
    await sql`
      insert into stores (id, account_id, slug, name, domain, currency, settings, branding, active, onboarded, created_at)
      values (${store.id}::uuid, ${store.accountId}::uuid, ${store.slug}, ${store.name}, ${store.domain}, ${store.currency},
              ${JSON.stringify(NEW_STORE_SETTINGS)}::jsonb, '{}'::jsonb, false, true, ${store.createdAt}::timestamptz)`.execute(
      db,
    );
  });
}

export async function markStoreActive(db: QueryExecutorProvider, storeId: string): Promise<void> {
  await sql`update stores set active = true where id = ${storeId}::uuid`.execute(db);
}

export async function accountExists(
  db: QueryExecutorProvider,
  accountId: string,
): Promise<{ id: string; name: string } | null> {
  const { rows } = await sql<{
    id: string;
    name: string;
  }>`select id, name from accounts where id = ${accountId}::uuid`.execute(db);
  return rows[0] ?? null;
}

/** The accounts (every one, or those of the given stores; or only the one asked) with their number of stores, by name. */
export async function listAccounts(
  db: QueryExecutorProvider,
  storeIds: readonly string[] | null,
  accountId: string | null = null,
): Promise<AccountView[]> {
  const { rows } = await sql<{ id: string; slug: string; name: string; store_count: string }>`
    select a.id, a.slug, a.name, count(s.id)::text as store_count
    from accounts a left join stores s on s.account_id = a.id
    where (${storeIds}::uuid[] is null or a.id in (select account_id from stores where id = any(${storeIds}::uuid[])))
      and (${accountId}::uuid is null or a.id = ${accountId}::uuid)
    group by a.id order by a.name, a.id`.execute(db);
  return rows.map((r) => ({ id: r.id, slug: r.slug, name: r.name, storeCount: Number(r.store_count) }));
}

/** The account's stores (every one, or those among the given stores), by name. */
export async function listAccountStores(
  db: QueryExecutorProvider,
  accountId: string,
  storeIds: readonly string[] | null,
): Promise<AccountStore[]> {
  const { rows } = await sql<{
    id: string;
    slug: string;
    name: string;
    domain: string | null;
    currency: string;
    active: boolean;
  }>`
    select id, slug, name, domain, currency, active from stores
    where account_id = ${accountId}::uuid and (${storeIds}::uuid[] is null or id = any(${storeIds}::uuid[]))
    order by name, id`.execute(db);
  return rows.map((r) => ({
    id: r.id,
    slug: r.slug,
    name: r.name,
    domain: r.domain,
    currency: r.currency,
    active: r.active,
  }));
}

/** The stores created in the back-office (newest first), with their account's name, or one of them. */
export async function onboardingStores(
  db: QueryExecutorProvider,
  storeId?: string,
): Promise<Array<{ id: string; slug: string; accountName: string }>> {
  const { rows } = await sql<{ id: string; slug: string; account_name: string }>`
    select s.id, s.slug, a.name as account_name from stores s join accounts a on a.id = s.account_id
    where s.onboarded and (${storeId ?? null}::uuid is null or s.id = ${storeId ?? null}::uuid)
    order by s.created_at desc, s.id`.execute(db);
  return rows.map((r) => ({ id: r.id, slug: r.slug, accountName: r.account_name }));
}
