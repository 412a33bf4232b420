import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A fresh PostgreSQL database per test file, dropped afterwards, so files never see each other's events. */
export async function createTestDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `claims_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
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
