import { ROLES, type RoleName, type Store } from '@claims/contracts';
import { formatLongDate } from '@claims/format';
import type { Mail } from './mailer.js';
import { renderMail, type MailSender } from './mailLayout.js';

/** Order Protection's own mail (the support team's invitations): no store's name or branding. */
export const ORDER_PROTECTION_SENDER: MailSender = { name: 'Order Protection', branding: {} };

export interface InvitationMailFacts {
  to: string;
  name: string;
  role: RoleName;
  /** The store a team invitation was made from; null: the support team's. */
  store: Store | null;
  inviterName: string | null;
  expiresAt: string;
  /** Where the invitee sets their password: the one-time token rides in the fragment, which no server log sees. */
  link: string;
}

/** The mail that hands a new user their invitation: who invited them, to what, as what, and the link that works once. */
export function invitationMail(facts: InvitationMailFacts): Mail {
  const { store, role } = facts;
  const team = store ? `${store.name}'s team` : 'the Order Protection support team';
  const who = facts.inviterName ?? (store ? store.name : 'Order Protection');
  return renderMail(facts.to, store ?? ORDER_PROTECTION_SENDER, {
    subject: `You are invited to ${team}`,
    heading: `Join ${team}`,
    paragraphs: [
      `Hi ${facts.name},`,
      `${who} invited you to ${team} as ${ROLES[role].label}. Set your password with the link below to sign in to the claims back-office.`,
      `The link works once, until ${formatLongDate(facts.expiresAt)}.`,
    ],
    lines: [],
    action: { label: 'Accept the invitation', href: facts.link },
    footer: 'If you did not expect this invitation, ignore this mail: nothing happens until the link is used.',
  });
}
