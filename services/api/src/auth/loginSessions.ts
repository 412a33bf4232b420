import { sql } from 'kysely';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { randomSecret, sha256 } from './passwords.js';
import { loadGrants, type UserPrincipal } from './principal.js';

export const SESSION_COOKIE = 'session';
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

const secureFlag = (request: FastifyRequest) => (request.protocol === 'https' ? '; Secure' : '');

export const sessionCookie = (request: FastifyRequest, token: string): string =>
  `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_TTL_SECONDS}${secureFlag(request)}`;

export const clearedSessionCookie = (request: FastifyRequest): string =>
  `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secureFlag(request)}`;

/** Starts a session; only the SHA-256 of the cookie value is stored. */
export async function createSession(ctx: AppContext, userId: string, userAgent: string | undefined): Promise<string> {
  const token = randomSecret(32);
  const now = ctx.now();
  const expiresAt = new Date(Date.parse(now) + SESSION_TTL_SECONDS * 1000).toISOString();
  await sql`
    insert into auth_sessions (token_hash, user_id, created_at, expires_at, user_agent)
    values (${sha256(token)}, ${userId}::uuid, ${now}::timestamptz, ${expiresAt}::timestamptz, ${userAgent?.slice(0, 300) ?? null})`.execute(ctx.database.db);
  return token;
}

export async function deleteSession(ctx: AppContext, sessionHash: string): Promise<void> {
  await sql`delete from auth_sessions where token_hash = ${sessionHash}`.execute(ctx.database.db);
}

/** The signed-in user of a session cookie, or null when it is unknown, expired or the user disabled. */
export async function findSessionPrincipal(ctx: AppContext, token: string): Promise<UserPrincipal | null> {
  const sessionHash = sha256(token);
  const { rows } = await sql<{ id: string; email: string; name: string }>`
    select u.id, u.email, u.name from auth_sessions s join users u on u.id = s.user_id
    where s.token_hash = ${sessionHash} and s.expires_at > ${ctx.now()}::timestamptz and u.disabled_at is null`.execute(ctx.database.db);
  const user = rows[0];
  if (!user) return null;
  return { kind: 'user', user, sessionHash, grants: await loadGrants(ctx.database.db, user.id) };
}
