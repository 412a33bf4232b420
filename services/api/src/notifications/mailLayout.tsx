/** @jsxImportSource ./reactProduction */
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from './reactProduction/server.js';
import { BUTTON_RADIUS, type Store } from '@claims/contracts';
import type { AppContext } from '../context.js';
import type { Mail } from './mailer.js';
import { mailLogo, type InlineImage } from './mailLogo.js';

export interface MailLink {
  label: string;
  href: string;
}

/** What a mail says, in both parts: the HTML from React components, the plain text from the same facts. */
export interface MailContent {
  subject: string;
  heading: string;
  paragraphs: string[];
  /** Lines of facts: "Refund: $18.00". */
  lines: string[];
  /** Links listed one per line (a shopper's claims). */
  links?: MailLink[];
  /** The button under it all. */
  action: MailLink | null;
  /** Small print: why the reader gets this mail. */
  footer?: string;
}

/** Who a mail comes from, as it shows: a store (its name, branding and logo as an inline part), or Order Protection itself. */
export type MailSender = Pick<Store, 'name' | 'branding'> & { inlineLogo?: InlineImage | null };

/** The width of the logo in mail. */
const logoWidth = (store: MailSender): number => store.branding.logoWidths?.['email'] ?? 120;

const SAFE_COLOR = /^#[0-9a-fA-F]{3,8}$/;

function Layout({ store, content }: { store: MailSender; content: MailContent }): ReactNode {
  const accent =
    store.branding.brand700 && SAFE_COLOR.test(store.branding.brand700) ? store.branding.brand700 : '#1f2937';
  const radius = BUTTON_RADIUS[store.branding.buttonStyle ?? 'ROUNDED'];
  const { action } = content;
  const logo = store.inlineLogo ? `cid:${store.inlineLogo.cid}` : store.branding.logoUrl;
  return (
    <html lang="en">
      <body
        style={{
          margin: 0,
          padding: '24px',
          backgroundColor: '#f6f7f9',
          fontFamily: 'Arial, Helvetica, sans-serif',
          color: '#111827',
        }}
      >
        <table
          role="presentation"
          width="100%"
          style={{
            maxWidth: '560px',
            margin: '0 auto',
            backgroundColor: '#ffffff',
            padding: '24px',
            borderRadius: '8px',
          }}
        >
          <tbody>
            <tr>
              <td>
                {logo ? (
                  <img src={logo} alt={store.name} width={logoWidth(store)} />
                ) : (
                  <p style={{ fontWeight: 700, fontSize: '18px', margin: 0 }}>{store.name}</p>
                )}
                <h1 style={{ fontSize: '20px', margin: '20px 0 12px' }}>{content.heading}</h1>
                {content.paragraphs.map((p) => (
                  <p key={p} style={{ lineHeight: '1.5', margin: '0 0 12px', whiteSpace: 'pre-wrap' }}>
                    {p}
                  </p>
                ))}
                {content.lines.length > 0 ? (
                  <ul style={{ paddingLeft: '20px', margin: '0 0 12px' }}>
                    {content.lines.map((l) => (
                      <li key={l}>{l}</li>
                    ))}
                  </ul>
                ) : null}
                {content.links?.length ? (
                  <ul style={{ paddingLeft: '20px', margin: '0 0 12px' }}>
                    {content.links.map((l) => (
                      <li key={l.href}>
                        <a href={l.href} style={{ color: accent }}>
                          {l.label}
                        </a>
                      </li>
                    ))}
                  </ul>
                ) : null}
                {action ? (
                  <>
                    <p style={{ margin: '20px 0' }}>
                      <a
                        href={action.href}
                        style={{
                          backgroundColor: accent,
                          color: '#ffffff',
                          padding: '10px 18px',
                          borderRadius: radius,
                          textDecoration: 'none',
                          display: 'inline-block',
                        }}
                      >
                        {action.label}
                      </a>
                    </p>
                    <p style={{ fontSize: '12px', color: '#6b7280' }}>Or open this link: {action.href}</p>
                  </>
                ) : null}
                {content.footer ? <p style={{ fontSize: '12px', color: '#6b7280' }}>{content.footer}</p> : null}
              </td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>
  );
}

/**
 * The store as its mail shows it: its logo as an inline part when this server holds it (a PNG; an SVG drawn to one),
 * else at its absolute address (another site's), which a mail program loads itself. The result is still the store,
 * so the mail's writers take it as one; `renderMail` finds the logo on it.
 */
export async function mailStore<S extends Store>(
  ctx: AppContext,
  store: S,
): Promise<S & { inlineLogo: InlineImage | null }> {
  const { logoUrl } = store.branding;
  if (!logoUrl) return { ...store, inlineLogo: null };
  const inlineLogo = await mailLogo(ctx, logoUrl, logoWidth(store));
  return {
    ...store,
    inlineLogo,
    branding: { ...store.branding, logoUrl: new URL(logoUrl, `${ctx.config.publicUrl}/`).href },
  };
}

/** A mail in the store's colours and logo, with a plain-text part carrying the same facts and links. */
export function renderMail(to: string, store: MailSender, content: MailContent): Mail {
  const text = [
    content.heading,
    '',
    ...content.paragraphs,
    ...(content.lines.length ? ['', ...content.lines.map((l) => `- ${l}`)] : []),
    ...(content.links?.length ? ['', ...content.links.map((l) => `- ${l.label}: ${l.href}`)] : []),
    ...(content.action ? ['', `${content.action.label}: ${content.action.href}`] : []),
    '',
    store.name,
    ...(content.footer ? ['', content.footer] : []),
  ].join('\n');
  const html = `<!doctype html>${renderToStaticMarkup(<Layout store={store} content={content} />)}`;
  return { to, subject: content.subject, text, html, ...(store.inlineLogo ? { attachments: [store.inlineLogo] } : {}) };
}
