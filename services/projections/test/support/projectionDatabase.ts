import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import { pgliteExtensions, registerMigrations } from '@claims/event-store';
import { projectionRuntimeMigrations, type Projection } from '../../src/index.js';

/** An in-memory PostgreSQL (PGlite) with the projection runtime's table, the projections' own and any `extra` ones. */
export async function projectionDatabase(
  projections: readonly Projection[],
  extra: Record<string, Migration> = {},
): Promise<Kysely<unknown>> {
  const pglite = await PGlite.create({ extensions: await pgliteExtensions() });
  const db = new Kysely<unknown>({ dialect: new PGliteDialect({ pglite }) });
  const migrations = registerMigrations(projectionRuntimeMigrations, extra, ...projections.map((p) => p.migrations));
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
  if (error) throw error;
  return db;
}
