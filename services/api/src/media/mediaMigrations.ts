import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Every upload URL handed out, with the order or claim whose proof asked for it (quotas, one-day orphan sweep). */
export const mediaMigrations: Record<string, Migration> = {
  '0610_media_uploads': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table media_uploads (
          key text primary key,
          owner text not null,
          size bigint,
          created_at timestamptz not null,
          uploaded_at timestamptz,
          referenced_at timestamptz
        )`.execute(db);
      await sql`create index media_uploads_owner on media_uploads (owner)`.execute(db);
      await sql`create index media_uploads_unreferenced on media_uploads (created_at) where referenced_at is null`.execute(
        db,
      );
    },
  },
  // The SHA-256 of a stored file's bytes: the desk flags a photo already used on another claim. Files stored
  // before it have none and are never flagged.
  '2300_media_uploads_content_hash': {
    async up(db: Kysely<unknown>) {
      await sql`alter table media_uploads add column content_sha256 text`.execute(db);
      await sql`create index media_uploads_content_sha256 on media_uploads (content_sha256) where content_sha256 is not null`.execute(
        db,
      );
    },
  },
};
