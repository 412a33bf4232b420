import { randomUUID } from 'node:crypto';
import { storeWebhooksStreamOf } from '@claims/contracts';
import {
  endpointDisabledMessage,
  failedForWindow,
  storeWebhooksDecider,
  type EndpointDisableCause,
} from '@claims/domain';
import type { AppContext, RequestMeta } from '../context.js';
import { handleCommand } from '../eventsourcing/commandHandler.js';
import { disableEndpointRow, noteAttemptOutcome } from './endpointRepository.js';

/** Someone (another worker, the merchant) turned the endpoint off or deleted it first: nothing to record. */
class AlreadyOff extends Error {}

const deliveryMeta = (webhookId: string): RequestMeta => ({
  actor: { type: 'system', id: 'webhook-delivery', name: 'Webhook delivery' },
  correlationId: `${webhookId}:${randomUUID()}`,
  causationId: null,
});

/**
 * After every attempt: a success ends the endpoint's run of failures; a 410 turns the endpoint off at
 * once; a failure that comes the configured window (3 days) after the run's first turns it off too. Each
 * such disable is a `WebhookEndpointDisabled` event in the store's webhooks stream, committed with the
 * endpoint's row, so the page's notice and the history agree.
 */
export async function recordEndpointHealth(
  ctx: AppContext,
  attempt: { endpointId: string; webhookId: string; statusCode: number | null; succeeded: boolean; at: Date },
): Promise<void> {
  const health = await noteAttemptOutcome(ctx.database.db, attempt.endpointId, attempt.succeeded, attempt.at);
  // A success leaves nothing to decide, nor does an endpoint already off or deleted.
  if (!health || health.status !== 'enabled') return;
  const at = attempt.at.toISOString();
  const windowMs = ctx.config.webhookDisableAfterFailingMs;
  let cause: EndpointDisableCause | null = null;
  if (attempt.statusCode === 410) cause = { kind: 'receiver_gone' };
  else if (health.failingSince && failedForWindow(health.failingSince, at, windowMs)) {
    cause = { kind: 'persistent_failure', failingSince: health.failingSince, windowMs };
  }
  if (!cause) return;
  const reason = endpointDisabledMessage(cause);
  try {
    await handleCommand(ctx, {
      decider: storeWebhooksDecider,
      streamId: storeWebhooksStreamOf(health.storeId),
      storeId: health.storeId,
      meta: deliveryMeta(attempt.webhookId),
      command: {
        type: 'DisableWebhookEndpoint',
        storeId: health.storeId,
        endpointId: attempt.endpointId,
        url: health.url,
        cause,
        at,
      },
      alongside: async (trx) => {
        if (!(await disableEndpointRow(trx, attempt.endpointId, reason, at))) throw new AlreadyOff();
      },
    });
    ctx.log.warn(
      { endpointId: attempt.endpointId, storeId: health.storeId, reason: cause.kind },
      'webhook endpoint disabled',
    );
  } catch (error) {
    if (!(error instanceof AlreadyOff)) throw error;
  }
}
