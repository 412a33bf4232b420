import { randomUUID } from 'node:crypto';
import { sql, type QueryExecutorProvider } from 'kysely';
import { queryNamed } from '@claims/event-store';
import { ApiTokenSummary, isPermission, type Permission } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { groupCommitPer } from '../eventsourcing/groupCommit.js';
import { randomSecret, sha256 } from '../platform/secrets.js';
import { grantedAt, grantsOf, rolesJsonOf, type RoleRow, type TokenPrincipal } from '../http/principal.js';

/** Tokens read `opk_` + 256 random bits, so a leaked one is recognisable in logs and secret scanners. */
const TOKEN_PREFIX = 'opk_';

interface TokenRow {
  id: string;
  store_id: string;
  name: string;
  prefix: string;
  permissions: string[];
  created_by: string;
  creator_name: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  expires_at: Date | null;
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

const toSummary = (row: TokenRow): ApiTokenSummary =>
  ApiTokenSummary.parse({
    id: row.id,
    storeId: row.store_id,
    name: row.name,
    permissions: row.permissions,
    prefix: row.prefix,
    createdBy: { id: row.created_by, name: row.creator_name },
    createdAt: iso(row.created_at),
    lastUsedAt: iso(row.last_used_at),
    revokedAt: iso(row.revoked_at),
    expiresAt: iso(row.expires_at),
  });

export async function createApiToken(
  ctx: AppContext,
  input: { storeId: string; name: string; permissions: readonly Permission[]; createdBy: string; expiresAt: string },
): Promise<{ token: string; summary: ApiTokenSummary }> {
  const id = randomUUID();
  const token = `${TOKEN_PREFIX}${randomSecret(32)}`;
  await sql`
    insert into api_tokens (id, store_id, name, token_hash, prefix, permissions, created_by, created_at, expires_at)
    values (${id}::uuid, ${input.storeId}::uuid, ${input.name}, ${sha256(token)}, ${token.slice(0, 10)},
            ${JSON.stringify([...new Set(input.permissions)].sort())}::jsonb, ${input.createdBy}::uuid, ${ctx.now()}::timestamptz,
            ${input.expiresAt}::timestamptz)`.execute(ctx.database.db);
  const summary = await findApiToken(ctx.database.db, input.storeId, id);
  return { token, summary: summary! };
}

const selectTokens = sql`
  select t.id, t.store_id, t.name, t.prefix, t.permissions, t.created_by, u.name as creator_name, t.created_at, t.last_used_at, t.revoked_at, t.expires_at
  from api_tokens t join users u on u.id = t.created_by`;

export async function listApiTokens(db: QueryExecutorProvider, storeId: string): Promise<ApiTokenSummary[]> {
  const { rows } =
    await sql<TokenRow>`${selectTokens} where t.store_id = ${storeId}::uuid order by t.created_at desc, t.id`.execute(
      db,
    );
  return rows.map(toSummary);
}

export async function findApiToken(
  db: QueryExecutorProvider,
  storeId: string,
  id: string,
): Promise<ApiTokenSummary | null> {
  const { rows } =
    await sql<TokenRow>`${selectTokens} where t.store_id = ${storeId}::uuid and t.id::text = ${id}`.execute(db);
  return rows[0] ? toSummary(rows[0]) : null;
}

/** Revokes a token of the store; false when the store has no such token. Revoking twice keeps the first time. */
export async function revokeApiToken(ctx: AppContext, storeId: string, id: string): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    update api_tokens set revoked_at = coalesce(revoked_at, ${ctx.now()}::timestamptz)
    where store_id = ${storeId}::uuid and id::text = ${id} returning id`.execute(ctx.database.db);
  return rows.length > 0;
}

// "Last used" is written at most once a minute: one write per API call was a row update per request under load.
const TOKEN_PRINCIPALS = `
  with found as (
    select id, token_hash, name, store_id, permissions, created_by, last_used_at from api_tokens
    where token_hash = any($1::text[]) and revoked_at is null and (expires_at is null or expires_at > $2::timestamptz)
  ), touched as (
    update api_tokens set last_used_at = $2::timestamptz
    where id in (select id from found where last_used_at is null or last_used_at < $2::timestamptz - interval '1 minute')
  )
  select id, token_hash, name, store_id, permissions, ${rolesJsonOf('found.created_by')} as creator_roles from found`;

interface TokenPrincipalRow {
  id: string;
  token_hash: string;
  name: string;
  store_id: string;
  permissions: Permission[];
  creator_roles: RoleRow[];
}

/**
 * Every API call reads its token, touches its "last used" and reads its creator's grants in one named statement; the
 * calls arriving while one is read are read together in the next (one statement per group, not per call: a platform
 * sending orders at checkout peaks calls with one token from many connections). Each call's read starts after it
 * arrived, so a token revoked before a call is refused to it.
 */
const tokenLookup = groupCommitPer(async (ctx: AppContext, hashes: readonly string[]) => {
  const rows = await queryNamed<TokenPrincipalRow>(ctx.database.db, 'api_token_principals', TOKEN_PRINCIPALS, [
    [...new Set(hashes)],
    ctx.now(),
  ]);
  const byHash = new Map(rows.map((row) => [row.token_hash, row]));
  return hashes.map((hash) => byHash.get(hash));
});

/**
 * The principal of a bearer token, or null when it is unknown, revoked or expired. A token never
 * holds more than its creator does now: its permissions are cut to the creator's current grants on
 * the token's store, and a creator who no longer reaches the store leaves the token without any (401).
 */
export async function findTokenPrincipal(ctx: AppContext, token: string): Promise<TokenPrincipal | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
  const row = await tokenLookup(ctx, sha256(token));
  if (!row) return null;
  const creatorHolds = grantedAt(grantsOf(row.creator_roles), row.store_id);
  if (!creatorHolds) return null;
  const permissions = row.permissions.filter(isPermission).filter((p) => creatorHolds.has(p));
  return { kind: 'token', token: { id: row.id, name: row.name, storeId: row.store_id }, permissions };
}
