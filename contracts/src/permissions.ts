import { z } from 'zod';

/**
 * Permissions as data (docs/product.md#roles-and-permissions): `resource:action` strings, the roles of the table and what each may
 * do. The server enforces these rows on every endpoint and the back-office hides what a role lacks.
 * Rows the spec leaves open (finance, implementation, the exact reads of the store roles) are
 * decided here and explained in docs/permissions.md.
 */

/** The back-office resources (permission names) (docs/product.md#roles-and-permissions). */
export const RESOURCES = [
  'ab-tests',
  'account',
  'account-stores',
  'admin-stores',
  'admin-users',
  'analytics',
  'api-tokens',
  'automation',
  'billing',
  'billing-method',
  'billing-settings',
  'branding',
  'capabilities',
  'claim',
  'claim-filing',
  'claim-note',
  'contact',
  'finance',
  'finance-admin',
  'global-macro',
  'implementation',
  'invoice',
  'label',
  'macro',
  'message',
  'metadata',
  'notifications',
  'order',
  'ota',
  'payout',
  'payment-method',
  'payout-method',
  'product-variant',
  'policies',
  'pricing',
  'protection',
  'quote-pricing',
  'returns',
  'reviews',
  'slack',
  'sop',
  'store',
  'store-credit',
  'support',
  'support-user',
  'team-member',
  'user',
  'webhook',
  'whitelabel',
] as const;
export type Resource = (typeof RESOURCES)[number];

export const CRUD_ACTIONS = ['create', 'read', 'update', 'delete'] as const;
export type CrudAction = (typeof CRUD_ACTIONS)[number];

/** The actions beyond create, read, update and delete (docs/product.md#roles-and-permissions). */
export const EXTRA_PERMISSIONS = [
  'claim:resolve',
  'protection:add',
  'protection:remove',
  'label:add',
  'label:remove',
  'implementation:deploy',
  'implementation:review',
  'implementation:approve',
  'implementation:reject',
  'implementation:create',
  'implementation:brand-create',
  'team-member:change-role',
  'team-member:edit',
  'team-member:grant-ownership',
  'team-member:invite',
  'team-member:remove',
  'slack:create-channel',
  'slack:view-channel',
  'sop:set-state',
  'whitelabel:list',
  'whitelabel:restart',
  'store:activate',
  'support:member-create',
  'support:read',
  'support:update',
  'support:delete',
  'supportUser:create',
] as const;

/** Settings areas; each has read and update, except general, which is read-only (docs/product.md#settings-groups). */
export const SETTINGS_AREAS = [
  'general',
  'claim-acknowledgment',
  'customer-communication',
  'fulfillment',
  'metadata',
  'one-time-appeasements',
  'replacement-cost',
  'rev-share',
  'widget',
] as const;
export type SettingsArea = (typeof SETTINGS_AREAS)[number];

const settingsPermissions = SETTINGS_AREAS.flatMap((area) =>
  area === 'general'
    ? [`settings-${area}:read` as const]
    : [`settings-${area}:read` as const, `settings-${area}:update` as const],
);

const crudPermissions = RESOURCES.flatMap((resource) => CRUD_ACTIONS.map((action) => `${resource}:${action}` as const));

/**
 * Every permission string the product knows, sorted and unique. Each part is built `as const`, so
 * the element type is the union of the actual strings and a misspelt permission does not compile.
 */
export const ALL_PERMISSIONS = [...new Set([...crudPermissions, ...EXTRA_PERMISSIONS, ...settingsPermissions])].sort();

const [firstPermission, ...otherPermissions] = ALL_PERMISSIONS;
if (firstPermission === undefined) throw new Error('ALL_PERMISSIONS is empty');

/** One permission string of {@link ALL_PERMISSIONS} (listed as an enum in the OpenAPI document). */
export const Permission = z.enum([firstPermission, ...otherPermissions]);
export type Permission = z.infer<typeof Permission>;

const KNOWN_PERMISSIONS: ReadonlySet<string> = new Set(ALL_PERMISSIONS);
/** Narrows a stored string (a token's grant, a row) to a permission the product still knows. */
export const isPermission = (value: string): value is Permission => KNOWN_PERMISSIONS.has(value);

export const RoleLevel = z.enum(['account', 'store', 'internal']);
export type RoleLevel = z.infer<typeof RoleLevel>;

export const ROLE_NAMES = [
  'account_owner',
  'account_admin',
  'account_user',
  'store_owner',
  'store_admin',
  'store_support',
  'store_user',
  'orderprotection_admin',
  'orderprotection_support',
  'orderprotection_support_admin',
  'orderprotection_finance',
  'orderprotection_implementation',
] as const;
export const RoleName = z.enum(ROLE_NAMES);
export type RoleName = z.infer<typeof RoleName>;

export interface RoleDefinition {
  readonly level: RoleLevel;
  readonly label: string;
  /** The spec's wording, or "decided" with the reason. */
  readonly summary: string;
  readonly permissions: readonly Permission[];
}

// ---------------------------------------------------------------------------------------------
// Building blocks (all data; the role rows below only combine them).

const crud = (resource: Resource, actions: readonly CrudAction[] = CRUD_ACTIONS): Permission[] =>
  actions.map((action) => `${resource}:${action}` as const);
const byPrefix = (resource: Resource): Permission[] => ALL_PERMISSIONS.filter((p) => p.startsWith(`${resource}:`));
const without = (list: readonly Permission[], ...removed: readonly Permission[]): Permission[] =>
  list.filter((p) => !removed.includes(p));
const union = (...lists: ReadonlyArray<readonly Permission[]>): Permission[] => [...new Set(lists.flat())].sort();

/** Resources only Order Protection staff touch; no merchant role holds any right on them. */
export const INTERNAL_RESOURCES: readonly Resource[] = [
  'admin-stores',
  'admin-users',
  'finance',
  'finance-admin',
  'global-macro',
  'implementation',
  'support',
  'support-user',
  'pricing',
  'quote-pricing',
  'ota',
  'slack',
  'payout',
];
/** Order Protection's own money terms with a store (replacement cost, revenue share, pricing): only its staff set them. */
const INTERNAL_MONEY_TERMS: readonly Permission[] = ['settings-replacement-cost:update', 'settings-rev-share:update'];
/** What the merchant reads of those terms although the resource is internal: the premium it is charged. */
const MERCHANT_READS_OF_INTERNAL: readonly Permission[] = ['pricing:read'];
const isInternal = (p: Permission): boolean =>
  !MERCHANT_READS_OF_INTERNAL.includes(p) &&
  (INTERNAL_RESOURCES.some((r) => p.startsWith(`${r}:`)) ||
    p.startsWith('supportUser:') ||
    ['whitelabel:list', 'whitelabel:restart', 'store:activate', ...INTERNAL_MONEY_TERMS].includes(p));

/** Order Protection issues invoices; merchants read them. */
const MERCHANT_READ_ONLY: readonly Permission[] = ['invoice:create', 'invoice:update', 'invoice:delete'];

/** Everything a merchant's own account can hold. */
const TENANT_ALL: readonly Permission[] = ALL_PERMISSIONS.filter(
  (p) => !isInternal(p) && !MERCHANT_READ_ONLY.includes(p),
);
const TENANT_READS: readonly Permission[] = TENANT_ALL.filter((p) => p.endsWith(':read'));
/** Reads that stay with owners and admins: money movements, credentials and the team. */
const SENSITIVE_READS: readonly Permission[] = [
  'billing:read',
  'billing-method:read',
  'billing-settings:read',
  'payment-method:read',
  'payout-method:read',
  'invoice:read',
  'api-tokens:read',
  'webhook:read',
  'team-member:read',
  'ab-tests:read',
  'pricing:read',
];
const STAFF_READS: readonly Permission[] = without(TENANT_READS, ...SENSITIVE_READS);

const OWNER_RIGHTS = [...TENANT_ALL];
const ADMIN_RIGHTS = without(TENANT_ALL, 'team-member:grant-ownership');
const VIEWER_RIGHTS = union(TENANT_READS, ['claim:create', 'user:update', 'protection:remove']);
const SUPPORT_RIGHTS = union(
  STAFF_READS,
  crud('claim', ['read', 'create', 'update']),
  ['claim:resolve'],
  crud('claim-note'),
  crud('message', ['read', 'create']),
  crud('label'),
  ['label:add', 'label:remove'],
  crud('metadata'),
);
const STORE_USER_RIGHTS = union(
  STAFF_READS,
  ['metadata:create'],
  crud('claim', ['read', 'create', 'update']),
  crud('claim-note'),
);

const OP_SUPPORT_RIGHTS = union(SUPPORT_RIGHTS, [
  'macro:read',
  'global-macro:read',
  'support:read',
  'sop:read',
  'slack:view-channel',
  'claim-filing:read',
  'ota:read',
  'store:read',
  'order:read',
  'protection:read',
]);
const OP_SUPPORT_ADMIN_RIGHTS = union(OP_SUPPORT_RIGHTS, [
  'claim-filing:update',
  'support:member-create',
  'support:update',
  'support:delete',
  'supportUser:create',
  'support-user:create',
  'support-user:read',
  'support-user:update',
  'support-user:delete',
  'global-macro:create',
  'global-macro:read',
  'global-macro:update',
  'capabilities:read',
]);
const OP_ADMIN_RIGHTS = ALL_PERMISSIONS.filter(
  (p) => !p.startsWith('finance-admin:') && !p.startsWith('implementation:'),
);
const OP_FINANCE_RIGHTS = union(
  byPrefix('finance'),
  byPrefix('finance-admin'),
  crud('invoice'),
  crud('payout'),
  crud('payout-method', ['read', 'update']),
  crud('billing', ['read', 'update']),
  crud('billing-settings', ['read', 'update']),
  crud('billing-method', ['read']),
  crud('payment-method', ['read']),
  crud('pricing', ['read']),
  crud('quote-pricing', ['read']),
  crud('store-credit', ['read']),
  crud('analytics', ['read']),
  crud('protection', ['read']),
  crud('claim', ['read']),
  crud('order', ['read']),
  crud('store', ['read']),
  crud('account', ['read']),
  crud('account-stores', ['read']),
  crud('admin-stores', ['read']),
  ['settings-rev-share:read', 'settings-rev-share:update', 'settings-replacement-cost:read', 'settings-general:read'],
);
const OP_IMPLEMENTATION_RIGHTS = union(
  byPrefix('implementation'),
  crud('store', ['read', 'update']),
  ['store:activate'],
  crud('branding'),
  crud('capabilities', ['read', 'update']),
  crud('whitelabel', ['read', 'update']),
  ['whitelabel:list', 'whitelabel:restart'],
  settingsPermissions,
  crud('metadata', ['read']),
  crud('webhook', ['read']),
  crud('claim-filing', ['read', 'update']),
  crud('account', ['read']),
  crud('account-stores', ['read']),
  crud('admin-stores', ['read']),
  crud('claim', ['read']),
  crud('order', ['read']),
  crud('policies', ['read', 'update']),
  crud('returns', ['read', 'update']),
  crud('contact', ['read', 'update']),
  crud('slack', ['read']),
  ['slack:view-channel'],
);

/** Role table, with every right spelled out (docs/product.md#roles-and-permissions). */
export const ROLES: Readonly<Record<RoleName, RoleDefinition>> = {
  account_owner: {
    level: 'account',
    label: 'Account owner',
    summary:
      'Broad settings, billing, team, webhook, API-token, A/B-test and SOP rights on every store of the account; can change roles and grant ownership.',
    permissions: union(OWNER_RIGHTS),
  },
  account_admin: {
    level: 'account',
    label: 'Account admin',
    summary: "The owner's rights on every store of the account, except granting ownership.",
    permissions: union(ADMIN_RIGHTS),
  },
  account_user: {
    level: 'account',
    label: 'Account user',
    summary: 'Reads everything of the account; may create claims, update users and remove protection.',
    permissions: VIEWER_RIGHTS,
  },
  store_owner: {
    level: 'store',
    label: 'Store owner',
    summary: "The account owner's rights, on one store.",
    permissions: union(OWNER_RIGHTS),
  },
  store_admin: {
    level: 'store',
    label: 'Store admin',
    summary: "The account admin's rights, on one store.",
    permissions: union(ADMIN_RIGHTS),
  },
  store_support: {
    level: 'store',
    label: 'Store support',
    summary:
      'Reads, creates, updates and resolves claims; manages notes, labels and metadata; sends messages. No billing or settings writes.',
    permissions: SUPPORT_RIGHTS,
  },
  store_user: {
    level: 'store',
    label: 'Store user',
    summary:
      'Reads; creates metadata; creates and updates claims; manages notes. Cannot resolve claims or send messages.',
    permissions: STORE_USER_RIGHTS,
  },
  orderprotection_admin: {
    level: 'internal',
    label: 'Order Protection admin',
    summary: 'Every permission except the finance-admin and implementation ones, on every store.',
    permissions: union(OP_ADMIN_RIGHTS),
  },
  orderprotection_support: {
    level: 'internal',
    label: 'Order Protection support',
    summary: "Global support: store support's rights on every store, plus macro, SOP and support reads.",
    permissions: OP_SUPPORT_RIGHTS,
  },
  orderprotection_support_admin: {
    level: 'internal',
    label: 'Order Protection support admin',
    summary:
      'Support plus claim-filing update, support member management, global macro create/read/update, capabilities read.',
    permissions: OP_SUPPORT_ADMIN_RIGHTS,
  },
  orderprotection_finance: {
    level: 'internal',
    label: 'Order Protection finance',
    summary:
      'Decided: finance and finance-admin (the rights the admin role lacks), invoices, payouts and billing; reads claims, orders and stores to reconcile them. Cannot resolve claims or message shoppers.',
    permissions: OP_FINANCE_RIGHTS,
  },
  orderprotection_implementation: {
    level: 'internal',
    label: 'Order Protection implementation',
    summary:
      'Decided: every implementation action, store set-up (branding, whitelabel, capabilities, settings, activation); reads claims and orders.',
    permissions: OP_IMPLEMENTATION_RIGHTS,
  },
};

/** Only these roles may grant ownership (docs/product.md#roles-and-permissions). */
export const OWNER_ROLES: readonly RoleName[] = ['account_owner', 'store_owner'];

export const roleAllows = (role: RoleName, permission: Permission): boolean =>
  ROLES[role].permissions.includes(permission);
