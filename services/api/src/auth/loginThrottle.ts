import { sql } from 'kysely';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { LoginLimits } from '../config.js';
import { AppError } from '../platform/errors.js';
import { retryAfterSeconds } from '../platform/rateWindows.js';

/**
 * Sign-in throttling (docs/decisions/sign-in-throttling.md). Three counters per fixed window:
 * - (email, client): the lockout a guesser meets; it does not reach the same user on another network;
 * - client: one address guessing at many emails;
 * - email, across clients: a distributed guess at one account, high enough that locking a victim
 *   out needs many networks.
 * An attempt is counted before its password is checked, in one statement, so concurrent guesses are
 * all counted; a successful sign-in gives its attempt back.
 * Every other route that checks or hashes a password counts the same way before any scrypt: changing
 * one's password (the sign-in counters, a wrong current password is a failed sign-in) and accepting an
 * invitation (a counter per client of its own, docs/decisions/password-routes-throttled.md).
 */

interface Counter {
  key: string;
  limit: number;
}

/** The client as the rate limits see it: an IPv6 client is its /56, as in the portal's limits. */
export const clientOf = (request: FastifyRequest): string => normalizeIP(request.ip, 56);

function countersOf(limits: LoginLimits, emailLower: string, client: string): Counter[] {
  // Always in this order, so concurrent statements lock shared rows in the same order.
  return [
    { key: `pair:${client}:${emailLower}`, limit: limits.perEmailAndClient },
    { key: `client:${client}`, limit: limits.perClient },
    { key: `email:${emailLower}`, limit: limits.perEmail },
  ];
}

export interface CountedAttempt {
  /** Set when a limit was already used up before this attempt: refuse without checking the password. */
  refusedUntil: string | null;
  /** Set when this attempt used up a limit: a wrong password is answered 429 with this time. */
  lastUntil: string | null;
  /** This attempt's number for the (email, client) pair: it sets the failure delay. */
  pairAttempts: number;
}

/** Counts a sign-in attempt on every counter in one statement and says whether a limit is used up. */
export const countAttempt = (ctx: AppContext, emailLower: string, client: string): Promise<CountedAttempt> =>
  countOn(ctx, countersOf(ctx.config.loginLimits, emailLower, client));

/** A guess at an invitation's token, per client: as many as sign-in failures of one client. */
const invitationCounter = (limits: LoginLimits, client: string): Counter => ({
  key: `invitation:${client}`,
  limit: limits.perClient,
});

export const countInvitationAttempt = (ctx: AppContext, client: string): Promise<CountedAttempt> =>
  countOn(ctx, [invitationCounter(ctx.config.loginLimits, client)]);

/** An accepted invitation gives its attempt back. */
export async function forgetInvitationAttempt(ctx: AppContext, client: string): Promise<void> {
  await sql`update login_throttle set attempts = greatest(attempts - 1, 0) where key = ${invitationCounter(ctx.config.loginLimits, client).key}`.execute(
    ctx.database.db,
  );
}

/** 429 until the window that a used-up limit belongs to ends. */
export const tooManyAttempts = (what: string, until: string, now: string) =>
  new AppError('rate_limited', `Too many ${what}. Try again after ${until}.`, undefined, {
    'retry-after': String(retryAfterSeconds(until, now)),
  });

async function countOn(ctx: AppContext, counters: readonly Counter[]): Promise<CountedAttempt> {
  const limits = ctx.config.loginLimits;
  const now = ctx.now();
  const { rows } = await sql<{ key: string; attempts: number; window_started_at: Date }>`
    insert into login_throttle as t (key, attempts, window_started_at)
    select key, 1, ${now}::timestamptz from unnest(${counters.map((c) => c.key)}::text[]) with ordinality as k(key, n) order by n
    on conflict (key) do update set
      attempts = case when t.window_started_at <= ${now}::timestamptz - ${limits.windowMinutes} * interval '1 minute' then 1 else t.attempts + 1 end,
      window_started_at = case when t.window_started_at <= ${now}::timestamptz - ${limits.windowMinutes} * interval '1 minute'
        then excluded.window_started_at else t.window_started_at end
    returning key, attempts, window_started_at`.execute(ctx.database.db);
  let refusedUntil: string | null = null;
  let lastUntil: string | null = null;
  let pairAttempts = 1;
  for (const counter of counters) {
    const row = rows.find((r) => r.key === counter.key);
    if (!row) continue;
    if (counter.key.startsWith('pair:')) pairAttempts = row.attempts;
    const until = new Date(new Date(row.window_started_at).getTime() + limits.windowMinutes * 60_000).toISOString();
    if (row.attempts > counter.limit && (!refusedUntil || until > refusedUntil)) refusedUntil = until;
    if (row.attempts === counter.limit && (!lastUntil || until > lastUntil)) lastUntil = until;
  }
  return { refusedUntil, lastUntil, pairAttempts };
}

/** A successful sign-in: the pair starts afresh, and the client and email counters get the attempt back. */
export async function forgetAttempt(ctx: AppContext, emailLower: string, client: string): Promise<void> {
  const [pair, ...shared] = countersOf(ctx.config.loginLimits, emailLower, client);
  await sql`
    with gone as (delete from login_throttle where key = ${pair!.key})
    update login_throttle set attempts = greatest(attempts - 1, 0) where key = any(${shared.map((c) => c.key)}::text[])`.execute(
    ctx.database.db,
  );
}

/** Drops counters whose window has passed (the sweep). */
export async function deleteExpiredAttempts(ctx: AppContext): Promise<number> {
  const { rows } = await sql<{ key: string }>`
    delete from login_throttle where window_started_at <= ${ctx.now()}::timestamptz - ${ctx.config.loginLimits.windowMinutes} * interval '1 minute'
    returning key`.execute(ctx.database.db);
  return rows.length;
}
