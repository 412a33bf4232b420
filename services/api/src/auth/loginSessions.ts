import { sql } from 'kysely';
import type { FastifyRequest } from 'fastify';
import { queryNamed } from '@claims/event-store';
import type { AppContext } from '../context.js';
import { randomSecret, sha256 } from '../platform/secrets.js';
import { grantsOf, rolesJsonOf, type RoleRow, type UserPrincipal } from '../http/principal.js';

/**
 * Over HTTPS (or in production) the cookie is `__Host-session` with `Secure`: the browser keeps it to
 * this exact host, so a sibling subdomain cannot plant a session of its own; plain `session` otherwise
 * (`make dev` on http://127.0.0.1). Behind a proxy the scheme is the proxy's (TRUST_PROXY).
 */
const SECURE_SESSION_COOKIE = '__Host-session';
const PLAIN_SESSION_COOKIE = 'session';
/** A session lasts 12 hours from sign-in (decision: a working day; sign in again the next). */
export const SESSION_TTL_SECONDS = 12 * 60 * 60;

/** Reads one cookie from the Cookie header (no cookie plugin needed for one value). */
export function cookieValue(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() !== name) continue;
    const value = part.slice(index + 1).trim();
    try {
      return decodeURIComponent(value) || null;
    } catch {
      return null;
    }
  }
  return null;
}

const secureContext = (ctx: AppContext, request: FastifyRequest) =>
  ctx.config.production || request.protocol === 'https';

/** The session cookie's name for this request; only that one is read, so a plain `session` never counts over HTTPS. */
export const sessionCookieName = (ctx: AppContext, request: FastifyRequest): string =>
  secureContext(ctx, request) ? SECURE_SESSION_COOKIE : PLAIN_SESSION_COOKIE;

const cookieAttributes = (ctx: AppContext, request: FastifyRequest, maxAge: number) =>
  `Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secureContext(ctx, request) ? '; Secure' : ''}`;

export const sessionCookie = (ctx: AppContext, request: FastifyRequest, token: string): string =>
  `${sessionCookieName(ctx, request)}=${token}; ${cookieAttributes(ctx, request, SESSION_TTL_SECONDS)}`;

export const clearedSessionCookie = (ctx: AppContext, request: FastifyRequest): string =>
  `${sessionCookieName(ctx, request)}=; ${cookieAttributes(ctx, request, 0)}`;

/** Starts a session; only the SHA-256 of the cookie value is stored. The user's expired sessions go. */
export async function createSession(ctx: AppContext, userId: string, userAgent: string | undefined): Promise<string> {
  const token = randomSecret(32);
  const now = ctx.now();
  await sql`delete from auth_sessions where user_id = ${userId}::uuid and expires_at <= ${now}::timestamptz`.execute(
    ctx.database.db,
  );
  const expiresAt = new Date(Date.parse(now) + SESSION_TTL_SECONDS * 1000).toISOString();
  await sql`
    insert into auth_sessions (token_hash, user_id, created_at, expires_at, user_agent)
    values (${sha256(token)}, ${userId}::uuid, ${now}::timestamptz, ${expiresAt}::timestamptz, ${userAgent?.slice(0, 300) ?? null})`.execute(
    ctx.database.db,
  );
  return token;
}

export async function deleteSession(ctx: AppContext, sessionHash: string): Promise<void> {
  await sql`delete from auth_sessions where token_hash = ${sessionHash}`.execute(ctx.database.db);
}

/** The signed-in user of a session cookie, or null when it is unknown, expired or the user disabled. */
const SESSION_PRINCIPAL = `
  select u.id, u.email, u.name, ${rolesJsonOf('u.id')} as roles
  from auth_sessions s join users u on u.id = s.user_id
  where s.token_hash = $1 and s.expires_at > $2::timestamptz and u.disabled_at is null`;

export async function findSessionPrincipal(ctx: AppContext, token: string): Promise<UserPrincipal | null> {
  const sessionHash = sha256(token);
  // Every back-office request: the user and their grants in one named statement (one round trip, planned once per connection).
  const [row] = await queryNamed<{ id: string; email: string; name: string; roles: RoleRow[] }>(
    ctx.database.db,
    'session_principal',
    SESSION_PRINCIPAL,
    [sessionHash, ctx.now()],
  );
  if (!row) return null;
  const { roles, ...user } = row;
  return { kind: 'user', user, sessionHash, grants: grantsOf(roles) };
}

/** Drops every expired session (the sweep). */
export async function deleteExpiredSessions(ctx: AppContext): Promise<number> {
  const { rows } = await sql<{ token_hash: string }>`
    delete from auth_sessions where expires_at <= ${ctx.now()}::timestamptz returning token_hash`.execute(
    ctx.database.db,
  );
  return rows.length;
}
