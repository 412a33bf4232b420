import { createHmac, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from '../context.js';

const KEY_NAME = 'shopper-key';
const secrets = new WeakMap<object, Promise<string>>();

/**
 * The key of shoppers' email hashes: SHOPPER_KEY_SECRET, else one drawn at random for this installation on first use
 * and kept in its database (every process of it then hashes alike, and nobody outside can test an email against
 * the stored hashes).
 */
function secretOf(ctx: AppContext): Promise<string> {
  if (ctx.config.shopperKeySecret) return Promise.resolve(ctx.config.shopperKeySecret);
  let secret = secrets.get(ctx.database.db);
  if (!secret) {
    secret = (async () => {
      await sql`
        insert into installation_keys (name, secret) values (${KEY_NAME}, ${randomBytes(32).toString('base64url')})
        on conflict (name) do nothing`.execute(ctx.database.db);
      const { rows } = await sql<{ secret: string }>`
        select secret from installation_keys where name = ${KEY_NAME}`.execute(ctx.database.db);
      return rows[0]!.secret;
    })();
    secret.catch(() => secrets.delete(ctx.database.db));
    secrets.set(ctx.database.db, secret);
  }
  return secret;
}

/** The keyed hash (HMAC-SHA256, hex) of a shopper's trimmed, lower-cased email: links their claims, never names them. */
export async function shopperKeyOf(ctx: AppContext, email: string): Promise<string> {
  return createHmac('sha256', await secretOf(ctx))
    .update(email.trim().toLowerCase())
    .digest('hex');
}
