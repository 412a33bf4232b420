import pg from 'pg';
import type { Database } from './database.js';

export interface Leadership {
  /** Resolves when leadership is lost (the lock's connection ended). */
  readonly lost: Promise<void>;
  release(): Promise<void>;
}

/**
 * One active instance per name across processes: a session advisory lock on a connection of its
 * own, which PostgreSQL frees when that connection dies. PGlite is one process, so it always leads.
 */
export async function tryLead(database: Database, name: string): Promise<Leadership | null> {
  if (!database.url) return { lost: new Promise<void>(() => undefined), release: async () => undefined };
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const result = await client.query<{ locked: boolean }>(
    'select pg_try_advisory_lock(hashtextextended($1, 0)) as locked',
    [name],
  );
  if (!result.rows[0]?.locked) {
    await client.end();
    return null;
  }
  const lost = new Promise<void>((resolve) => {
    client.on('error', () => resolve());
    client.on('end', () => resolve());
  });
  return { lost, release: () => client.end() };
}
