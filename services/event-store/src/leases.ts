import pg from 'pg';
import type { Database } from './database.js';

/**
 * Which of many names this process holds, each at most one process at a time: session advisory locks on one
 * connection of the group's own, so PostgreSQL frees them all when the process or its connection dies, and another
 * process takes them at its next try. A name held is kept until `release`; one not held is tried again at most every
 * `retryMs` (a process that does not hold a name must not open a connection each time it asks).
 * PGlite is one process: it holds every name.
 */
export interface Leases {
  holds(name: string): Promise<boolean>;
  release(): Promise<void>;
}

export function leaseGroup(database: Database, retryMs = 2_000): Leases {
  const url = database.url;
  if (!url) return { holds: () => Promise.resolve(true), release: () => Promise.resolve() };
  const held = new Set<string>();
  const triedAt = new Map<string, number>();
  let client: Promise<pg.Client> | null = null;
  let released = false;
  let queue: Promise<void> = Promise.resolve();

  function connection(): Promise<pg.Client> {
    client ??= (async () => {
      const c = new pg.Client({ connectionString: url! });
      const lost = () => {
        // Its locks went with it: every name is free for whoever tries first, this process too.
        held.clear();
        client = null;
      };
      c.on('error', lost);
      c.on('end', lost);
      await c.connect();
      return c;
    })().catch((error: unknown) => {
      client = null;
      throw error;
    });
    return client;
  }

  return {
    async holds(name) {
      if (released) return false;
      if (held.has(name)) return true;
      if (Date.now() - (triedAt.get(name) ?? 0) < retryMs) return false;
      triedAt.set(name, Date.now());
      // One query at a time on the connection (pg deprecates queueing them): the reactions ask at once.
      const asked = queue.then(async () => {
        const c = await connection();
        const { rows } = await c.query<{ locked: boolean }>(
          'select pg_try_advisory_lock(hashtextextended($1, 0)) as locked',
          [name],
        );
        if (rows[0]?.locked) held.add(name);
      });
      queue = asked.catch(() => undefined);
      await asked;
      return held.has(name);
    },
    async release() {
      released = true;
      const c = await client?.catch(() => null);
      held.clear();
      await c?.end();
    },
  };
}
