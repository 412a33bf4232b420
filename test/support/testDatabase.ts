import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Waits until no session is left on the database: pg's pool resolves end() before its sockets close. */
async function sessionsGone(client: pg.Client, name: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const { rows } = await client.query<{ n: number }>(
      'select count(*)::int as n from pg_stat_activity where datname = $1',
      [name],
    );
    if (!rows[0]?.n) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A fresh PostgreSQL database per test file, dropped afterwards, so files never see each other's events;
 * `template`: a copy of that (migrated) database, which PostgreSQL makes far faster than migrating anew.
 */
export async function createTestDatabase(
  serverUrl: string,
  template?: string,
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `claims_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    if (template) await sessionsGone(admin, template);
    await admin.query(`create database ${name}${template ? ` template ${pg.escapeIdentifier(template)}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        // Forcing the drop while the pool's sockets still close kills them mid-goodbye and the FATAL
        // surfaces as an unhandled error: give them a moment to go.
        await sessionsGone(client, name);
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Polls until `check` passes or the time is up; for effects that land asynchronously (projections, Kafka). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 20_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
}
