import { readerOf } from '@claims/contracts';
import { storedDomainEvent, type Alongside } from '@claims/event-store';
import { claimDecider, claimLinksRequestDecider, orderClaimsDecider, type ClaimLinksCommand } from '@claims/domain';
import type { AppContext } from '../context.js';
import { findOrderById } from '../catalog/orderRepository.js';
import { findStore } from '../catalog/storeRepository.js';
import { handleCommand, loadAggregate, loadAggregates } from '../eventsourcing/commandHandler.js';
import type { Reaction } from '../eventsourcing/reactions.js';
import { mailInStreamOrder, withStoreReplyTo, type Mailer } from './mailer.js';
import { claimLinksMail } from './claimLinksMail.js';
import { mailStore } from './mailLayout.js';
import { issueClaimLinks } from './claimLinkIssuer.js';
import { causeOf, clearRetry, sendRecorded, type NotificationCause } from './notificationRetries.js';
import { MAX_ATTEMPTS, notificationMeta, RECORD_MAIL } from './retrySchedule.js';

/**
 * Answers one request for an order's claim links: a fresh link to each of its claims (or how to file one), mailed
 * to the order's email only, unless it went out already; the outcome is recorded in the order's notifications
 * stream and a failure schedules the next try in the same transaction.
 */
export async function deliverClaimLinks(ctx: AppContext, mailer: Mailer, cause: NotificationCause): Promise<void> {
  const current = await loadAggregate(ctx, claimLinksRequestDecider, cause.streamId);
  const recorded = current.events.find((e) => e.eventId === cause.eventId);
  const requested = recorded && storedDomainEvent(recorded);
  if (requested?.type !== 'ClaimLinksRequested') return;
  const scope = {
    orderId: requested.data.orderId,
    storeId: requested.data.storeId,
    requestId: requested.data.requestId,
  };
  const notificationId = scope.requestId;
  const attempts = current.state.attempts.get(notificationId) ?? 0;
  const order = await findOrderById(ctx.database.db, scope.orderId);
  const store = order && (await findStore(ctx.database.db, order.storeId));
  if (current.state.sent.has(notificationId) || attempts >= MAX_ATTEMPTS || !order || !store) {
    await clearRetry(ctx.database.db, notificationId);
    return;
  }
  const meta = notificationMeta(cause);
  const record = (
    outcome: Extract<ClaimLinksCommand, { type: 'RecordClaimLinksMail' }>['outcome'],
    alongside?: Alongside,
  ) =>
    handleCommand(ctx, {
      decider: claimLinksRequestDecider,
      streamId: cause.streamId,
      storeId: store.id,
      meta,
      alongside,
      onConflict: RECORD_MAIL,
      command: { type: 'RecordClaimLinksMail', scope, to: order.customerEmail, outcome, now: ctx.now() },
    });
  const tried = await sendRecorded(
    ctx.database.db,
    { notificationId, cause, attempts, now: ctx.now },
    async () => {
      const ledger = await loadAggregate(ctx, orderClaimsDecider, order.id);
      // Every claim of the order read in one query and linked in one append, however many it has.
      const loaded = await loadAggregates(
        ctx,
        claimDecider,
        ledger.state.claims.map((c) => c.claimId),
      );
      const found = ledger.state.claims.flatMap(({ claimId }) => {
        const claim = loaded.get(claimId)?.state;
        return claim ? [claim] : [];
      });
      const links = await issueClaimLinks(
        ctx,
        found.map((claim) => ({ claim, meta })),
      );
      const claims = found.map((claim, i) => ({ claim, link: links[i]! }));
      const mail = withStoreReplyTo(
        claimLinksMail(
          order.customerEmail,
          order.orderNumber,
          await mailStore(ctx, store),
          claims,
          `${ctx.config.publicUrl}/start`,
        ),
        store,
      );
      await mailer.send(mail);
      return { sent: true, claimIds: claims.map((c) => c.claim.id), subject: mail.subject } as const;
    },
    record,
  );
  if (tried.outcome === 'failed') {
    ctx.log.warn(
      { orderId: order.id, attempt: tried.attempt, next: tried.next },
      'mail with claim links failed; it will be tried again unless given up',
    );
  }
}

/**
 * A shopper's request for their claim links is answered by mail after the request (contract §Notifications).
 * 20 requests at once, answered over the mailer's connections at the same time: each reads its order and every claim of
 * it, so the work is per request, not shared; requests come a few an hour (each is rate limited), so a larger batch
 * would only make a retry repeat more.
 */
export function sendClaimLinks(mailer: Mailer): Reaction {
  return {
    name: 'send-claim-links',
    batchSize: 20,
    ...readerOf(['order-notifications'], {
      ClaimLinksRequested: 'handle',
      ClaimLinksMailSent: 'ignore',
      ClaimLinksMailFailed: 'ignore',
    }),
    react: (ctx, events) =>
      mailInStreamOrder(mailer, events, (event) =>
        deliverClaimLinks(ctx, mailer, { job: { kind: 'claim-links' }, ...causeOf(event) }),
      ),
  };
}
