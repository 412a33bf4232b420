import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type {
  OperationsView,
  ParkedEvent,
  ParkedWebhookDelivery,
  ReaderProgress,
  WorkerState,
} from '@claims/contracts';
import { formatDateTime, pluralize } from '@claims/format';
import { api, isHttpError } from '../shared/api.js';
import { holdsInternally, useMe } from '../shared/session.js';
import { Alert, Page } from '@claims/ui/components';
import { Badge, Fact, type BadgeTone } from '../shared/components/ui.js';
import { ParkedTable, type ParkedActions } from './parked/ParkedTable.js';
import { operationsErrorText } from './errorText.js';
import { ProjectionRebuildCell } from './projections/ProjectionRebuildCell.js';
import { operationsQueries } from './queries.js';
import { DataTable } from '../shared/components/DataTable.js';

/** How often the figures are read again while the page is open (and not paused). */
const REFRESH_MS = 5_000;
/** While a rebuild runs, its progress bar moves this often. */
const REBUILD_REFRESH_MS = 1_000;

const time = (iso: string) => <time dateTime={iso}>{formatDateTime(iso)}</time>;

const STATE_BADGES: Record<WorkerState, { tone: BadgeTone; label: string }> = {
  running: { tone: 'success', label: 'running' },
  waiting: { tone: 'warning', label: 'waiting' },
  failing: { tone: 'danger', label: 'failing' },
  elsewhere: { tone: 'neutral', label: 'in another process' },
  stopped: { tone: 'danger', label: 'stopped' },
};

function seconds(value: number): string {
  if (value === 0) return '0 s';
  if (value < 10) return `${value.toFixed(1)} s`;
  if (value < 120) return `${Math.round(value)} s`;
  return `${Math.round(value / 60)} min`;
}

/** State with its reason, when there is one. */
function StateCell({ progress }: { progress: ReaderProgress }) {
  const badge = STATE_BADGES[progress.state];
  return (
    <td>
      <Badge tone={badge.tone}>{badge.label}</Badge>
      {progress.reason ? <p className="hint">{progress.reason}</p> : null}
    </td>
  );
}

/** Position and lag: the same three columns for projectors, the relay and reactions. */
function ProgressCells({ progress }: { progress: ReaderProgress }) {
  return (
    <>
      <td className="numeric">{progress.position}</td>
      <td className="numeric">{progress.lagEvents}</td>
      <td className="numeric">{seconds(progress.lagSeconds)}</td>
    </>
  );
}

const PROGRESS_HEADS = (
  <>
    <th scope="col">Position</th>
    <th scope="col">Lag (events)</th>
    <th scope="col">Lag (time)</th>
    <th scope="col">State</th>
  </>
);

function ReadinessTable({ view }: { view: OperationsView }) {
  return (
    <section className="card stack" aria-labelledby="readiness-title">
      <h2 id="readiness-title">Readiness</h2>
      <p className="muted">
        What <code>GET /api/health</code> answers, per component.
      </p>
      <DataTable caption="Readiness of each component" captionHidden columns={['Component', 'Status', 'Reason']}>
        <tbody>
          {view.readiness.map((c) => (
            <tr key={c.name}>
              <th scope="row">{c.name}</th>
              <td>
                <Badge tone={c.status === 'ok' ? 'success' : 'danger'}>{c.status === 'ok' ? 'ready' : 'failing'}</Badge>
              </td>
              <td>{c.reason ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </DataTable>
    </section>
  );
}

/** A parked event of a projector or of a reaction: both are listed, retried and skipped the same way. */
type Parked = Omit<ParkedEvent, 'projection'> & { reader: 'projector' | 'reaction'; name: string };

function parkedOf(view: OperationsView): Parked[] {
  return [
    ...view.projectors.flatMap((p) =>
      p.parked.map(({ projection, ...event }) => ({ ...event, reader: 'projector' as const, name: projection })),
    ),
    ...view.reactions.flatMap((r) =>
      r.parked.map(({ reaction, ...event }) => ({ ...event, reader: 'reaction' as const, name: reaction })),
    ),
  ];
}

async function retryParked(event: Parked): Promise<void> {
  if (event.reader === 'projector') await api.retryParked(event.name, event.eventId);
  else await api.retryParkedReaction(event.name, event.eventId);
}

async function skipParked(event: Parked): Promise<void> {
  if (event.reader === 'projector') await api.skipParked(event.name, event.eventId);
  else await api.skipParkedReaction(event.name, event.eventId);
}

const PARKED_EVENT_ACTIONS: ParkedActions<Parked> = {
  retry: retryParked,
  skip: skipParked,
  retried: (event) =>
    `${event.name} ${event.reader === 'projector' ? 'applied' : 'handled'} the ${event.type} event of ${event.streamId}; it is no longer parked.`,
  skipped: (event) => `${event.name} skipped the ${event.type} event of ${event.streamId} for good.`,
  retryLabel: (event) => `Retry ${event.type} of ${event.streamId} in ${event.name}`,
  skipLabel: (event) => `Skip ${event.type} of ${event.streamId} in ${event.name}`,
};

function ParkedEvents({ parked, mayAct }: { parked: readonly Parked[]; mayAct: boolean }) {
  return (
    <section className="card stack" aria-labelledby="parked-title">
      <h2 id="parked-title">Parked events</h2>
      <p className="muted">
        Events a projector or a reaction could not handle after every try. It moved on without them, so a read model
        lacks them (or a mail, claim link or store credit did not happen) until they are retried (once the fault is
        fixed) or skipped.
      </p>
      <ParkedTable
        parked={parked}
        mayAct={mayAct}
        none="No parked events."
        caption="Parked events"
        heads={
          <>
            <th scope="col">Parked by</th>
            <th scope="col">Event</th>
            <th scope="col">Stream</th>
            <th scope="col">Error</th>
            <th scope="col">Tries</th>
            <th scope="col">Parked</th>
          </>
        }
        rowKey={(event) => `${event.reader}/${event.name}/${event.eventId}`}
        cells={(event) => (
          <>
            <td>
              {event.name}
              <p className="hint">{event.reader}</p>
            </td>
            <th scope="row">
              <code>{event.type}</code>
              <p className="hint">
                <code>{event.eventId}</code>
              </p>
            </th>
            <td>
              <code>{event.streamId}</code> v{event.streamVersion}
            </td>
            <td>{event.error}</td>
            <td className="numeric">{event.attempts}</td>
            <td>{time(event.parkedAt)}</td>
          </>
        )}
        actions={PARKED_EVENT_ACTIONS}
        confirm={{
          title: 'Skip this event for good?',
          label: 'Skip event',
          body: (event) =>
            event.reader === 'reaction' ? (
              <p>
                {event.name} will never handle this {event.type} event of {event.streamId}: what it would have done
                (mail, a claim link, store credit) does not happen.
              </p>
            ) : (
              <p>
                {event.name} will never show this {event.type} event of {event.streamId}. Rebuilding the read model is
                the way back.
              </p>
            ),
        }}
      />
    </section>
  );
}

const PARKED_DELIVERY_ACTIONS: ParkedActions<ParkedWebhookDelivery> = {
  retry: (delivery) => api.retryParkedDelivery(delivery.deliveryId),
  skip: (delivery) => api.skipParkedDelivery(delivery.deliveryId),
  retried: (delivery) => `The ${delivery.eventType} delivery ${delivery.webhookId} is due again.`,
  skipped: (delivery) => `The ${delivery.eventType} delivery ${delivery.webhookId} is cancelled.`,
  retryLabel: (delivery) => `Retry delivery ${delivery.webhookId}`,
  skipLabel: (delivery) => `Skip delivery ${delivery.webhookId}`,
};

/** Deliveries whose processing (ours, not the receiver's answer) failed every try: retried with the same webhook-id, or cancelled. */
function ParkedDeliveries({ parked, mayAct }: { parked: readonly ParkedWebhookDelivery[]; mayAct: boolean }) {
  return (
    <section className="card stack" aria-labelledby="parked-deliveries-title">
      <h2 id="parked-deliveries-title">Parked webhook deliveries</h2>
      <p className="muted">
        Deliveries whose processing failed inside the product every try (a receiver&apos;s failures are retried on the
        delivery schedule instead). The other deliveries go on; these wait until they are retried or skipped.
      </p>
      <ParkedTable
        parked={parked}
        mayAct={mayAct}
        none="No parked webhook deliveries."
        caption="Parked webhook deliveries"
        heads={
          <>
            <th scope="col">Delivery</th>
            <th scope="col">Endpoint</th>
            <th scope="col">Error</th>
            <th scope="col">Tries</th>
            <th scope="col">Parked</th>
          </>
        }
        rowKey={(delivery) => delivery.deliveryId}
        cells={(delivery) => (
          <>
            <th scope="row">
              <code>{delivery.eventType}</code>
              <p className="hint">
                <code>{delivery.webhookId}</code>
              </p>
            </th>
            <td>
              <code>{delivery.endpointId}</code>
            </td>
            <td>{delivery.error}</td>
            <td className="numeric">{delivery.failures}</td>
            <td>{time(delivery.parkedAt)}</td>
          </>
        )}
        actions={PARKED_DELIVERY_ACTIONS}
        confirm={{
          title: 'Cancel this delivery for good?',
          label: 'Skip delivery',
          body: (delivery) => (
            <p>
              The endpoint never receives the {delivery.eventType} webhook {delivery.webhookId}; a replay from its
              delivery log can still send it.
            </p>
          ),
        }}
      />
    </section>
  );
}

/**
 * Issue "projectors that can never stop silently": where each projector, the relay and each reaction
 * stands, what they set aside, and readiness per component; read again every few seconds (pausable,
 * WCAG 2.2.2). Order Protection staff with `admin-stores:read`; retrying and skipping needs `admin-stores:update`.
 */
export function OperationsPage() {
  const me = useMe();
  const [paused, setPaused] = useState(false);
  const operations = useQuery({
    ...operationsQueries.state(),
    // A refusal will not change by asking again; a server or network failure may.
    refetchInterval: (query) =>
      paused || isHttpError(query.state.error, 403) || isHttpError(query.state.error, 404)
        ? false
        : query.state.data?.projectors.some((p) => p.rebuild?.status === 'running')
          ? REBUILD_REFRESH_MS
          : REFRESH_MS,
  });
  const mayAct = holdsInternally(me, 'admin-stores:update');
  const view = operations.data;
  const failing = view?.readiness.filter((c) => c.status === 'failing').length ?? 0;
  const parked = view ? parkedOf(view) : [];

  return (
    <Page
      title="Operations"
      actions={
        <button
          type="button"
          className="button button-secondary"
          aria-pressed={paused}
          onClick={() => setPaused((p) => !p)}
        >
          {paused ? 'Resume refreshing' : 'Pause refreshing'}
        </button>
      }
    >
      {operations.isError ? <Alert>{operationsErrorText(operations.error)}</Alert> : null}
      {!view ? (
        // Refused or unreachable before the first answer: the alert says so, and nothing is loading any more.
        operations.isError ? null : (
          <p role="status">Loading…</p>
        )
      ) : (
        <div className="stack">
          <p role="status">
            {failing === 0 ? 'Every component is ready.' : `${pluralize(failing, 'component')} failing.`}
            {parked.length > 0 ? ` ${pluralize(parked.length, 'parked event')}.` : ''}
            {view.parkedWebhookDeliveries.length > 0
              ? ` ${pluralize(view.parkedWebhookDeliveries.length, 'parked webhook delivery', 'parked webhook deliveries')}.`
              : ''}
          </p>
          <p className="muted">
            Read {time(view.at)}
            {paused ? ' — refreshing paused.' : `, again every ${REFRESH_MS / 1000} seconds.`} Event store head:
            position {view.headPosition}.
          </p>

          <section className="card stack" aria-labelledby="projectors-title">
            <h2 id="projectors-title">Projectors</h2>
            <DataTable caption="Projectors: position, lag and state" captionHidden>
              <thead>
                <tr>
                  <th scope="col">Projector</th>
                  <th scope="col">Reads from</th>
                  {PROGRESS_HEADS}
                  <th scope="col">Parked</th>
                  <th scope="col">Rebuild</th>
                </tr>
              </thead>
              <tbody>
                {view.projectors.map((p) => (
                  <tr key={p.name}>
                    <th scope="row">{p.name}</th>
                    <td>{p.source === 'kafka' ? 'Kafka' : 'event store'}</td>
                    <ProgressCells progress={p} />
                    <StateCell progress={p} />
                    <td className="numeric">{p.parked.length}</td>
                    <ProjectionRebuildCell name={p.name} rebuild={p.rebuild} mayAct={mayAct} />
                  </tr>
                ))}
              </tbody>
            </DataTable>
          </section>

          <section className="card stack" aria-labelledby="reactions-title">
            <h2 id="reactions-title">Reactions</h2>
            <DataTable caption="Reactions: position, lag and state" captionHidden>
              <thead>
                <tr>
                  <th scope="col">Reaction</th>
                  {PROGRESS_HEADS}
                  <th scope="col">Parked</th>
                </tr>
              </thead>
              <tbody>
                {view.reactions.map((r) => (
                  <tr key={r.name}>
                    <th scope="row">{r.name}</th>
                    <ProgressCells progress={r} />
                    <StateCell progress={r} />
                    <td className="numeric">{r.parked.length}</td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
            <dl className="facts">
              <Fact term="Webhook deliveries pending">{view.pendingWebhookDeliveries}</Fact>
              <Fact term="Shopper mail due for a retry">{view.notificationRetriesDue}</Fact>
            </dl>
          </section>

          <ParkedEvents parked={parked} mayAct={mayAct} />
          <ParkedDeliveries parked={view.parkedWebhookDeliveries} mayAct={mayAct} />

          <section className="card stack" aria-labelledby="relay-title">
            <h2 id="relay-title">Relay to Kafka</h2>
            {!view.relay ? (
              <p>No Kafka configured: projectors read the event store directly, nothing is relayed.</p>
            ) : (
              <>
                <DataTable caption="Relay: position, lag and state" captionHidden>
                  <thead>
                    <tr>
                      {PROGRESS_HEADS}
                      <th scope="col">Quarantined</th>
                    </tr>
                  </thead>
                  <tbody>
                    <tr>
                      <ProgressCells progress={view.relay} />
                      <StateCell progress={view.relay} />
                      <td className="numeric">{view.relay.quarantined.length}</td>
                    </tr>
                  </tbody>
                </DataTable>
                {view.relay.quarantined.length === 0 ? (
                  <p>No quarantined events.</p>
                ) : (
                  <DataTable
                    caption="Events the broker refused for good (not in Kafka)"
                    columns={['Event', 'Stream', 'Size', 'Error', 'Quarantined']}
                  >
                    <tbody>
                      {view.relay.quarantined.map((q) => (
                        <tr key={q.eventId}>
                          <th scope="row">
                            <code>{q.type}</code>
                            <p className="hint">
                              <code>{q.eventId}</code> at {q.globalPosition}
                            </p>
                          </th>
                          <td>
                            <code>{q.streamId}</code>
                          </td>
                          <td className="numeric">{q.bytes} bytes</td>
                          <td>{q.error}</td>
                          <td>{time(q.quarantinedAt)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </DataTable>
                )}
              </>
            )}
          </section>

          <ReadinessTable view={view} />
        </div>
      )}
    </Page>
  );
}
