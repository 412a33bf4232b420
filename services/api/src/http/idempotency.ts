import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { AppError } from '../platform/errors.js';
import { SAFE_METHODS } from './origin.js';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: { tokenId: string; key: string } | null;
  }
}

/** Keys are remembered this long; a repeat after that is a new request. */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;
/** Webhook signing secrets (`whsec_…`) are shown once: a stored answer keeps only this in their place. */
export const REDACTED_SECRET = 'whsec_…redacted';
const SECRET = /whsec_[A-Za-z0-9+/=_-]+/g;

/** A key waits this long for a concurrent first request with the same key to finish. */
const WAIT_FOR_FIRST_MS = 10_000;
/** A first request that never finished (process died) stops holding its key after this long. */
const ABANDONED_AFTER_SECONDS = 60;

const requestHash = (request: FastifyRequest): string =>
  createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');

interface KeyRow {
  request_hash: string;
  status_code: number | null;
  content_type: string | null;
  response_body: string | null;
  abandoned: boolean;
}

/**
 * Contract: every `/api/v1` request may carry `Idempotency-Key`. The first answer to a key (per
 * token) is stored; a repeat with the same method, path and body gets it again (header
 * `idempotent-replayed: true`), another request under the same key gets 422. 5xx answers are not
 * kept, so they may be retried. Secrets in an answer are not kept either: a replay carries
 * `REDACTED_SECRET` where the first answer had the secret.
 */
export function installIdempotency(ctx: AppContext, app: FastifyInstance): void {
  app.decorateRequest('idempotency', null);

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers['idempotency-key'];
    if (key === undefined || SAFE_METHODS.has(request.method)) return;
    if (typeof key !== 'string' || key.length < 1 || key.length > 255) {
      throw new AppError('validation_failed', 'Idempotency-Key must be one value of 1 to 255 characters.');
    }
    const principal = request.requirePrincipal();
    if (principal.kind !== 'token') return;
    const tokenId = principal.token.id;
    const hash = requestHash(request);
    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    for (;;) {
      const inserted = await sql<{ key: string }>`
        insert into idempotency_keys (token_id, key, request_hash, created_at) values (${tokenId}::uuid, ${key}, ${hash}, ${ctx.now()}::timestamptz)
        on conflict (token_id, key) do nothing returning key`.execute(ctx.database.db);
      if (inserted.rows.length > 0) {
        request.idempotency = { tokenId, key };
        return;
      }
      const { rows } = await sql<KeyRow>`
        select request_hash, status_code, content_type, response_body,
               completed_at is null and created_at < ${ctx.now()}::timestamptz - ${ABANDONED_AFTER_SECONDS} * interval '1 second' as abandoned
        from idempotency_keys where token_id = ${tokenId}::uuid and key = ${key}`.execute(ctx.database.db);
      const row = rows[0];
      if (!row) continue;
      if (row.request_hash !== hash) {
        throw new AppError(
          'idempotency_key_reused',
          'This Idempotency-Key was used with another request; use a new key for a new request.',
        );
      }
      if (row.status_code !== null && row.response_body !== null) {
        return reply
          .code(row.status_code)
          .header('content-type', row.content_type ?? 'application/json; charset=utf-8')
          .header('idempotent-replayed', 'true')
          .send(row.response_body);
      }
      if (row.abandoned) {
        await sql`delete from idempotency_keys where token_id = ${tokenId}::uuid and key = ${key} and completed_at is null`.execute(
          ctx.database.db,
        );
        continue;
      }
      if (Date.now() > deadline) {
        throw new AppError(
          'version_conflict',
          'A request with this Idempotency-Key is still being processed; retry shortly.',
        );
      }
      await sleep(50);
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const held = request.idempotency;
    if (!held) return payload;
    request.idempotency = null;
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await sql`delete from idempotency_keys where token_id = ${held.tokenId}::uuid and key = ${held.key}`.execute(
        ctx.database.db,
      );
      return payload;
    }
    const contentType = reply.getHeader('content-type');
    await sql`
      update idempotency_keys set status_code = ${reply.statusCode}, content_type = ${typeof contentType === 'string' ? contentType : null},
        response_body = ${payload.replace(SECRET, REDACTED_SECRET)}, completed_at = ${ctx.now()}::timestamptz
      where token_id = ${held.tokenId}::uuid and key = ${held.key}`.execute(ctx.database.db);
    return payload;
  });
}

/** Forgets keys older than `IDEMPOTENCY_KEY_TTL_HOURS` (with their stored answers); returns how many. */
export async function expireIdempotencyKeys(ctx: AppContext, now: string): Promise<number> {
  const { rows } = await sql<{ key: string }>`
    delete from idempotency_keys where created_at < ${now}::timestamptz - ${IDEMPOTENCY_KEY_TTL_HOURS} * interval '1 hour'
    returning key`.execute(ctx.database.db);
  return rows.length;
}
