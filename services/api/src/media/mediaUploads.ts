import { sql, type QueryExecutorProvider } from 'kysely';
import { textsNamedInEvents, type Database } from '@claims/event-store';
import { UPLOAD_QUOTA } from '@claims/contracts';

/** Who an upload is charged to: the looked-up order or the claim whose proof asked for its URL. */
export type UploadOwner = `order:${string}` | `claim:${string}`;

/**
 * Takes the owner's advisory lock for this transaction: the quota's count and sum are read and written by one request
 * at a time, where concurrent inserts each counted without the others' rows and all passed.
 */
async function lockOwner(trx: QueryExecutorProvider, owner: UploadOwner): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`media-quota:${owner}`}, 0))`.execute(trx);
}

/** Records a new upload URL for `owner`; false when the owner has used up its quota of files or bytes. */
export async function recordIssuedUpload(
  db: Database['db'],
  key: string,
  owner: UploadOwner,
  now: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await lockOwner(trx, owner);
    const { rows } = await sql<{ key: string }>`
      insert into media_uploads (key, owner, created_at)
      select ${key}, ${owner}, ${now}::timestamptz
      where (select count(*) from media_uploads where owner = ${owner}) < ${UPLOAD_QUOTA.files}
        and (select coalesce(sum(size), 0) from media_uploads where owner = ${owner}) < ${UPLOAD_QUOTA.bytes}
      returning key`.execute(trx);
    return rows.length > 0;
  });
}

/** How many bytes the owner of an issued upload may still store, or null when the key was never issued. */
export async function bytesLeftFor(db: QueryExecutorProvider, key: string): Promise<number | null> {
  const { rows } = await sql<{ used: string }>`
    select (select coalesce(sum(size), 0) from media_uploads o where o.owner = u.owner)::text as used
    from media_uploads u where u.key = ${key}`.execute(db);
  return rows[0] ? Math.max(0, UPLOAD_QUOTA.bytes - Number(rows[0].used)) : null;
}

/**
 * Counts a stored file's bytes against its owner's quota, under the owner's lock: false (nothing recorded) when
 * uploads stored meanwhile left no room for it, as two concurrent uploads each checked against the same room.
 */
export async function recordStoredUpload(
  db: Database['db'],
  key: string,
  size: number,
  sha256: string,
  now: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const {
      rows: [upload],
    } = await sql<{ owner: UploadOwner }>`select owner from media_uploads where key = ${key}`.execute(trx);
    if (!upload) return false;
    await lockOwner(trx, upload.owner);
    const { rows } = await sql<{ key: string }>`
      update media_uploads set size = ${size}, content_sha256 = ${sha256}, uploaded_at = ${now}::timestamptz
      where key = ${key}
        and (select coalesce(sum(size), 0) from media_uploads where owner = ${upload.owner} and key <> ${key}) + ${size} <= ${UPLOAD_QUOTA.bytes}
      returning key`.execute(trx);
    return rows.length > 0;
  });
}

/** Other uploads whose bytes are identical to one of `keys` (same SHA-256), with who uploaded them. */
export async function uploadsWithSameContent(
  db: QueryExecutorProvider,
  keys: readonly string[],
): Promise<Array<{ key: string; sameAs: string; owner: UploadOwner }>> {
  if (keys.length === 0) return [];
  const { rows } = await sql<{ key: string; same_as: string; owner: UploadOwner }>`
    select other.key, mine.key as same_as, other.owner
    from media_uploads mine
    join media_uploads other on other.content_sha256 = mine.content_sha256 and other.key <> mine.key
    where mine.key = any(${[...keys]}::text[]) and mine.content_sha256 is not null and other.key <> all(${[...keys]}::text[])`.execute(
    db,
  );
  return rows.map((r) => ({ key: r.key, sameAs: r.same_as, owner: r.owner }));
}

/** How long an upload waits for a claim (or a draft) to reference it before it is an orphan. */
export const ORPHAN_AFTER_HOURS = 24;
const SWEEP_BATCH = 200;

/**
 * Uploads older than a day that no event names (a claim's item images, a message's medias, a
 * draft's images: all carry the file's key in their URL; the event store answers which). Referenced
 * ones are marked and never looked at again; the orphans are returned for deletion.
 */
export async function orphanedUploads(db: QueryExecutorProvider, now: string): Promise<string[]> {
  const { rows } = await sql<{ key: string; since: Date | string }>`
    select u.key, u.created_at - interval '1 hour' as since
    from media_uploads u
    where u.referenced_at is null and u.created_at < ${now}::timestamptz - ${ORPHAN_AFTER_HOURS} * interval '1 hour'
    order by u.created_at limit ${SWEEP_BATCH}`.execute(db);
  const named = await textsNamedInEvents(
    db,
    rows.map((row) => ({ text: row.key, since: new Date(row.since).toISOString() })),
  );
  const referenced = rows.filter((row) => named.has(row.key)).map((row) => row.key);
  if (referenced.length > 0) {
    await sql`update media_uploads set referenced_at = ${now}::timestamptz where key = any(${referenced}::text[])`.execute(
      db,
    );
  }
  return rows.filter((row) => !named.has(row.key)).map((row) => row.key);
}

export async function forgetUpload(db: QueryExecutorProvider, key: string): Promise<void> {
  await sql`delete from media_uploads where key = ${key}`.execute(db);
}
