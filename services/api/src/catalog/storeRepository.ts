import { randomUUID } from 'node:crypto';
import { sql, type QueryExecutorProvider } from 'kysely';
import { Store, type Branding, type StoreRef, type StoreSettings } from '@claims/contracts';

export interface StoreRow {
  id: string;
  account_id: string;
  slug: string;
  name: string;
  domain: string | null;
  currency: string;
  settings: unknown;
  branding: unknown;
}

export const toStore = (row: StoreRow): Store =>
  Store.parse({
    id: row.id,
    accountId: row.account_id,
    slug: row.slug,
    name: row.name,
    domain: row.domain,
    currency: row.currency,
    settings: row.settings,
    branding: row.branding,
  });

export async function findStore(db: QueryExecutorProvider, id: string): Promise<Store | null> {
  const { rows } = await sql<StoreRow>`select * from stores where id = ${id}::uuid`.execute(db);
  return rows[0] ? toStore(rows[0]) : null;
}

/** Several stores in one query (a batch of events about many claims), by id; an unknown id is absent. */
export async function findStores(db: QueryExecutorProvider, ids: Iterable<string>): Promise<Map<string, Store>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const { rows } = await sql<StoreRow>`select * from stores where id = any(${wanted}::uuid[])`.execute(db);
  return new Map(rows.map((row) => [row.id, toStore(row)]));
}

export async function findStoreBySlugOrDomain(
  db: QueryExecutorProvider,
  key: { slug?: string | undefined; domain?: string | undefined },
): Promise<Store | null> {
  const { rows } = await sql<StoreRow>`
    select * from stores where (${key.slug ?? null}::text is not null and (slug = ${key.slug ?? null} or id::text = ${key.slug ?? null}))
       or (${key.domain ?? null}::text is not null and domain = lower(${key.domain ?? null}))
    limit 1`.execute(db);
  return rows[0] ? toStore(rows[0]) : null;
}

export async function upsertAccount(db: QueryExecutorProvider, slug: string, name: string): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    insert into accounts (id, slug, name) values (${randomUUID()}, ${slug}, ${name})
    on conflict (slug) do update set name = excluded.name returning id`.execute(db);
  return rows[0]!.id;
}

/**
 * Creates a store with its first settings, branding and domain, or refreshes an existing store's facts. An
 * existing store's settings, branding and domain are never touched here: they change through their streams only.
 */
export async function upsertStore(
  db: QueryExecutorProvider,
  store: {
    accountId: string;
    slug: string;
    name: string;
    domain: string | null;
    currency: string;
    settings: StoreSettings;
    branding: Branding;
  },
): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    insert into stores (id, account_id, slug, name, domain, currency, settings, branding)
    values (${randomUUID()}, ${store.accountId}, ${store.slug}, ${store.name}, ${store.domain?.toLowerCase() ?? null}, ${store.currency},
            ${JSON.stringify(store.settings)}::jsonb, ${JSON.stringify(store.branding)}::jsonb)
    on conflict (slug) do update set account_id = excluded.account_id, name = excluded.name, currency = excluded.currency
    returning id`.execute(db);
  return rows[0]!.id;
}

/**
 * The store's current settings, as its settings stream folds them: written only in the transaction
 * that appends a version, so every reader of the store sees a change the moment it commits.
 */
export async function writeStoreSettings(
  db: QueryExecutorProvider,
  storeId: string,
  settings: StoreSettings,
): Promise<void> {
  await sql`update stores set settings = ${JSON.stringify(settings)}::jsonb where id = ${storeId}::uuid`.execute(db);
}

/** Every store's id, slug and name, for labelling claims of several stores. */
export async function storeRefs(db: QueryExecutorProvider): Promise<Map<string, StoreRef>> {
  const { rows } = await sql<StoreRef>`select id, slug, name from stores`.execute(db);
  return new Map(rows.map((row) => [row.id, row]));
}

/** Every store with its settings (the SLA sweep reads their timers). */
export async function listStores(db: QueryExecutorProvider): Promise<Store[]> {
  const { rows } = await sql<StoreRow>`select * from stores order by id`.execute(db);
  return rows.map(toStore);
}
