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
