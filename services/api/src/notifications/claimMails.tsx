import {
  CLAIM_STATUS_LABELS,
  RESOLUTION_REASON_LABELS,
  toDecimal,
  type Claim,
  type DomainEvent,
  type Message,
  type Store,
} from '@claims/contracts';
import { wholeDecisionOf, type notificationKindOf } from '@claims/domain';
import { formatLongDate, formatMoney, humanizeCode } from '@claims/format';
import { storeCreditLinesOf, type StoredEvent } from '../store-credit/index.js';
import type { Mail } from './mailer.js';
import { renderMail, type MailContent } from './mailLayout.js';

/** The mail a shopper gets about their claim. */
export type ShopperNotificationKind = NonNullable<ReturnType<typeof notificationKindOf>>;

/** The claim as it stood just after the event a mail is about: that event, and the claim's events up to it. */
export interface ClaimAfter {
  claim: Claim;
  event: DomainEvent;
  events: readonly StoredEvent[];
}

/**
 * Each item's decision in the claim page's words and amounts (web/portal itemDecision.tsx): store credit with its
 * bonus, valued as the page values it (storeCreditLinesOf), refunds and payments with their amount, a reship without
 * one, a denial with its reason. A line not tied to an item (a flat amount) is the claim's.
 */
function decisionLines({ claim, events }: ClaimAfter): string[] {
  const money = (minor: number, currency = claim.currency) => formatMoney(toDecimal(minor, currency), currency);
  const credits = new Map(storeCreditLinesOf(claim.currency, events).map((line) => [line.resolutionId, line.claim]));
  return claim.resolutions.map((r) => {
    const item = claim.items.find((i) => i.id === r.relatedClaimItemId);
    const what = item ? `${item.name} × ${r.quantity || item.quantity}` : 'Your claim';
    const credit = credits.get(r.id);
    switch (r.resolutionType) {
      case 'REFUND':
        return `${what}: Refunded ${money(r.paidValue)}`;
      case 'RESHIP':
        return `${what}: Reshipping ${r.quantity}`;
      case 'STORE_CREDIT':
        return credit && credit.bonus > 0
          ? `${what}: Store credit ${money(credit.total, credit.currency)} (${money(credit.credit, credit.currency)} plus a ${money(credit.bonus, credit.currency)} bonus)`
          : `${what}: Store credit ${money(r.paidValue)}`;
      case 'FLAT_RATE':
      case 'CUSTOM':
        return `${what}: Paid ${money(r.paidValue)}`;
      case 'DENY':
        return `${what}: Not covered${r.reason ? `: ${RESOLUTION_REASON_LABELS[r.reason]}` : ''}`;
    }
  });
}

function contentFor(
  kind: ShopperNotificationKind,
  after: ClaimAfter,
  store: Store,
  link: string,
  message: Message | null,
): MailContent {
  const { claim } = after;
  const hello = `Hi ${claim.customer.name},`;
  const action = { label: 'View your claim', href: link };
  switch (kind) {
    case 'claim_filed':
      return {
        subject: `We received your claim #${claim.claimNumber}`,
        heading: `Claim #${claim.claimNumber} received`,
        paragraphs: [
          hello,
          `${store.name} received your claim for order ${claim.orderNumber} on ${formatLongDate(claim.filedAt)}. We'll email you when the store writes or decides.`,
        ],
        lines: claim.items.map((i) => `${i.name} × ${i.quantity}: ${humanizeCode(i.claimType)}`),
        action,
      };
    case 'store_reply':
      return {
        subject: `${store.name} wrote about your claim #${claim.claimNumber}`,
        heading: `A message about claim #${claim.claimNumber}`,
        paragraphs: [hello, `${message?.senderName ?? store.name} wrote:`, message?.messageContent ?? ''],
        lines: [],
        action,
      };
    case 'status_changed':
      return {
        subject:
          claim.status === 'WAITING_FOR_CUSTOMER'
            ? `${store.name} needs your reply on claim #${claim.claimNumber}`
            : `Your claim #${claim.claimNumber} is now ${CLAIM_STATUS_LABELS[claim.status]}`,
        heading: `Claim #${claim.claimNumber}: ${CLAIM_STATUS_LABELS[claim.status]}`,
        paragraphs: [
          hello,
          claim.status === 'WAITING_FOR_CUSTOMER'
            ? `${store.name} is waiting for your answer before it can go on with your claim. Open it to read their messages and reply.`
            : `${store.name} changed your claim's status to ${CLAIM_STATUS_LABELS[claim.status]}.`,
        ],
        lines: [],
        action,
      };
    case 'claim_resolved': {
      const latest = claim.resolutions.at(-1)?.createdAt ?? claim.filedAt;
      // Says "approved" whoever decided, a rule at filing included: this mail is the one that tells a shopper their
      // claim was approved at once, after the filing mail (docs/decisions/approved-at-once.md).
      const approved =
        after.event.type === 'ClaimResolved' && wholeDecisionOf(after.event.data)?.outcome === 'APPROVED';
      return {
        subject: `Your claim #${claim.claimNumber} has a decision${approved ? ': approved' : ''}`,
        heading: `Claim #${claim.claimNumber}: ${approved ? 'approved' : 'the decision'}`,
        paragraphs: [hello, `${store.name} decided on your claim on ${formatLongDate(latest)}:`],
        lines: decisionLines(after),
        action,
      };
    }
    default: {
      const exhaustive: never = kind;
      return exhaustive;
    }
  }
}

/** The shopper's mail for one notification, with the store's branding and a plain-text part carrying the same link. */
export function claimMail(
  kind: ShopperNotificationKind,
  after: ClaimAfter,
  store: Store,
  link: string,
  message: Message | null,
): Mail {
  return renderMail(after.claim.customer.email, store, contentFor(kind, after, store, link, message));
}
