import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { OperationsView } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { AppError } from './errors.js';
import type { OperationsReader } from './operations.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** `Authorization: Bearer <METRICS_TOKEN>`, compared in constant time. */
export function holdsToken(request: FastifyRequest, token: string): boolean {
  const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

/** The figures of the operations view as gauges, set afresh at each scrape (a projector that goes leaves no stale series). */
function operationsGauges(registry: Registry) {
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Gauge<L>({ name, help, labelNames, registers: [registry] });
  const head = gauge('claims_event_store_head_position', 'The newest global position of the event store');
  const projector = {
    position: gauge(
      'claims_projector_position',
      'Store followers: the global position of the checkpoint; Kafka: the committed offsets summed',
      ['projection', 'source'],
    ),
    lagEvents: gauge('claims_projector_lag_events', 'Events not yet handled by the projector', ['projection']),
    lagSeconds: gauge(
      'claims_projector_lag_seconds',
      'Age of the oldest event not yet handled (Kafka: since last seen caught up); 0 when caught up',
      ['projection'],
    ),
    parked: gauge(
      'claims_projector_parked_events',
      'Events the projector set aside after failing every try (projection_parked)',
      ['projection'],
    ),
    state: gauge('claims_projector_state', '1 for the state of the projector as this process knows it', [
      'projection',
      'state',
    ]),
  };
  // Only with Kafka: a gauge without labels would otherwise show a relay that does not exist at 0.
  const relayGauges = () => ({
    position: gauge('claims_relay_position', 'The global position of the last event the relay published'),
    lagEvents: gauge('claims_relay_lag_events', 'Events not yet published to Kafka'),
    lagSeconds: gauge('claims_relay_lag_seconds', 'Age of the oldest event not yet published; 0 when caught up'),
    quarantined: gauge('claims_relay_quarantined_events', 'Events the broker refused for good (relay_quarantine)'),
  });
  let relay: ReturnType<typeof relayGauges> | null = null;
  const reaction = {
    position: gauge('claims_reaction_position', "The global position of the reaction's checkpoint", ['reaction']),
    lagEvents: gauge('claims_reaction_lag_events', "Events beyond the reaction's checkpoint", ['reaction']),
    lagSeconds: gauge(
      'claims_reaction_lag_seconds',
      "Age of the oldest event beyond the reaction's checkpoint; 0 when caught up",
      ['reaction'],
    ),
    parked: gauge(
      'claims_reaction_parked_events',
      'Events the reaction set aside after failing every try, not yet retried or skipped (reaction_parked)',
      ['reaction'],
    ),
    state: gauge('claims_reaction_state', '1 for the state of the reaction as this process knows it', [
      'reaction',
      'state',
    ]),
  };
  const webhooks = gauge('claims_webhook_deliveries_pending', 'Webhook deliveries of the outbox still to be sent');
  const parkedDeliveries = gauge(
    'claims_webhook_deliveries_parked',
    'Webhook deliveries set aside after their processing failed every try (webhook_delivery_parked)',
  );
  const retries = gauge('claims_notification_retries_due', 'Shopper mail due to be tried again');
  const all = [head, ...Object.values(projector), ...Object.values(reaction), webhooks, parkedDeliveries, retries];

  return (view: OperationsView) => {
    for (const g of all) g.reset();
    head.set(view.headPosition);
    for (const p of view.projectors) {
      projector.position.set({ projection: p.name, source: p.source }, p.position);
      projector.lagEvents.set({ projection: p.name }, p.lagEvents);
      projector.lagSeconds.set({ projection: p.name }, p.lagSeconds);
      projector.parked.set({ projection: p.name }, p.parked.length);
      projector.state.set({ projection: p.name, state: p.state }, 1);
    }
    if (view.relay) {
      relay ??= relayGauges();
      relay.position.set(view.relay.position);
      relay.lagEvents.set(view.relay.lagEvents);
      relay.lagSeconds.set(view.relay.lagSeconds);
      relay.quarantined.set(view.relay.quarantined.length);
    }
    for (const r of view.reactions) {
      reaction.position.set({ reaction: r.name }, r.position);
      reaction.lagEvents.set({ reaction: r.name }, r.lagEvents);
      reaction.lagSeconds.set({ reaction: r.name }, r.lagSeconds);
      reaction.parked.set({ reaction: r.name }, r.parked.length);
      reaction.state.set({ reaction: r.name, state: r.state }, 1);
    }
    webhooks.set(view.pendingWebhookDeliveries);
    parkedDeliveries.set(view.parkedWebhookDeliveries.length);
    retries.set(view.notificationRetriesDue);
  };
}

/**
 * Contract §Operations `GET /api/metrics`: Prometheus text format 0.0.4 — the operations figures,
 * HTTP requests by route and status (a histogram of their duration, whose `_count` is the count) and
 * the process's own metrics. It tells a competitor how many claims flow, so with METRICS_TOKEN it answers only its
 * bearer; without one (never in production: config.ts refuses to start) it answers anyone, as `make dev` needs
 * (docs/decisions/operations.md).
 * Installed on the root instance: its onResponse hook must see every route.
 */
export function installMetrics(app: FastifyInstance, ctx: AppContext, reader: OperationsReader): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const setOperations = operationsGauges(registry);
  // Which of a cluster's processes answered the scrape, and what it runs beside HTTP (docs/decisions/processes-and-workers.md).
  const workers = [...ctx.config.workers].sort().join(',');
  new Gauge({
    name: 'process_role',
    help: 'This process serves HTTP; the label lists the background workers it also runs',
    labelNames: ['role', 'pid'],
    registers: [registry],
  }).set({ role: workers ? `http,${workers}` : 'http', pid: String(process.pid) }, 1);
  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route (its pattern) and status code, and how long they took',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    // The pattern, never the raw URL: ids and tokens in paths would make a series per request.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.observe(
      { method: request.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  app.get(
    '/api/metrics',
    {
      schema: {
        tags: ['operations'],
        summary: 'Prometheus metrics (Authorization: Bearer METRICS_TOKEN when it is set)',
        security: [{ bearer: [] }],
      },
    },
    async (request, reply) => {
      const token = ctx.config.metricsToken;
      if (token && !holdsToken(request, token)) {
        throw new AppError('unauthenticated', 'Send Authorization: Bearer with the METRICS_TOKEN.', undefined, {
          'www-authenticate': 'Bearer realm="metrics"',
        });
      }
      setOperations(await reader.read());
      return reply.type(registry.contentType).send(await registry.metrics());
    },
  );
}
