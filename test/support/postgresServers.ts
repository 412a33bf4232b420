import { inject } from 'vitest';

/** A PostgreSQL server of the integration tests, with the databases their own are copies of. */
export interface PostgresServer {
  databaseUrl: string;
  /** A database with every migration applied: the product's test databases are copies of it. */
  migratedTemplate: string;
  /** migratedTemplate with the demo data seeded: runtimes that seed the demo start from a copy of it. */
  seededTemplate: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** One server per integration worker (globalSetup.ts). */
    postgresServers: PostgresServer[];
    kafkaBrokers: string;
  }
}

/** The server of the worker running this file: VITEST_POOL_ID is the worker's slot, 1 to maxWorkers. */
export function postgresServer(): PostgresServer {
  const servers = inject('postgresServers');
  const slot = Number(process.env.VITEST_POOL_ID ?? '1') - 1;
  return servers[slot % servers.length]!;
}
