import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { rebuildRecordMigrations } from './rebuildRecords.js';

/** Per projection and stream, the last version applied: what makes redelivery harmless. */
export const projectionRuntimeMigrations: Record<string, Migration> = {
  '0100_projection_offsets': sqlMigration(
    sql`
      create table projection_offsets (
        projection text not null,
        stream_id text not null,
        version bigint not null,
        primary key (projection, stream_id)
      )`,
  ),
  ...rebuildRecordMigrations,
};
