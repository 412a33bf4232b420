import { SETTINGS_GROUP_ACCESS, SETTINGS_GROUPS, type MeResponse } from '@claims/contracts';
import { holdsInternally, storesWith } from '../shared/session.js';
import { METHOD_READS } from '../money/PaymentMethodsPage.js';

/** The pages the sidebar links to (the router checks each against its routes). */
export type NavPath =
  | '/'
  | '/returns'
  | '/reviews'
  | '/analytics'
  | '/operations'
  | '/invoices'
  | '/payment-methods'
  | '/finance'
  | '/store-credit'
  | '/rules'
  | '/macros'
  | '/sops'
  | '/webhooks'
  | '/api-tokens'
  | '/settings'
  | '/branding'
  | '/ab-tests'
  | '/onboarding'
  | '/team'
  | '/support-users';

export interface NavLink {
  label: string;
  to: NavPath;
  /** Whether the signed-in user may use the page: the same check the page's API makes, so no link leads to a 403. */
  allowed: (me: MeResponse) => boolean;
  /** Active only on the page itself, not on the pages under it (the queue at / is under nothing else). */
  exact?: boolean;
}

export interface NavGroup {
  label: string;
  links: readonly NavLink[];
}

const anyStoreWith =
  (...permissions: Parameters<typeof storesWith>[1][]) =>
  (me: MeResponse) =>
    permissions.some((permission) => storesWith(me, permission).length > 0);

/** The back-office's pages grouped by the job they serve, in the order the sidebar shows them. */
export const NAV_GROUPS: readonly NavGroup[] = [
  {
    label: 'Claims',
    links: [
      // Every signed-in user works from the queue (it shows what their stores' claims they may read).
      { label: 'Claims', to: '/', allowed: () => true, exact: true },
      { label: 'Returns', to: '/returns', allowed: anyStoreWith('returns:read') },
      { label: 'Reviews', to: '/reviews', allowed: anyStoreWith('reviews:read') },
    ],
  },
  {
    label: 'Insights',
    links: [
      { label: 'Analytics', to: '/analytics', allowed: anyStoreWith('analytics:read') },
      { label: 'Operations', to: '/operations', allowed: (me) => holdsInternally(me, 'admin-stores:read') },
    ],
  },
  {
    label: 'Money',
    links: [
      { label: 'Invoices', to: '/invoices', allowed: anyStoreWith('invoice:read') },
      { label: 'Payment methods', to: '/payment-methods', allowed: anyStoreWith(...METHOD_READS) },
      { label: 'Finance', to: '/finance', allowed: (me) => holdsInternally(me, 'payout:read') },
      { label: 'Store credit', to: '/store-credit', allowed: anyStoreWith('store-credit:read') },
    ],
  },
  {
    label: 'Automation',
    links: [
      { label: 'Rules', to: '/rules', allowed: anyStoreWith('automation:read') },
      {
        label: 'Macros',
        to: '/macros',
        allowed: (me) => anyStoreWith('macro:read')(me) || holdsInternally(me, 'global-macro:read'),
      },
      { label: 'SOPs', to: '/sops', allowed: anyStoreWith('sop:read') },
    ],
  },
  {
    label: 'Integrations',
    links: [
      { label: 'Webhooks', to: '/webhooks', allowed: anyStoreWith('webhook:read') },
      { label: 'API tokens', to: '/api-tokens', allowed: anyStoreWith('api-tokens:read') },
    ],
  },
  {
    label: 'Settings',
    links: [
      {
        label: 'Settings',
        to: '/settings',
        allowed: (me) => SETTINGS_GROUPS.some((group) => storesWith(me, SETTINGS_GROUP_ACCESS[group].read).length > 0),
      },
      { label: 'Branding', to: '/branding', allowed: anyStoreWith('branding:read') },
      { label: 'A/B tests', to: '/ab-tests', allowed: anyStoreWith('ab-tests:read') },
      { label: 'Onboarding', to: '/onboarding', allowed: (me) => holdsInternally(me, 'admin-stores:read') },
    ],
  },
  {
    label: 'Team',
    links: [
      { label: 'Team', to: '/team', allowed: anyStoreWith('team-member:read') },
      { label: 'Support users', to: '/support-users', allowed: (me) => holdsInternally(me, 'support-user:read') },
    ],
  },
];

/** The groups as `me` sees them: only the links the user may use, and no group left empty. */
export const navigationFor = (me: MeResponse): NavGroup[] =>
  NAV_GROUPS.map((group) => ({ ...group, links: group.links.filter((link) => link.allowed(me)) })).filter(
    (group) => group.links.length > 0,
  );
