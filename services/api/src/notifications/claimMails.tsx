import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { BUTTON_RADIUS, RESOLUTION_REASON_LABELS, toDecimal, type Claim, type Message, type NotificationKind, type Store } from '@claims/contracts';
import { formatLongDate, formatMoney, humanizeCode } from '@claims/ui/format';
import type { Mail } from './mailer.js';

/** What a mail says, in both parts: the HTML from React components, the plain text from the same facts. */
interface MailContent {
  subject: string;
  heading: string;
  paragraphs: string[];
  /** Lines of what was decided: "Refund: $18.00". */
  lines: string[];
}

const SAFE_COLOR = /^#[0-9a-fA-F]{3,8}$/;

function Layout({ store, link, content }: { store: Store; link: string; content: MailContent }): ReactNode {
  const accent = store.branding.brand700 && SAFE_COLOR.test(store.branding.brand700) ? store.branding.brand700 : '#1f2937';
  const radius = BUTTON_RADIUS[store.branding.buttonStyle ?? 'ROUNDED'];
  return (
    <html lang="en">
      <body style={{ margin: 0, padding: '24px', backgroundColor: '#f6f7f9', fontFamily: 'Arial, Helvetica, sans-serif', color: '#111827' }}>
        <table role="presentation" width="100%" style={{ maxWidth: '560px', margin: '0 auto', backgroundColor: '#ffffff', padding: '24px', borderRadius: '8px' }}>
          <tbody>
            <tr><td>
              {store.branding.logoUrl
                ? <img src={store.branding.logoUrl} alt={store.name} width={store.branding.logoWidths?.['email'] ?? 120} />
                : <p style={{ fontWeight: 700, fontSize: '18px', margin: 0 }}>{store.name}</p>}
              <h1 style={{ fontSize: '20px', margin: '20px 0 12px' }}>{content.heading}</h1>
              {content.paragraphs.map((p) => <p key={p} style={{ lineHeight: '1.5', margin: '0 0 12px', whiteSpace: 'pre-wrap' }}>{p}</p>)}
              {content.lines.length > 0 ? <ul style={{ paddingLeft: '20px', margin: '0 0 12px' }}>{content.lines.map((l) => <li key={l}>{l}</li>)}</ul> : null}
              <p style={{ margin: '20px 0' }}>
                <a href={link} style={{ backgroundColor: accent, color: '#ffffff', padding: '10px 18px', borderRadius: radius, textDecoration: 'none', display: 'inline-block' }}>View your claim</a>
              </p>
              <p style={{ fontSize: '12px', color: '#6b7280' }}>Or open this link: {link}</p>
            </td></tr>
          </tbody>
        </table>
      </body>
    </html>
  );
}

function contentFor(kind: NotificationKind, claim: Claim, store: Store, message: Message | null): MailContent {
  const hello = `Hi ${claim.customer.name},`;
  switch (kind) {
    case 'claim_filed':
      return {
        subject: `We received your claim #${claim.claimNumber}`,
        heading: `Claim #${claim.claimNumber} received`,
        paragraphs: [hello, `${store.name} received your claim for order ${claim.orderNumber} on ${formatLongDate(claim.filedAt)}. We'll email you when the store writes or decides.`],
        lines: claim.items.map((i) => `${i.name} × ${i.quantity}: ${humanizeCode(i.claimType)}`),
      };
    case 'store_reply':
      return {
        subject: `${store.name} wrote about your claim #${claim.claimNumber}`,
        heading: `A message about claim #${claim.claimNumber}`,
        paragraphs: [hello, `${message?.senderName ?? store.name} wrote:`, message?.messageContent ?? ''],
        lines: [],
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
      };
    }
    default: {
      const exhaustive: never = kind;
      return exhaustive;
    }
  }
}

/** The shopper's mail for one notification, with the store's branding and a plain-text part carrying the same link. */
export function claimMail(kind: NotificationKind, claim: Claim, store: Store, link: string, message: Message | null): Mail {
  const content = contentFor(kind, claim, store, message);
  const text = [content.heading, '', ...content.paragraphs, ...(content.lines.length ? ['', ...content.lines.map((l) => `- ${l}`)] : []), '', `View your claim: ${link}`, '', store.name].join('\n');
  return { to: claim.customer.email, subject: content.subject, text, html: `<!doctype html>${renderToStaticMarkup(<Layout store={store} link={link} content={content} />)}` };
}
