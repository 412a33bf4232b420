import pg from 'pg';

export const DEFAULT_BENCH_URL = 'postgres://postgres@127.0.0.1:5432/claims_bench';

/**
 * The server to benchmark on. BENCH_DATABASE_URL is used as-is (its database gets dropped and recreated).
 * DATABASE_URL only lends its server and credentials: the database name is replaced by `claims_bench`,
 * so `make bench` never drops the dev database that DATABASE_URL usually points at.
 */
export function benchDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BENCH_DATABASE_URL) return env.BENCH_DATABASE_URL;
  if (env.DATABASE_URL) return withDatabase(env.DATABASE_URL, 'claims_bench');
  return DEFAULT_BENCH_URL;
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
}

async function withAdmin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Drops (closing its sessions) and recreates the database named in `url`, so every run starts empty. */
export async function recreateDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  if (!/^[a-z_][a-z0-9_]*$/.test(name))
    throw new Error(`Refusing to recreate database with unusual name ${JSON.stringify(name)}`);
  await withAdmin(url, async (client) => {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}"`);
  });
}

/** Flushes dirty buffers so a checkpoint does not land in the middle of the next measurement. */
export async function checkpoint(url: string): Promise<void> {
  await withAdmin(url, async (client) => {
    await client.query('checkpoint');
  });
}

export interface ServerInfo {
  version: string;
  settings: Record<string, string>;
}

export async function serverInfo(url: string): Promise<ServerInfo> {
  return withAdmin(url, async (client) => {
    const version = (await client.query<{ version: string }>('select version()')).rows[0]!.version;
    const names = [
      'max_connections',
      'shared_buffers',
      'synchronous_commit',
      'fsync',
      'wal_sync_method',
      'max_wal_size',
      'autovacuum',
    ];
    const rows = (
      await client.query<{ name: string; setting: string }>(
        `select name, current_setting(name) as setting from pg_settings where name = any($1)`,
        [names],
      )
    ).rows;
    return { version, settings: Object.fromEntries(rows.map((r) => [r.name, r.setting])) };
  });
}
