import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Macros and SOPs are listed per store straight from their streams; this index finds a store's streams of a type. */
export const adminMigrations: Record<string, Migration> = {
  '0700_streams_by_type_and_store': {
    async up(db: Kysely<unknown>) {
      await sql`create index if not exists streams_type_store on streams (stream_type, store_id)`.execute(db);
    },
  },
};
