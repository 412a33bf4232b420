import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiError, LoginRequest, MeResponse } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { AppError } from '../platform/errors.js';
import { originMatches } from './origin.js';
import { DUMMY_HASH, verifyPassword } from './passwords.js';
import { clearedSessionCookie, createSession, deleteSession, findSessionPrincipal, sessionCookie } from './loginSessions.js';
import { describeUser, findUserByEmail } from './users.js';

/** After this many failures in a row an email is locked for LOCK_MINUTES (decision; docs/permissions.md). */
export const MAX_FAILURES = 5;
export const LOCK_MINUTES = 15;
/** Failures older than this no longer count. */
const FAILURE_WINDOW_MINUTES = 15;
/** Each failure answers a little later than the one before (100 ms, 200 ms, … up to 1.6 s). */
const failureDelayMs = (failures: number) => Math.min(1_600, 100 * 2 ** Math.max(0, failures - 1));

const minutesAfter = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();

async function lockedUntil(ctx: AppContext, emailLower: string): Promise<string | null> {
  const { rows } = await sql<{ locked_until: Date | null }>`
    select locked_until from login_attempts where email_lower = ${emailLower}`.execute(ctx.database.db);
  const until = rows[0]?.locked_until;
  return until && new Date(until).toISOString() > ctx.now() ? new Date(until).toISOString() : null;
}

async function recordFailure(ctx: AppContext, emailLower: string): Promise<number> {
  const now = ctx.now();
  const { rows } = await sql<{ failures: number }>`
    insert into login_attempts as a (email_lower, failures, last_failed_at) values (${emailLower}, 1, ${now}::timestamptz)
    on conflict (email_lower) do update set
      failures = case when a.last_failed_at < ${now}::timestamptz - ${FAILURE_WINDOW_MINUTES} * interval '1 minute' then 1 else a.failures + 1 end,
      last_failed_at = excluded.last_failed_at
    returning failures`.execute(ctx.database.db);
  const failures = rows[0]?.failures ?? 1;
  if (failures >= MAX_FAILURES) {
    await sql`update login_attempts set locked_until = ${minutesAfter(now, LOCK_MINUTES)}::timestamptz, failures = 0
      where email_lower = ${emailLower}`.execute(ctx.database.db);
  }
  return failures;
}

const tooMany = (until: string, now: string) => new AppError(
  'rate_limited',
  `Too many failed sign-ins for this email. Try again after ${until}.`,
  undefined,
  { 'retry-after': String(Math.max(1, Math.ceil((Date.parse(until) - Date.parse(now)) / 1000))) },
);

export const authRoutes = (ctx: AppContext): FastifyPluginAsyncZod => async (app) => {
  app.post('/api/auth/login', {
    schema: {
      tags: ['back-office'],
      summary: 'Sign in with email and password; sets the HttpOnly session cookie',
      body: LoginRequest,
      response: { 200: MeResponse, 400: ApiError, 401: ApiError, 403: ApiError, 429: ApiError },
    },
  }, async (request, reply) => {
    // Login CSRF: a browser always sends Origin on a POST; another site's form may not sign us in.
    if (request.headers.origin !== undefined && !originMatches(request)) {
      throw new AppError('origin_mismatch', 'Sign in from the back-office\'s own pages.');
    }
    const emailLower = request.body.email.trim().toLowerCase();
    const locked = await lockedUntil(ctx, emailLower);
    if (locked) throw tooMany(locked, ctx.now());
    const user = await findUserByEmail(ctx, emailLower);
    const matches = await verifyPassword(request.body.password, user?.password_hash ?? DUMMY_HASH);
    if (!user || !matches) {
      const failures = await recordFailure(ctx, emailLower);
      request.log.info({ failures }, 'sign-in failed');
      await sleep(failureDelayMs(failures));
      const nowLocked = await lockedUntil(ctx, emailLower);
      if (nowLocked) throw tooMany(nowLocked, ctx.now());
      throw new AppError('unauthenticated', 'The email or password is not right.');
    }
    await sql`delete from login_attempts where email_lower = ${emailLower}`.execute(ctx.database.db);
    const token = await createSession(ctx, user.id, request.headers['user-agent']);
    const principal = await findSessionPrincipal(ctx, token);
    request.log.info({ userId: user.id }, 'signed in');
    return reply.header('set-cookie', sessionCookie(request, token)).header('cache-control', 'no-store').send(await describeUser(ctx, principal!));
  });

  app.post('/api/auth/logout', {
    config: { auth: 'optional-user' },
    schema: { tags: ['back-office'], summary: 'Sign out: ends the session and clears the cookie', response: { 204: z.null(), 403: ApiError } },
  }, async (request, reply) => {
    const principal = request.principal;
    if (principal?.kind === 'user') await deleteSession(ctx, principal.sessionHash);
    return reply.code(204).header('set-cookie', clearedSessionCookie(request)).send(null);
  });

  app.get('/api/auth/me', {
    config: { auth: 'user' },
    schema: { tags: ['back-office'], summary: 'The signed-in user, their roles, permissions and stores', response: { 200: MeResponse, 401: ApiError } },
  }, async (request, reply) => {
    const principal = request.requirePrincipal();
    if (principal.kind !== 'user') throw new AppError('unauthenticated', 'Sign in to use the back-office.');
    return reply.header('cache-control', 'no-store').send(await describeUser(ctx, principal));
  });
};
