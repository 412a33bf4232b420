/**
 * Sustained webhook delivery to one local receiver: the real delivery worker on real PostgreSQL, with
 * deliveries enqueued (as the outbox projection writes them, notifying the worker) at a steady rate. Reports the rate the
 * receiver saw and the lag from each delivery's commit to its arrival.
 * Usage: WH_RATES=100,150,300 WH_SECONDS=10 npx tsx bench/experiments/webhookThroughput.ts
 * Env: WH_PER_ENDPOINT (the per-endpoint limit, else the configuration's), WH_POLL_MS (the worker's poll, default its own).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { openDatabase, migrate } from '@claims/event-store';
import { DELIVERIES_DUE_CHANNEL } from '@claims/projections';
import { ALL_MIGRATIONS } from '../../services/api/src/runtime.js';
import { loadConfig } from '../../services/api/src/config.js';
import { createLogger } from '../../services/api/src/platform/logger.js';
import { startDeliveryWorker } from '../../services/api/src/webhooks/deliveryWorker.js';
import type { AppContext } from '../../services/api/src/context.js';
import { benchDatabaseUrl, recreateDatabase, withDatabase } from '../postgres.js';
import { percentile, sortedCopy } from '../stats.js';

const rates = (process.env.WH_RATES ?? '100,150,300').split(',').map(Number);
const seconds = Number(process.env.WH_SECONDS ?? 10);
const url = withDatabase(benchDatabaseUrl(), 'claims_webhook_throughput');

await recreateDatabase(url);
const config = loadConfig({
  ...process.env,
  DATABASE_URL: url,
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  LOG_LEVEL: 'error',
});
const database = await openDatabase({ databaseUrl: url, dataDir: config.dataDir, poolSize: config.db.poolSize });
await migrate(database, ALL_MIGRATIONS);
const ctx: AppContext = { config, database, log: createLogger('error'), now: () => new Date().toISOString() };
const db = database.db;

/** When each delivery (by webhook-id) was committed, and when it arrived. */
const enqueuedAt = new Map<string, number>();
const arrivedAt = new Map<string, number>();
const receiver: Server = createServer((req, res) => {
  const id = req.headers['webhook-id'];
  req.resume();
  req.on('end', () => {
    if (typeof id === 'string' && !arrivedAt.has(id)) arrivedAt.set(id, performance.now());
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const storeId = randomUUID();
const endpointId = randomUUID();
const { rows: storeColumns } = await sql<{ column_name: string; data_type: string }>`
  select column_name, data_type from information_schema.columns
  where table_name = 'stores' and is_nullable = 'NO' and column_default is null and column_name <> 'id'`.execute(db);
// A store with whatever its required columns need, only for the endpoint's foreign key.
const filler = (type: string) =>
  type.includes('timestamp')
    ? sql`now()`
    : type === 'uuid'
      ? sql`${randomUUID()}::uuid`
      : type === 'boolean'
        ? sql`false`
        : type.includes('int')
          ? sql`0`
          : type === 'jsonb'
            ? sql`'{}'::jsonb`
            : sql`${`whtp-${randomUUID()}`}`;
await db.transaction().execute(async (trx) => {
  // The store's own references (its account) are beside the point: foreign keys are off for this one insert.
  await sql`set local session_replication_role = replica`.execute(trx);
  await sql`insert into stores (id, ${sql.join(storeColumns.map((c) => sql.ref(c.column_name)))}) values (${storeId}::uuid, ${sql.join(storeColumns.map((c) => filler(c.data_type)))})`.execute(
    trx,
  );
});
await sql`insert into webhook_endpoints (id, store_id, url, secret, event_types, created_at)
  values (${endpointId}::uuid, ${storeId}::uuid, ${receiverUrl}, ${'whsec_' + Buffer.from(randomUUID()).toString('base64')}, ${['claim.filed']}, now())`.execute(
  db,
);

const worker = startDeliveryWorker(ctx, {
  ...(process.env.WH_PER_ENDPOINT ? { perEndpoint: Number(process.env.WH_PER_ENDPOINT) } : {}),
  ...(process.env.WH_POLL_MS ? { pollMs: Number(process.env.WH_POLL_MS) } : {}),
});

async function enqueue(): Promise<void> {
  const deliveryId = randomUUID();
  const webhookId = `msg_${randomUUID().replaceAll('-', '')}`;
  const now = new Date().toISOString();
  const payload = JSON.stringify({ type: 'claim.filed', timestamp: now, data: { claimId: randomUUID() } });
  // With the notification the outbox projection sends at its commit.
  await sql`with inserted as (
      insert into webhook_deliveries (id, endpoint_id, store_id, event_id, event_type, webhook_id, payload, status, next_attempt_at, occurred_at)
      values (${deliveryId}::uuid, ${endpointId}::uuid, ${storeId}::uuid, ${randomUUID()}::uuid, 'claim.filed', ${webhookId}, ${payload}, 'pending', ${now}::timestamptz, ${now}::timestamptz)
      returning 1)
    select pg_notify(${DELIVERIES_DUE_CHANNEL}, '') from inserted`.execute(db);
  enqueuedAt.set(webhookId, performance.now());
}

console.log(`| asked/s | enqueued | arrived/s | p50 ms | p99 ms | max ms | caught up ms | load avg (1 min) |`);
console.log(`|---:|---:|---:|---:|---:|---:|---:|---:|`);
for (const rate of rates) {
  enqueuedAt.clear();
  arrivedAt.clear();
  const start = performance.now();
  const total = Math.round(rate * seconds);
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(enqueue());
  }
  await Promise.all(pending);
  const lastEnqueued = performance.now();
  while (arrivedAt.size < total && performance.now() - lastEnqueued < 120_000) await sleep(5);
  const caughtUp = performance.now() - lastEnqueued;
  const lags = sortedCopy(
    [...enqueuedAt].map(([id, at]) => (arrivedAt.get(id) ?? Number.NaN) - at).filter((lag) => !Number.isNaN(lag)),
  );
  const firstArrival = Math.min(...arrivedAt.values());
  const lastArrival = Math.max(...arrivedAt.values());
  const arrivedRate = arrivedAt.size / ((lastArrival - firstArrival) / 1000);
  console.log(
    `| ${rate} | ${total} | ${arrivedRate.toFixed(0)} | ${percentile(lags, 50).toFixed(0)} | ${percentile(lags, 99).toFixed(0)} | ${lags[lags.length - 1]?.toFixed(0)} | ${caughtUp.toFixed(0)} | ${loadavg()[0]?.toFixed(2)} |`,
  );
  await sleep(1_000);
}

await worker.stop();
await new Promise((resolve) => receiver.close(resolve));
await database.close();
