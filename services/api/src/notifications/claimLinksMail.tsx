import { CLAIM_STATUS_LABELS, type Claim, type Store } from '@claims/contracts';
import { formatLongDate } from '@claims/format';
import type { Mail } from './mailer.js';
import { renderMail } from './mailLayout.js';

/** The answer to a shopper who asked for their claim links: a fresh link per claim of the order, or how to file one. */
export function claimLinksMail(
  to: string,
  orderNumber: string,
  store: Store,
  claims: ReadonlyArray<{ claim: Claim; link: string }>,
  startLink: string,
): Mail {
  const subject = `Your claim links for order ${orderNumber}`;
  if (claims.length === 0) {
    return renderMail(to, store, {
      subject,
      heading: `Order ${orderNumber}`,
      paragraphs: [
        'Someone asked for the links to the claims on this order.',
        `There is no claim on order ${orderNumber} yet. You can file one on the claims page.`,
      ],
      lines: [],
      action: { label: 'File a claim', href: startLink },
      footer: 'If you did not ask for this, you can ignore this mail.',
    });
  }
  return renderMail(to, store, {
    subject,
    heading: `Your claims on order ${orderNumber}`,
    paragraphs: ['Someone asked for the links to the claims on this order. Here they are; each link opens its claim.'],
    lines: [],
    links: claims.map(({ claim, link }) => ({
      label: `Claim #${claim.claimNumber} (${CLAIM_STATUS_LABELS[claim.status]}), filed ${formatLongDate(claim.filedAt)}`,
      href: link,
    })),
    action: null,
    footer: 'If you did not ask for this, you can ignore this mail: the links reach only this address.',
  });
}
