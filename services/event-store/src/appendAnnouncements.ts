import { sql, type Kysely } from 'kysely';
import type { EventStoreTables } from './tables.js';

/**
 * The channel on which a process tells the others it appended, its payload the process's own id: readers in another
 * process (the relay, the store followers) wake at once instead of at their next poll. A process wakes its own readers
 * itself (onAppended), so it ignores the announcements carrying its id.
 */
export const EVENTS_APPENDED_CHANNEL = 'events_appended';

/**
 * Announces this process's appends on EVENTS_APPENDED_CHANNEL, one NOTIFY at a time: appends made while one is being
 * sent are announced together by the next, so at peaks it costs one statement per round trip, not one per append, and
 * never one inside a command's transaction. A NOTIFY that fails is dropped: the readers' polls find the events anyway.
 */
export function announceAppends(
  db: Kysely<EventStoreTables>,
  announcer: string,
  onError: (error: unknown) => void,
): () => void {
  let pending = false;
  let sending = false;
  async function send(): Promise<void> {
    sending = true;
    while (pending) {
      pending = false;
      await sql`select pg_notify(${EVENTS_APPENDED_CHANNEL}, ${announcer})`.execute(db).catch(onError);
    }
    sending = false;
  }
  return () => {
    pending = true;
    if (!sending) void send();
  };
}
