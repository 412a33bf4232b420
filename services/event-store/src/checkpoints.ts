import { sql, type QueryExecutorProvider } from 'kysely';
import { START, type Position } from './readAll.js';

/** Any Kysely instance or transaction, whatever tables it is typed with. */
type Executor = QueryExecutorProvider;

export async function loadCheckpoint(db: Executor, name: string): Promise<Position> {
  const row = await sql<{ transaction_id: string; global_position: number }>`
    select transaction_id::text as transaction_id, global_position from checkpoints where name = ${name}`.execute(db);
  const found = row.rows[0];
  return found ? { transactionId: found.transaction_id, globalPosition: Number(found.global_position) } : START;
}

/** Stored in the caller's transaction, so the checkpoint moves with the work it records. */
export async function storeCheckpoint(db: Executor, name: string, position: Position): Promise<void> {
  await sql`
    insert into checkpoints (name, transaction_id, global_position) values (${name}, ${position.transactionId}::xid8, ${position.globalPosition})
    on conflict (name) do update set transaction_id = excluded.transaction_id, global_position = excluded.global_position, updated_at = now()`.execute(
    db,
  );
}

/** Sets a checkpoint only where there is none yet (a reader's first run); an existing one is kept. */
export async function initCheckpoint(db: Executor, name: string, position: Position): Promise<void> {
  await sql`
    insert into checkpoints (name, transaction_id, global_position) values (${name}, ${position.transactionId}::xid8, ${position.globalPosition})
    on conflict (name) do nothing`.execute(db);
}

export async function deleteCheckpoint(db: Executor, name: string): Promise<void> {
  await sql`delete from checkpoints where name = ${name}`.execute(db);
}
