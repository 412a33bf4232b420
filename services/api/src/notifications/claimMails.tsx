import { CLAIM_STATUS_LABELS, RESOLUTION_REASON_LABELS, toDecimal, type Claim, type Message, type Store } from '@claims/contracts';
import type { notificationKindOf } from '@claims/domain';
import { formatLongDate, formatMoney, humanizeCode } from '@claims/ui/format';
import type { Mail } from './mailer.js';
import { renderMail, type MailContent } from './mailLayout.js';

/** The mail a shopper gets about their claim. */
export type ShopperNotificationKind = NonNullable<ReturnType<typeof notificationKindOf>>;

function contentFor(kind: ShopperNotificationKind, claim: Claim, store: Store, link: string, message: Message | null): MailContent {
  const hello = `Hi ${claim.customer.name},`;
  const action = { label: 'View your claim', href: link };
  switch (kind) {
    case 'claim_filed':
      return {
        subject: `We received your claim #${claim.claimNumber}`,
        heading: `Claim #${claim.claimNumber} received`,
        paragraphs: [hello, `${store.name} received your claim for order ${claim.orderNumber} on ${formatLongDate(claim.filedAt)}. We'll email you when the store writes or decides.`],
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
        subject: claim.status === 'WAITING_FOR_CUSTOMER' ? `${store.name} needs your reply on claim #${claim.claimNumber}` : `Your claim #${claim.claimNumber} is now ${CLAIM_STATUS_LABELS[claim.status]}`,
        heading: `Claim #${claim.claimNumber}: ${CLAIM_STATUS_LABELS[claim.status]}`,
        paragraphs: [hello, claim.status === 'WAITING_FOR_CUSTOMER'
          ? `${store.name} is waiting for your answer before it can go on with your claim. Open it to read their messages and reply.`
          : `${store.name} changed your claim's status to ${CLAIM_STATUS_LABELS[claim.status]}.`],
        lines: [],
        action,
      };
    case 'claim_resolved': {
      const latest = claim.resolutions.at(-1)?.createdAt ?? claim.filedAt;
      return {
        subject: `Your claim #${claim.claimNumber} has a decision`,
        heading: `Claim #${claim.claimNumber}: the decision`,
        paragraphs: [hello, `${store.name} decided on your claim on ${formatLongDate(latest)}:`],
        lines: claim.resolutions.map((r) => {
          const item = claim.items.find((i) => i.id === r.relatedClaimItemId);
          const what = item ? `${item.name} × ${r.quantity || item.quantity}` : 'Your claim';
          if (r.resolutionType === 'DENY') return `${what}: not covered${r.reason ? ` (${RESOLUTION_REASON_LABELS[r.reason]})` : ''}`;
          return `${what}: ${humanizeCode(r.resolutionType)}${r.paidValue ? `, ${formatMoney(toDecimal(r.paidValue, claim.currency), claim.currency)}` : ''}`;
        }),
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
export function claimMail(kind: ShopperNotificationKind, claim: Claim, store: Store, link: string, message: Message | null): Mail {
  return renderMail(claim.customer.email, store, contentFor(kind, claim, store, link, message));
}
