import type { Migration } from 'kysely/migration';
import { eventStoreMigrations, migrate, openDatabase, registerMigrations, type Database } from '@claims/event-store';
import { createTestDatabase } from './testDatabase.js';

/** A fresh PostgreSQL database with the event store and the given modules' tables; `dispose` closes and drops it. */
export async function migratedTestDatabase(
  serverUrl: string,
  ...migrations: ReadonlyArray<Record<string, Migration>>
): Promise<{ database: Database; dispose: () => Promise<void> }> {
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

/** A database migrated once and closed, for test files to copy (createTestDatabase's `template`) rather than each migrate anew. */
export async function migratedTemplateDatabase(
  serverUrl: string,
  migrations: Record<string, Migration>,
): Promise<{ name: string; drop: () => Promise<void> }> {
  const created = await createTestDatabase(serverUrl);
  const database = await openDatabase({ databaseUrl: created.url, dataDir: '' });
  try {
    await migrate(database, migrations);
  } finally {
    await database.close();
  }
  return created;
}
