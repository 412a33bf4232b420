import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { webhookOutboxProjection } from '../../src/index.js';
import { projectionDatabase } from './projectionDatabase.js';
import { webhookEndpointsTable } from './webhookEndpointsTable.js';
import { NOW, order } from './claimStory.js';

export const hoursAgo = (hours: number) => new Date(Date.parse(NOW) - hours * 3_600_000).toISOString();

/** A delivery the outbox owes, as its row holds it. */
export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_type: string;
  webhook_id: string;
  payload: string;
  status: string;
}

/**
 * The webhook outbox projection's database for the calling suite, with the endpoints it reads: emptied before each
 * test. `endpoint` adds one (by default of the story's store, for every event, an hour old); `deliveries` reads what
 * is owed, oldest first.
 */
export function webhookOutboxDatabase() {
  let opened: Kysely<unknown> | undefined;
  const db = (): Kysely<unknown> => {
    if (!opened) throw new Error('the outbox database opens in beforeAll');
    return opened;
  };
  beforeAll(async () => {
    opened = await projectionDatabase([webhookOutboxProjection], webhookEndpointsTable);
  });
  beforeEach(async () => {
    await sql`truncate webhook_deliveries, webhook_delivery_attempts, webhook_endpoints, projection_offsets`.execute(
      db(),
    );
  });
  afterAll(async () => {
    await opened?.destroy();
  });

  return {
    db,
    async endpoint(input: { storeId?: string; eventTypes?: string[]; createdAt?: string; deletedAt?: string }) {
      const id = randomUUID();
      await sql`insert into webhook_endpoints (id, store_id, url, secret, event_types, created_at, deleted_at)
      values (${id}::uuid, ${input.storeId ?? order.storeId}::uuid, 'https://example.com/hook', 'whsec_x', ${input.eventTypes ?? null}::text[],
              ${input.createdAt ?? hoursAgo(1)}::timestamptz, ${input.deletedAt ?? null}::timestamptz)`.execute(db());
      return id;
    },
    async deliveries(): Promise<DeliveryRow[]> {
      const { rows } = await sql<DeliveryRow>`
        select id, endpoint_id, event_type, webhook_id, payload, status from webhook_deliveries
        order by created_at, event_type`.execute(db());
      return rows;
    },
  };
}
