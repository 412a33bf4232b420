import type { RawBuilder } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import type { Database } from './database.js';

/** Runs every migration not yet applied, in name order; safe from several processes at once. */
export async function migrate(database: Database, migrations: Record<string, Migration>): Promise<void> {
  const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${String(error)}`, { cause: error });
  }
}

/** Every module's migrations in one list; a key two modules share would silently drop one, so it is refused. */
export function registerMigrations(...lists: ReadonlyArray<Record<string, Migration>>): Record<string, Migration> {
  const all: Record<string, Migration> = {};
  for (const list of lists) {
    for (const [name, migration] of Object.entries(list)) {
      if (Object.hasOwn(all, name))
        throw new Error(`Migration ${name} is registered twice; give one of them another name.`);
      all[name] = migration;
    }
  }
  return all;
}

/** A migration that runs SQL statements in order; the schema only moves forward, so there is no down. */
export const sqlMigration = (...statements: ReadonlyArray<RawBuilder<unknown>>): Migration => ({
  async up(db) {
    for (const statement of statements) await statement.execute(db);
  },
});
