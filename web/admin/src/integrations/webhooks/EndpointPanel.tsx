import { useId, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RotateWebhookSecretResponse, WebhookEndpoint } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDateTime } from '@claims/format';
import { Alert } from '@claims/ui/components';
import { Dialog } from '../../shared/components/Dialog.js';
import { api } from '../../shared/api.js';
import { ConfirmDialog } from '../../shared/components/ConfirmDialog.js';
import { SecretValue } from '../secrets/SecretValue.js';
import { DeliveryLog } from './DeliveryLog.js';
import { webhookQueries } from '../queries.js';

export interface EndpointRights {
  update: boolean;
  remove: boolean;
}

/** One endpoint: why it is off (if it is), test, pause or resume, rotate its secret, delete, and its delivery log. */
export function EndpointPanel({
  storeId,
  endpoint,
  rights,
  onDeleted,
}: {
  storeId: string;
  endpoint: WebhookEndpoint;
  rights: EndpointRights;
  onDeleted: (endpoint: WebhookEndpoint) => void;
}) {
  const id = useId();
  const client = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);
  const [rotated, setRotated] = useState<RotateWebhookSecretResponse | null>(null);
  const [deleting, setDeleting] = useState(false);
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: webhookQueries.endpoints(storeId).queryKey }),
      client.invalidateQueries({ queryKey: webhookQueries.deliveries(storeId, endpoint.id).queryKey }),
    ]);
  const test = useMutation({
    mutationFn: () => api.sendTestWebhook(storeId, endpoint.id),
    onSuccess: async () => {
      setNotice(
        endpoint.status === 'enabled'
          ? 'A test event is on its way; its attempt appears in the delivery log below.'
          : 'A test event is queued; it is sent once the endpoint is resumed.',
      );
      await refresh();
    },
  });
  const status = useMutation({
    mutationFn: (next: WebhookEndpoint['status']) => api.setWebhookStatus(storeId, endpoint.id, next),
    onSuccess: async (changed) => {
      setNotice(
        changed.status === 'enabled'
          ? 'The endpoint is resumed: what it is owed is sent now.'
          : 'The endpoint is paused: events are kept for it until it is resumed.',
      );
      await refresh();
    },
  });
  const rotate = useMutation({
    mutationFn: () => api.rotateWebhookSecret(storeId, endpoint.id),
    onSuccess: (answer) => {
      setNotice(null);
      setRotated(answer);
    },
  });
  const remove = useMutation({
    mutationFn: () => api.deleteWebhookEndpoint(storeId, endpoint.id),
    onSuccess: async () => {
      setDeleting(false);
      onDeleted(endpoint);
      await client.invalidateQueries({ queryKey: webhookQueries.endpoints(storeId).queryKey });
    },
  });
  const failed = [test, status, rotate].find((m) => m.isError);
  return (
    <section className="card stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        Endpoint <code>{endpoint.url}</code>
      </h2>
      {endpoint.description ? <p>{endpoint.description}</p> : null}
      <p className="muted">
        {endpoint.eventTypes ? (
          <>
            Sends{' '}
            {endpoint.eventTypes.map((t, i) => (
              <span key={t}>
                {i > 0 ? ', ' : ''}
                <code>{t}</code>
              </span>
            ))}
            .
          </>
        ) : (
          'Sends every event type.'
        )}{' '}
        Added {formatDateTime(endpoint.createdAt)}.
        {endpoint.previousSecretExpiresAt
          ? ` The previous secret also signs until ${formatDateTime(endpoint.previousSecretExpiresAt)}.`
          : ''}
      </p>
      {endpoint.status === 'disabled' ? (
        <Alert tone="warning">
          <strong>This endpoint is turned off.</strong> {endpoint.disabledReason}
        </Alert>
      ) : null}
      {rights.update || rights.remove ? (
        <div className="row-actions">
          {rights.update ? (
            <>
              <button
                type="button"
                className="button button-secondary"
                onClick={() => test.mutate()}
                disabled={test.isPending}
              >
                Send test event
              </button>
              {endpoint.status === 'enabled' ? (
                <button
                  type="button"
                  className="button button-secondary"
                  onClick={() => status.mutate('disabled')}
                  disabled={status.isPending}
                >
                  Pause
                </button>
              ) : (
                <button
                  type="button"
                  className="button button-primary"
                  onClick={() => status.mutate('enabled')}
                  disabled={status.isPending}
                >
                  Resume
                </button>
              )}
              <button
                type="button"
                className="button button-secondary"
                onClick={() => rotate.mutate()}
                disabled={rotate.isPending}
              >
                Rotate secret
              </button>
            </>
          ) : null}
          {rights.remove ? (
            <button
              type="button"
              className="button button-danger"
              onClick={() => {
                remove.reset();
                setDeleting(true);
              }}
            >
              Delete
            </button>
          ) : null}
        </div>
      ) : null}
      <div role="status">{notice ? <p className="alert alert-success">{notice}</p> : null}</div>
      {failed ? <Alert>{errorText(failed.error)}</Alert> : null}
      <DeliveryLog storeId={storeId} endpoint={endpoint} mayReplay={rights.update} />
      <Dialog open={rotated !== null} title="New signing secret" onClose={() => setRotated(null)}>
        <p>Deliveries are signed with this secret from now on.</p>
        {rotated ? (
          <>
            <SecretValue label="Signing secret" value={rotated.secret} />
            <p className="hint">
              The previous secret also signs every delivery until {formatDateTime(rotated.previousSecretExpiresAt)}, so
              the receiver can switch in the meantime.
            </p>
          </>
        ) : null}
        <div className="actions">
          <button
            type="button"
            className="button button-primary"
            onClick={() => {
              setRotated(null);
              void refresh();
            }}
          >
            Done
          </button>
        </div>
      </Dialog>
      <ConfirmDialog
        open={deleting}
        title="Delete this endpoint?"
        confirmLabel="Delete endpoint"
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => setDeleting(false)}
      >
        <p>
          Nothing more is sent to <code>{endpoint.url}</code> and its pending retries are cancelled. This cannot be
          undone.
        </p>
        {remove.isError ? <Alert>{errorText(remove.error)}</Alert> : null}
      </ConfirmDialog>
    </section>
  );
}
