import type { Migration } from 'kysely/migration';
import { eventStoreMigrations, migrate, openDatabase, registerMigrations, type Database } from '@claims/event-store';
import { createTestDatabase } from './testDatabase.js';

/** A fresh PostgreSQL database with the event store and the given modules' tables; `dispose` closes and drops it. */
export async function migratedTestDatabase(serverUrl: string, ...migrations: ReadonlyArray<Record<string, Migration>>): Promise<{ database: Database; dispose: () => Promise<void> }> {
  const created = await createTestDatabase(serverUrl);
  const database = await openDatabase({ databaseUrl: created.url, dataDir: '' });
  await migrate(database, registerMigrations(eventStoreMigrations, ...migrations));
  return {
    database,
    dispose: async () => {
      await database.close();
      await created.drop();
    },
  };
}
