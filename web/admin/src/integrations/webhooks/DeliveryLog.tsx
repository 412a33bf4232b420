import { useId, useState, type FormEvent } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { ReplayWebhookRangeRequest, type WebhookDeliveryAttempt, type WebhookEndpoint } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDuration, formatLogTime, pluralize } from '@claims/format';
import { Alert } from '@claims/ui/components';
import { api } from '../../shared/api.js';
import { Badge } from '../../shared/components/ui.js';
import { webhookQueries } from '../queries.js';
import { DataTable } from '../../shared/components/DataTable.js';

/** The log refreshes itself while it is open, so a test event or a retry shows up without a reload. */
const REFRESH_MS = 2_000;

/** Where a delivery goes next, as its newest attempt's row says it. */
function nextStep(attempt: WebhookDeliveryAttempt, endpoint: WebhookEndpoint): string {
  switch (attempt.deliveryStatus) {
    case 'succeeded':
      return 'Delivered';
    case 'failed':
      return 'Gave up (replay to send again)';
    case 'cancelled':
      return 'Cancelled';
    case 'pending':
      if (endpoint.status === 'disabled') return 'When the endpoint is resumed';
      return attempt.nextAttemptAt ? formatLogTime(attempt.nextAttemptAt) : 'Sending now';
  }
}

function Result({ attempt }: { attempt: WebhookDeliveryAttempt }) {
  return (
    <>
      {attempt.succeeded ? <Badge tone="success">succeeded</Badge> : <Badge tone="danger">failed</Badge>}{' '}
      {attempt.statusCode !== null ? `HTTP ${attempt.statusCode}` : attempt.error}
    </>
  );
}

/** `datetime-local` gives local wall time without a zone; the API takes an instant. */
const instantOf = (local: string) => (local ? new Date(local).toISOString() : '');

function ReplayRangeForm({
  storeId,
  endpoint,
  onReplayed,
}: {
  storeId: string;
  endpoint: WebhookEndpoint;
  onReplayed: (text: string) => void;
}) {
  const id = useId();
  const client = useQueryClient();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const replay = useMutation({
    mutationFn: (body: ReplayWebhookRangeRequest) => api.replayWebhookRange(storeId, endpoint.id, body),
    onSuccess: async ({ replayed }) => {
      onReplayed(
        replayed === 0
          ? 'No delivery of that time range to replay.'
          : `${pluralize(replayed, 'delivery', 'deliveries')} will be sent again.`,
      );
      await client.invalidateQueries({ queryKey: webhookQueries.deliveries(storeId, endpoint.id).queryKey });
    },
  });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = ReplayWebhookRangeRequest.safeParse({ from: instantOf(from), to: instantOf(to) });
    if (!parsed.success) {
      setProblem('Choose a start and an end, the start before the end.');
      return;
    }
    setProblem(null);
    replay.mutate(parsed.data);
  }
  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`}>Replay a time range</h4>
      <p className="hint">
        Sends again every delivery of an event that happened in the range, delivered ones too, each with its own
        webhook-id.
      </p>
      <div className="inline-form">
        <div className="field">
          <label htmlFor={`${id}-from`}>From</label>
          <input
            id={`${id}-from`}
            type="datetime-local"
            step={1}
            value={from}
            onChange={(e) => setFrom(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-to`}>To</label>
          <input id={`${id}-to`} type="datetime-local" step={1} value={to} onChange={(e) => setTo(e.target.value)} />
        </div>
        <button type="submit" className="button button-secondary" disabled={replay.isPending}>
          Replay deliveries
        </button>
      </div>
      {problem ? <Alert>{problem}</Alert> : null}
      {replay.isError ? <Alert>{errorText(replay.error)}</Alert> : null}
    </form>
  );
}

/** Every attempt to the endpoint, newest first: result, duration, the receiver's answer and what comes next; replays. */
export function DeliveryLog({
  storeId,
  endpoint,
  mayReplay,
}: {
  storeId: string;
  endpoint: WebhookEndpoint;
  mayReplay: boolean;
}) {
  const id = useId();
  const client = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);
  const log = useInfiniteQuery({
    ...webhookQueries.deliveries(storeId, endpoint.id),
    refetchInterval: REFRESH_MS,
  });
  const replay = useMutation({
    mutationFn: (attempt: WebhookDeliveryAttempt) =>
      api.replayWebhookDelivery(storeId, endpoint.id, attempt.deliveryId),
    onSuccess: async (replayed) => {
      setNotice(`The delivery ${replayed.webhookId} will be sent again.`);
      await client.invalidateQueries({ queryKey: webhookQueries.deliveries(storeId, endpoint.id).queryKey });
    },
  });
  const attempts = log.data?.pages.flatMap((page) => page.data) ?? [];
  // Newest first: a delivery's first row is its latest attempt, the one that says what comes next.
  const latestOf = new Map<string, string>();
  for (const attempt of attempts) if (!latestOf.has(attempt.deliveryId)) latestOf.set(attempt.deliveryId, attempt.id);
  return (
    <section className="stack" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Delivery log</h3>
      <div role="status">{notice ? <p className="alert alert-success">{notice}</p> : null}</div>
      {replay.isError ? <Alert>{errorText(replay.error)}</Alert> : null}
      {log.isPending ? <p className="muted">Loading the delivery log…</p> : null}
      {log.isError ? <Alert>The delivery log could not be loaded: {errorText(log.error)}</Alert> : null}
      {log.data && attempts.length === 0 ? (
        <p className="muted">No delivery attempts yet. Send a test event to try the endpoint.</p>
      ) : null}
      {attempts.length > 0 ? (
        <DataTable
          caption={`Delivery attempts to ${endpoint.url}, newest first`}
          captionHidden
          columns={['Attempted', 'Event', 'Attempt', 'Result', 'Duration', 'Response', 'Next']}
          actions={mayReplay}
        >
          <tbody>
            {attempts.map((attempt) => {
              const latest = latestOf.get(attempt.deliveryId) === attempt.id;
              return (
                <tr key={attempt.id}>
                  <th scope="row">
                    <time dateTime={attempt.attemptedAt}>{formatLogTime(attempt.attemptedAt)}</time>
                  </th>
                  <td>
                    <code>{attempt.eventType}</code>
                    <br />
                    <span className="muted">{attempt.webhookId}</span>
                  </td>
                  <td>
                    #{attempt.attempt}
                    {attempt.replay ? (
                      <>
                        {' '}
                        <Badge tone="info">replay</Badge>
                      </>
                    ) : null}
                  </td>
                  <td>
                    <Result attempt={attempt} />
                  </td>
                  <td className="numeric">{formatDuration(attempt.durationMs)}</td>
                  <td>
                    {attempt.responseExcerpt ? (
                      <code className="response-excerpt">{attempt.responseExcerpt}</code>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                  <td>{latest ? nextStep(attempt, endpoint) : <span className="muted">—</span>}</td>
                  {mayReplay ? (
                    <td>
                      {latest ? (
                        <button
                          type="button"
                          className="button button-link"
                          disabled={replay.isPending}
                          onClick={() => {
                            setNotice(null);
                            replay.mutate(attempt);
                          }}
                        >
                          Replay<span className="visually-hidden"> delivery {attempt.webhookId}</span>
                        </button>
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </DataTable>
      ) : null}
      {log.hasNextPage ? (
        <button
          type="button"
          className="button button-secondary load-more"
          onClick={() => void log.fetchNextPage()}
          disabled={log.isFetchingNextPage}
        >
          Show older attempts
        </button>
      ) : null}
      {mayReplay ? <ReplayRangeForm storeId={storeId} endpoint={endpoint} onReplayed={setNotice} /> : null}
    </section>
  );
}
