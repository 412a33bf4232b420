import {
  CUSTOMER_RESOLUTION_LABELS,
  type Claim,
  type Message,
  type Store,
  type TeamNotificationKind,
} from '@claims/contracts';
import { formatLongDate, humanizeCode, pluralize } from '@claims/format';
import type { Mail } from './mailer.js';
import { renderMail, type MailContent } from './mailLayout.js';

/** Where a team mail points: the claim on the desk, and the reader's own mail settings. */
export interface TeamMailLinks {
  claim: string;
  settings: string;
}

function contentFor(
  kind: TeamNotificationKind,
  claim: Claim,
  store: Store,
  links: TeamMailLinks,
  message: Message | null,
): MailContent {
  const action = { label: 'Open the claim', href: links.claim };
  const footer = `You get this mail because of your notification settings for ${store.name}; change them at ${links.settings}`;
  switch (kind) {
    case 'new_claim':
      return {
        subject: `New claim #${claim.claimNumber} at ${store.name} (order ${claim.orderNumber})`,
        heading: `New claim #${claim.claimNumber}`,
        paragraphs: [
          `${claim.customer.name} (${claim.customer.email}) filed a claim on order ${claim.orderNumber} on ${formatLongDate(claim.filedAt)}: ` +
            `${pluralize(claim.items.length, 'item')}, asking for ${CUSTOMER_RESOLUTION_LABELS[claim.desiredMethod]}.`,
        ],
        lines: claim.items.map(
          (i) => `${i.name} × ${i.quantity}: ${humanizeCode(i.claimType)}${i.details ? ` (${i.details})` : ''}`,
        ),
        action,
        footer,
      };
    case 'customer_reply':
      return {
        subject: `${claim.customer.name} replied on claim #${claim.claimNumber}`,
        heading: `A reply on claim #${claim.claimNumber}`,
        paragraphs: [`${message?.senderName ?? claim.customer.name} wrote:`, message?.messageContent ?? ''],
        lines: message?.medias.length ? [pluralize(message.medias.length, 'attachment')] : [],
        action,
        footer,
      };
    default: {
      const exhaustive: never = kind;
      return exhaustive;
    }
  }
}

/** A team member's mail about a claim of their store. */
export function teamMail(
  kind: TeamNotificationKind,
  to: string,
  claim: Claim,
  store: Store,
  links: TeamMailLinks,
  message: Message | null,
): Mail {
  return renderMail(to, store, contentFor(kind, claim, store, links, message));
}
